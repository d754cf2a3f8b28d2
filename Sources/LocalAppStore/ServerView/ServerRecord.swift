import Foundation

/// What the App Store Server API adds to the store's journal (kind `server`): consumption
/// information, app account tokens, and renewal-date extensions. One member is set per record.
struct ServerRecord: Codable, Hashable, Sendable {
    var consumption: ConsumptionRecord?
    var appAccountToken: AppAccountTokenRecord?
    var renewalExtension: RenewalExtension?
    var massExtension: MassRenewalExtension?
}

/// An app account token set through the API for a purchase (by original transaction ID).
struct AppAccountTokenRecord: Codable, Hashable, Sendable {
    var originalTransactionID: String
    var token: UUID
}
