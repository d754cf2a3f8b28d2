import Foundation
import Receipts
import StoreKitValues

/// `storefront receipt [FILE]`: the store's app receipt, or the one in FILE, decoded.
struct ReceiptPrintVerb: Verb {
    let name = ""
    let arguments = [Argument("FILE", optional: true)]
    var options: [any CommandOption] { [GlobalOptions.json] }
    let abstract = """
        without FILE, print the app receipt the local App Store keeps in the data directory; FILE may be DER \
        or base64. --json prints the fields with the receipt model's names (receiptType, bundleID, appVersion, \
        opaqueHex, sha1Hex, creationDate, inApp…)
        """

    func run(_ call: VerbCall) async throws(CLIError) {
        let bytes: Data
        if let path = call.arguments.first {
            bytes = try CommandLineFile.read(path, context: call.context, what: "receipt").contents
        } else {
            let session = try await StoreSession.open(call.invocation, context: call.context, readsOnly: true)
            let stored = await session.backend.appReceipt()
            await session.close()
            guard let stored else {
                throw .runtime(
                    "the local App Store has no app receipt yet in the data directory (buy, restore or refresh first)")
            }
            bytes = stored
        }
        let receipt: AppReceipt
        do {
            receipt = try ReceiptDecoder().decode(Array(bytes))
        } catch {
            throw .runtime("\(call.arguments.first ?? "the app receipt") is not a readable receipt: \(error)")
        }
        call.output.write(call.json ? ReceiptOutput.json(receipt).rendered() : ReceiptOutput.text(receipt))
    }
}
