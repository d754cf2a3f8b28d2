/// Apple's `RealtimeUrlRequest` (Configure Realtime URL) and `RealtimeUrlResponse` (Get
/// Realtime URL): one member, `realtimeURL`.
struct RealtimeURLBody: Codable, Hashable, Sendable {
    var realtimeURL: String?
}
