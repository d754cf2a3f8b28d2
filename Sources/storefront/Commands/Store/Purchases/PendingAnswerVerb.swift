import LocalAppStore
import StoreCore

/// `storefront store approve ID`, `decline ID` and `resolve ID`: the Transaction Manager's
/// answer to a pending purchase, which the store then completes or fails.
struct PendingAnswerVerb: Verb {
    let name: String
    let abstract: String
    /// How the result line starts, e.g. `Approved`.
    let done: String
    /// The store's call for the answer.
    let answer: @Sendable (LocalAppStore, String) async throws -> Transaction
    let arguments = [Argument("ID")]

    static let approve = PendingAnswerVerb(
        name: "approve", abstract: "approve an Ask to Buy purchase (the account is charged)", done: "Approved"
    ) { try await $0.transactionManager.approve(transactionID: $1) }
    static let decline = PendingAnswerVerb(
        name: "decline", abstract: "decline an Ask to Buy purchase (it fails as cancelled)", done: "Declined"
    ) { try await $0.transactionManager.decline(transactionID: $1) }
    static let resolve = PendingAnswerVerb(
        name: "resolve", abstract: "resolve an interrupted purchase (it completes)", done: "Resolved"
    ) { try await $0.transactionManager.resolve(transactionID: $1) }

    func run(_ call: VerbCall) async throws(CLIError) {
        let t = try await call.store { try await answer($0, call.arguments[0]) }
        call.write(
            json: TransactionOutput.json(t),
            lines: ["\(done) transaction \(t.transactionID) (\(t.productID)): now \(t.state.rawValue)."])
    }
}
