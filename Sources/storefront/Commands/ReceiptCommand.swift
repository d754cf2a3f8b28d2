import Foundation
import Receipts

/// `storefront receipt [FILE]` prints a decoded app receipt; `storefront receipt verify FILE
/// --root CERT` verifies any receipt file, Apple's included.
struct ReceiptCommand: Command {
    let name = "receipt"
    let summary = "Print a decoded app receipt, or verify one against a trusted root."
    var forms: [UsageForm] {
        [
            UsageForm("[FILE]", optional: [GlobalOptions.json]),
            UsageForm(
                "verify FILE", required: [Self.root],
                optional: [Self.at, Self.bundleID, Self.appVersion, Self.deviceID]),
        ]
    }
    let discussion = """
        Without FILE, prints the app receipt the local App Store keeps in the data directory.
        FILE may be DER or base64. --json prints the fields with the receipt model's names
        (receiptType, bundleID, appVersion, opaqueHex, sha1Hex, creationDate, inApp…).
        'receipt verify' checks the signature and certificate chain against --root (a DER or
        PEM certificate, e.g. AppleIncRootCertificate.cer) at the receipt's creation date, or
        at --at; --bundle-id, --app-version and --device-id (identifierForVendor, for the
        SHA-1 hash) add checks. It exits 1 with the reason when the receipt is not valid; with
        --json it prints {"valid": true, "receipt": …} or {"valid": false, "reason": …}.
        """

    /// `--root CERT`.
    static let root = Option<String>(
        "root", valueName: "CERT", help: "Trusted root certificate (DER or PEM), for verify.")
    /// `--at DATE`.
    static let at = Option<Date>(
        "at", valueName: "DATE",
        help: "Check certificates at this date (RFC 3339, or seconds since 1970) instead of the creation date.",
        parse: ReceiptOutput.date(option:))
    /// `--bundle-id ID`.
    static let bundleID = Option<String>("bundle-id", valueName: "ID", help: "The bundle ID the receipt must be for.")
    /// `--app-version VERSION`.
    static let appVersion = Option<String>(
        "app-version", valueName: "VERSION", help: "The app version the receipt must be for.")
    /// `--device-id UUID`.
    static let deviceID = Option<[UInt8]>(
        "device-id", valueName: "UUID", help: "The device identifier the SHA-1 hash must match."
    ) { (uuid: String) throws(CLIError) -> [UInt8] in
        guard let identifier = ReceiptValidator.deviceIdentifier(uuid: uuid) else {
            throw .usage("--device-id \(uuid): expected a UUID such as 956328D9-CC6A-47F4-BE40-6953FB0AB6C7")
        }
        return identifier
    }

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        if invocation.arguments.first == "verify" {
            try verify(invocation, context: context)
            return
        }
        guard invocation.arguments.count <= 1 else { throw .usage("receipt takes at most one FILE.") }
        let bytes: Data
        if let path = invocation.arguments.first {
            bytes = try CommandLineFile.read(path, context: context, what: "receipt").contents
        } else {
            let session = try await StoreSession.open(invocation, context: context, readsOnly: true)
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
            throw .runtime("\(invocation.arguments.first ?? "the app receipt") is not a readable receipt: \(error)")
        }
        context.output.write(
            invocation.global.json ? ReceiptOutput.json(receipt).rendered() : ReceiptOutput.text(receipt))
    }

    private func verify(_ invocation: Invocation, context: CommandContext) throws(CLIError) {
        guard invocation.arguments.count == 2 else { throw .usage("receipt verify takes exactly one FILE.") }
        guard let rootPath = try invocation.value(Self.root) else { throw .usage("receipt verify needs --root CERT.") }
        let root = try CommandLineFile.read(rootPath, context: context, what: "root certificate")
        let bytes = try CommandLineFile.read(invocation.arguments[1], context: context, what: "receipt").contents
        let at = try invocation.value(Self.at)
        let device = try invocation.value(Self.deviceID)
        let validator: ReceiptValidator
        do {
            validator = try ReceiptValidator(trustedRoots: [Array(root.contents)])
        } catch {
            throw ReceiptOutput.rootError(error, root: root)
        }
        let expectations = ReceiptValidator.Expectations(
            bundleID: try invocation.value(Self.bundleID), appVersion: try invocation.value(Self.appVersion),
            deviceIdentifier: device)
        switch validator.validate(Array(bytes), expecting: expectations, at: at) {
        case .valid(let receipt):
            if invocation.global.json {
                context.output.write(
                    JSONText.object([("valid", .bool(true)), ("receipt", ReceiptOutput.json(receipt))]).rendered())
            } else {
                let when = at.map(ReceiptDate.format) ?? "its creation date \(ReceiptOutput.date(receipt.creationDate))"
                context.output.write(
                    "valid: \(receipt.bundleID) \(receipt.appVersion), \(receipt.inApp.count) in-app purchases, checked at \(when)\n"
                )
            }
        case .invalid(let reason):
            if invocation.global.json {
                context.output.write(
                    JSONText.object([("valid", .bool(false)), ("reason", .string(reason.description))]).rendered())
            }
            throw .runtime("invalid receipt \(invocation.arguments[1]): \(reason)")
        }
    }
}
