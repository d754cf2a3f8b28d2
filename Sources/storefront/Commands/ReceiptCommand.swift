import Foundation
import Receipts

/// `storefront receipt [FILE]` prints a decoded app receipt; `storefront receipt verify FILE
/// --root CERT` verifies any receipt file, Apple's included.
struct ReceiptCommand: Command {
    let name = "receipt"
    let summary = "Print a decoded app receipt, or verify one against a trusted root."
    let usage = "[FILE] [--json] | verify FILE --root CERT [--at DATE] [--bundle-id ID] [--app-version V] [--device-id UUID]"
    let discussion = """
        Without FILE, prints the app receipt the local App Store keeps in the data directory.
        FILE may be DER or base64. --json prints the fields with the receipt model's names
        (receiptType, bundleID, appVersion, opaqueHex, sha1Hex, creationDate, inApp…).
        'receipt verify' checks the signature and certificate chain against --root (a DER or
        PEM certificate, e.g. AppleIncRootCertificate.cer) at the receipt's creation date, or
        at --at; --bundle-id, --app-version and --device-id (identifierForVendor, for the
        SHA-1 hash) add checks. It exits 1 with the reason when the receipt is not valid.
        """
    let options: [OptionSpec] = [
        OptionSpec(name: "root", valueName: "CERT", help: "Trusted root certificate (DER or PEM), for verify."),
        OptionSpec(name: "at", valueName: "DATE", help: "Check certificates at this date (RFC 3339) instead of the creation date."),
        OptionSpec(name: "bundle-id", valueName: "ID", help: "The bundle ID the receipt must be for."),
        OptionSpec(name: "app-version", valueName: "VERSION", help: "The app version the receipt must be for."),
        OptionSpec(name: "device-id", valueName: "UUID", help: "The device identifier the SHA-1 hash must match."),
    ]

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        if invocation.arguments.first == "verify" {
            try verify(invocation, context: context)
            return
        }
        guard invocation.arguments.count <= 1 else { throw .usage("receipt takes at most one FILE.") }
        let bytes: Data
        if let path = invocation.arguments.first {
            bytes = try ReceiptOutput.read(path, context: context, what: "receipt")
        } else {
            let session = try await StoreSession.open(invocation, context: context)
            let stored = await session.backend.appReceipt()
            await session.close()
            guard let stored else {
                throw .runtime("the local App Store has no app receipt yet in the data directory (buy, restore or refresh first)")
            }
            bytes = stored
        }
        let receipt: AppReceipt
        do {
            receipt = try ReceiptDecoder().decode(Array(bytes))
        } catch {
            throw .runtime("\(invocation.arguments.first ?? "the app receipt") is not a readable receipt: \(error)")
        }
        context.output.write(invocation.global.json ? ReceiptOutput.json(receipt).rendered() : ReceiptOutput.text(receipt))
    }

    private func verify(_ invocation: Invocation, context: CommandContext) throws(CLIError) {
        guard invocation.arguments.count == 2 else { throw .usage("receipt verify takes exactly one FILE.") }
        guard let rootPath = invocation.options["root"] else { throw .usage("receipt verify needs --root CERT.") }
        let root = try ReceiptOutput.read(rootPath, context: context, what: "root certificate")
        let bytes = try ReceiptOutput.read(invocation.arguments[1], context: context, what: "receipt")
        let at = try ReceiptOutput.date(option: invocation.options["at"])
        var device: [UInt8]?
        if let uuid = invocation.options["device-id"] {
            guard let identifier = ReceiptValidator.deviceIdentifier(uuid: uuid) else {
                throw .usage("--device-id \(uuid): expected a UUID such as 956328D9-CC6A-47F4-BE40-6953FB0AB6C7")
            }
            device = identifier
        }
        let validator: ReceiptValidator
        do {
            validator = try ReceiptValidator(trustedRoots: [Array(root)])
        } catch {
            throw .runtime("\(rootPath): \(error)")
        }
        let expectations = ReceiptValidator.Expectations(
            bundleID: invocation.options["bundle-id"], appVersion: invocation.options["app-version"], deviceIdentifier: device)
        switch validator.validate(Array(bytes), expecting: expectations, at: at) {
        case .valid(let receipt):
            if invocation.global.json {
                context.output.write(JSONText.object([("valid", .bool(true)), ("receipt", ReceiptOutput.json(receipt))]).rendered())
            } else {
                let when = at.map(ReceiptDate.format) ?? "its creation date \(ReceiptOutput.date(receipt.creationDate))"
                context.output.write("valid: \(receipt.bundleID) \(receipt.appVersion), \(receipt.inApp.count) in-app purchases, checked at \(when)\n")
            }
        case .invalid(let reason):
            if invocation.global.json {
                context.output.write(JSONText.object([("valid", .bool(false)), ("reason", .string(reason.description))]).rendered())
            }
            throw .runtime("invalid receipt \(invocation.arguments[1]): \(reason)")
        }
    }
}
