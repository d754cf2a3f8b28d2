/// Apple's `GetMessageListResponse` (Get Message List).
struct GetMessageListResponse: Codable, Hashable, Sendable {
    /// Apple's `GetMessageListResponseItem`.
    struct Item: Codable, Hashable, Sendable {
        var messageIdentifier: String
        var messageState: String
    }

    var messageIdentifiers: [Item]
}
