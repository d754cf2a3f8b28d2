import Foundation
import LocalAppStore
import StoreCore

/// `storefront signed`: every item the local App Store signs, as it signs it now.
struct SignedItemsVerb: Verb {
    let name = ""
    var options: [any CommandOption] { [GlobalOptions.json] }
    let abstract = """
        print what a backend receives, signed as the App Store signs in the store's environment ('store set \
        environment Sandbox|Production|Xcode|LocalTesting'): each transaction of the account with its signed \
        transaction (JWS), each subscription's signed renewal info, the signed app transaction, and the app \
        receipt (base64, RSA-signed PKCS#7). --json prints an object with environment, bundleId, appAppleId, \
        rootCertificate (the DER root to trust), ocspURL, transactions (transactionId, originalTransactionId, \
        productId, state, signedTransaction), renewalInfo (originalTransactionId, signedRenewalInfo), \
        appTransaction and receipt
        """

    func run(_ call: VerbCall) async throws(CLIError) {
        let (_, _, backend) = try await StoreSession.openBackend(call.invocation, context: call.context)
        let transactions: [Transaction]
        let settings: LocalStoreSettings
        let appTransaction: String
        do {
            transactions = try await backend.transactionManager.history()
            settings = try await backend.settings.current()
            appTransaction = try await backend.receipts.signedAppTransaction()
        } catch {
            throw .runtime("cannot sign the store's items: \(error)")
        }
        let renewals = await backend.renewalInfo()
        let receipt = await backend.appReceipt()
        let environment = settings.environment.rawValue
        if call.json {
            call.output.write(
                JSONText.object([
                    ("environment", .string(environment)),
                    ("bundleId", .string(backend.configuration.bundleID)),
                    ("appAppleId", .number(String(settings.appAppleID))),
                    ("rootCertificate", .string(backend.receipts.rootCertificateURL.path)),
                    ("ocspURL", .string(settings.ocspURL)),
                    (
                        "transactions",
                        .array(
                            transactions.map { t in
                                .object([
                                    ("transactionId", .string(t.transactionID)),
                                    ("originalTransactionId", .string(t.originalTransactionID)),
                                    ("productId", .string(t.productID)),
                                    ("state", .string(TransactionOutput.state(of: t))),
                                    ("signedTransaction", .optional(t.signedTransaction)),
                                ])
                            })
                    ),
                    (
                        "renewalInfo",
                        .array(
                            renewals.map { info in
                                .object([
                                    ("originalTransactionId", .string(info.originalTransactionID)),
                                    ("signedRenewalInfo", .optional(info.signedRenewalInfo)),
                                ])
                            })
                    ),
                    ("appTransaction", .string(appTransaction)),
                    ("receipt", .optional(receipt?.base64EncodedString())),
                ]).rendered())
            return
        }
        var lines = ["Environment: \(environment)   root certificate: \(backend.receipts.rootCertificateURL.path)"]
        lines += transactions.map {
            "transaction \($0.transactionID) (\($0.productID)): \($0.signedTransaction ?? "-")"
        }
        lines += renewals.map { "renewal info \($0.originalTransactionID): \($0.signedRenewalInfo ?? "-")" }
        lines.append("app transaction: \(appTransaction)")
        lines.append("receipt: \(receipt?.base64EncodedString() ?? "-")")
        call.output.write(lines.joined(separator: "\n") + "\n")
    }
}
