import Foundation
import Receipts

/// `storefront transaction verify FILE [--root CERT]`: verifies a StoreKit 2 signed
/// transaction (JWS) and prints its payload.
struct TransactionCommand: Command {
    let name = "transaction"
    let summary = "Verify a JWS signed transaction and print its payload."
    var forms: [UsageForm] { [UsageForm("verify FILE", optional: [Self.root, Self.at, GlobalOptions.json])] }
    let discussion = """
        FILE holds a JWS signed transaction (compact form). With --root, the x5c chain must end
        at that certificate (DER or PEM), checked at the payload's signedDate or --at. Without
        --root, only Xcode's single self-signed certificate is accepted, as Xcode signs
        transactions in StoreKit testing. Prints 'valid signed transaction ID for PRODUCT'
        (not with --json), then the payload as JSON in Apple's field names; exits 1 with the
        reason when the signature or chain does not check.
        """

    /// `--root CERT`.
    static let root = Option<String>("root", valueName: "CERT", help: "Trusted root certificate (DER or PEM).")
    /// `--at DATE`.
    static let at = Option<Date>(
        "at", valueName: "DATE",
        help: "Check certificates at this date (RFC 3339, or seconds since 1970) instead of signedDate.",
        parse: ReceiptOutput.date(option:))

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard invocation.arguments.first == "verify" else { throw .usage("usage: storefront transaction \(usage).") }
        guard invocation.arguments.count == 2 else { throw .usage("transaction verify takes exactly one FILE.") }
        let path = invocation.arguments[1]
        let text = String(
            decoding: try CommandLineFile.read(path, context: context, what: "signed transaction").contents,
            as: UTF8.self)
        let at = try invocation.value(Self.at)
        let root = try invocation.value(Self.root).map { (rootPath: String) throws(CLIError) in
            try CommandLineFile.read(rootPath, context: context, what: "root certificate")
        }
        let verifier: JWSVerifier
        do {
            verifier = try JWSVerifier(
                trustedRoots: root.map { [Array($0.contents)] } ?? [], trustXcodeSelfSigned: root == nil)
        } catch {
            // Without --root it trusts Xcode's self-signed certificate, and nothing can fail.
            guard let root else { throw .runtime("\(error)") }
            throw ReceiptOutput.rootError(error, root: root)
        }
        switch verifier.verifyTransaction(text, at: at) {
        case .valid(let payload):
            if !invocation.global.json {
                context.output.write(
                    "valid signed transaction \(payload.transactionId ?? "-") for \(payload.productId ?? "-")\n")
            }
            context.output.write(ReceiptOutput.json(payload))
        case .invalid(let reason):
            throw .runtime("invalid signed transaction \(path): \(reason)")
        }
    }
}
