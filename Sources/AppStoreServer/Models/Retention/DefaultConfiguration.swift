/// Apple's `DefaultConfigurationRequest` (Configure Default Message) and
/// `DefaultConfigurationResponse` (Get Default Message): one member, `messageIdentifier`.
struct DefaultConfiguration: Codable, Hashable, Sendable {
    var messageIdentifier: String?
}
