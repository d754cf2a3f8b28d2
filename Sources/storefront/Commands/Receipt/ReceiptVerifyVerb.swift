import Foundation
import Receipts
import StoreKitValues

/// `storefront receipt verify FILE --root CERT`: any receipt file, Apple's included, checked
/// against a trusted root.
struct ReceiptVerifyVerb: Verb {
    let name = "verify"
    let arguments = [Argument("FILE")]
    var requiredOptions: [any CommandOption] { [Self.root] }
    var options: [any CommandOption] { [Self.at, Self.bundleID, Self.appVersion, Self.deviceID] }
    let abstract = """
        check the signature and certificate chain against --root (a DER or PEM certificate, e.g. \
        AppleIncRootCertificate.cer) at the receipt's creation date, or at --at; --bundle-id, --app-version \
        and --device-id (identifierForVendor, for the SHA-1 hash) add checks. It exits 1 with the reason when \
        the receipt is not valid; with --json it prints {"valid": true, "receipt": …} or {"valid": false, \
        "reason": …}
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

    func run(_ call: VerbCall) async throws(CLIError) {
        let path = call.arguments[0]
        let root = try CommandLineFile.read(
            try call.required(Self.root), context: call.context, what: "root certificate")
        let bytes = try CommandLineFile.read(path, context: call.context, what: "receipt").contents
        let at = try call.value(Self.at)
        let validator: ReceiptValidator
        do {
            validator = try ReceiptValidator(trustedRoots: [Array(root.contents)])
        } catch {
            throw ReceiptOutput.rootError(error, root: root)
        }
        let expectations = ReceiptValidator.Expectations(
            bundleID: try call.value(Self.bundleID), appVersion: try call.value(Self.appVersion),
            deviceIdentifier: try call.value(Self.deviceID))
        switch validator.validate(Array(bytes), expecting: expectations, at: at) {
        case .valid(let receipt):
            let when = at.map(ReceiptDate.format) ?? "its creation date \(ReceiptOutput.date(receipt.creationDate))"
            call.write(
                json: .object([("valid", .bool(true)), ("receipt", ReceiptOutput.json(receipt))]),
                lines: [
                    "valid: \(receipt.bundleID) \(receipt.appVersion), \(receipt.inApp.count) in-app purchases, checked at \(when)"
                ])
        case .invalid(let reason):
            if call.json {
                call.output.write(
                    JSONText.object([("valid", .bool(false)), ("reason", .string(reason.description))]).rendered())
            }
            throw .runtime("invalid receipt \(path): \(reason)")
        }
    }
}
