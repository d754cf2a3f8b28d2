import Foundation
import StoreKitValues

/// The status line and the log, which every screen reports to through the root: a message that
/// fades, a line in the event log, or both; and errors in the interface's words.
extension State {
    /// Shows a message in the status line.
    mutating func show(_ text: String, kind: StatusMessage.Kind = .info) {
        message = StatusMessage(text, kind: kind, shownAt: now)
    }

    /// Adds a line to the event log.
    mutating func record(_ text: String, isError: Bool = false) {
        _ = update(.eventLog(.record(LogEntry(time: now, text: text, isError: isError))))
    }

    /// Shows a message and records it in the log.
    mutating func report(_ text: String, kind: StatusMessage.Kind = .info) {
        show(text, kind: kind)
        record(text, isError: kind == .error)
    }

    /// Shows an error that belongs to no window: a message that does not block, and a log line.
    mutating func fail(_ error: StoreError) {
        report(strings("Error: {}", describe(error)), kind: .error)
    }

    /// A store error in the interface's language: the phrase once, then what the store said.
    func describe(_ error: StoreError) -> String {
        switch error {
        case .paymentCancelled: strings("The payment was cancelled.")
        case .paymentNotAllowed: strings("Payments are not allowed on this device or account.")
        case .networkError(let why): strings("The store could not be reached: {}", why)
        case .productNotAvailable(let id): strings("{} is not sold in this storefront.", name(of: id))
        case .unknownTransaction(let id): strings("No transaction {} is known.", id)
        case .interrupted: strings("The purchase was interrupted; resolve it to complete the purchase.")
        default: error.description
        }
    }

    /// Shows the app transaction (`i`) in the status line and the log: since when the account
    /// has the app, in which version, and whether its signature checked out.
    mutating func showAppTransaction(_ result: Result<VerificationResult<AppTransaction>, StoreError>) {
        switch result {
        case .success(let verification):
            let app = verification.unsafePayloadValue
            let verdict =
                verification.verificationError.map { strings("unverified: {}", $0.description) } ?? strings("verified")
            let text = strings(
                "App transaction {}: original version {}, since {} ({})", app.appTransactionID, app.originalAppVersion,
                Format.minute(app.originalPurchaseDate), verdict)
            show(text, kind: verification.isVerified ? .success : .error)
            record(text, isError: !verification.isVerified)
        case .failure(let error):
            fail(error)
        }
    }
}
