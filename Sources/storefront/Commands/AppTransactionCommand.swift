import Foundation
import StoreCore

/// `storefront app-transaction`: the app's own purchase, as StoreKit 2's `AppTransaction.shared`
/// gives it, verified against the local store's root.
struct AppTransactionCommand: Command {
    let name = "app-transaction"
    let summary = "Show the app transaction: the app's download, signed and verified."
    var forms: [UsageForm] { [UsageForm(optional: [GlobalOptions.json])] }
    let discussion = """
        Fetches the signed app transaction (JWS) of the account on this device and verifies it
        as StoreKit 2 does: the chain to the local store's root, the signature, the bundle ID,
        the environment and the device verification hash. Prints whether it is verified, the
        app transaction ID, the app version, the original app version and the original
        purchase date (when the account first got the app), the environment and when it was
        signed. --json prints an object with verification (verified or unverified), error (why
        it is unverified, else null), appTransaction (appTransactionID, bundleID, appVersion,
        originalAppVersion, originalPurchaseDate, environment, signedDate, appID) and jws.
        Exits 1 when it is unverified.
        """

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard invocation.arguments.isEmpty else { throw .usage("app-transaction takes no arguments.") }
        let session = try await StoreSession.open(invocation, context: context, verifiesAppTransaction: true)
        let result: VerificationResult<AppTransaction>
        do {
            result = try await session.store.appTransaction()
        } catch {
            await session.close()
            throw .runtime("cannot get the app transaction: \(error.description)")
        }
        await session.close()
        let app = result.unsafePayloadValue
        if invocation.global.json {
            context.output.write(
                JSONText.object([
                    ("verification", .string(result.isVerified ? "verified" : "unverified")),
                    ("error", .optional(result.verificationError?.description)),
                    ("appTransaction", Self.json(app)),
                    ("jws", .string(app.jwsRepresentation)),
                ]).rendered())
        } else {
            context.output.write(Self.describe(result).joined(separator: "\n") + "\n")
        }
        if let error = result.verificationError {
            throw .runtime("the app transaction is not verified: \(error.description)")
        }
    }

    /// The app transaction as a JSON object, members in contract order.
    static func json(_ app: AppTransaction) -> JSONText {
        .object([
            ("appTransactionID", .string(app.appTransactionID)),
            ("bundleID", .string(app.bundleID)),
            ("appVersion", .string(app.appVersion)),
            ("originalAppVersion", .string(app.originalAppVersion)),
            ("originalPurchaseDate", .string(TransactionOutput.date(app.originalPurchaseDate))),
            ("environment", .string(app.rawEnvironment)),
            ("signedDate", .string(TransactionOutput.date(app.signedDate))),
            ("appID", app.appID.map { .number(String($0)) } ?? .null),
        ])
    }

    /// The human lines: the verdict, then one member a line.
    static func describe(_ result: VerificationResult<AppTransaction>) -> [String] {
        let app = result.unsafePayloadValue
        let verdict = result.verificationError.map { "unverified: \($0.description)" } ?? "verified"
        return [
            "App transaction \(app.appTransactionID) (\(verdict))",
            "  bundle ID             \(app.bundleID)",
            "  app version           \(app.appVersion)",
            "  original app version  \(app.originalAppVersion)",
            "  original purchase     \(TransactionOutput.date(app.originalPurchaseDate))",
            "  environment           \(app.rawEnvironment)",
            "  signed                \(TransactionOutput.date(app.signedDate))",
        ]
    }
}
