import Foundation
import StoreCore

/// StoreKit 2's pieces in the storefront: the app transaction (`i`).
extension State {
    /// Shows the app transaction in the status line and the log: since when the account has
    /// the app, in which version, and whether its signature checked out.
    mutating func showAppTransaction(_ result: Result<VerificationResult<AppTransaction>, StoreError>) {
        switch result {
        case .success(let verification):
            let app = verification.unsafePayloadValue
            let verdict = verification.verificationError.map { strings("unverified: {}", $0.description) } ?? strings("verified")
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
