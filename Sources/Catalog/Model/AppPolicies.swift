/// The app's license agreement and privacy policies (`appPolicies`, formats 4 and later), as
/// App Store Connect holds them.
public struct AppPolicies: Sendable, Hashable {
    /// A privacy policy in one locale.
    public struct Policy: Sendable, Hashable {
        /// The locale identifier, e.g. `en_US`.
        public var locale: String
        /// The policy's text (`policyText`), empty when absent.
        public var text: String = ""
        /// The policy's address (`policyURL`), empty when absent.
        public var url: String = ""
        /// Members the catalog does not model, kept as read.
        public var extra: [String: JSONValue] = [:]
    }

    /// The custom license agreement (`eula`); empty means Apple's standard one.
    public var eula: String = ""
    /// The privacy policies, in file order.
    public var policies: [Policy] = []
    /// Members the catalog does not model, kept as read.
    public var extra: [String: JSONValue] = [:]
}
