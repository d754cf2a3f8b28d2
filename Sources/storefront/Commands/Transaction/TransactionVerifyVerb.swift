import Foundation
import Receipts

/// `storefront transaction verify FILE [--root CERT] [--at DATE]`: a StoreKit 2 signed
/// transaction (JWS) verified, and its payload printed.
struct TransactionVerifyVerb: Verb {
    let name = "verify"
    let arguments = [Argument("FILE")]
    var options: [any CommandOption] { [Self.root, Self.at, GlobalOptions.json] }
    let abstract = """
        verify the JWS signed transaction (compact form) in FILE: with --root, the x5c chain must end at that \
        certificate (DER or PEM), checked at the payload's signedDate or --at; without --root, only Xcode's \
        single self-signed certificate is accepted, as Xcode signs transactions in StoreKit testing. Prints \
        'valid signed transaction ID for PRODUCT' (not with --json), then the payload as JSON in Apple's field \
        names; exits 1 with the reason when the signature or chain does not check
        """

    /// `--root CERT`.
    static let root = Option<String>("root", valueName: "CERT", help: "Trusted root certificate (DER or PEM).")
    /// `--at DATE`.
    static let at = Option<Date>(
        "at", valueName: "DATE",
        help: "Check certificates at this date (RFC 3339, or seconds since 1970) instead of signedDate.",
        parse: ReceiptOutput.date(option:))

    func run(_ call: VerbCall) async throws(CLIError) {
        let path = call.arguments[0]
        let text = String(
            decoding: try CommandLineFile.read(path, context: call.context, what: "signed transaction").contents,
            as: UTF8.self)
        let at = try call.value(Self.at)
        let root = try call.value(Self.root).map { (rootPath: String) throws(CLIError) in
            try CommandLineFile.read(rootPath, context: call.context, what: "root certificate")
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
            if !call.json {
                call.output.write(
                    "valid signed transaction \(payload.transactionId ?? "-") for \(payload.productId ?? "-")\n")
            }
            call.output.write(ReceiptOutput.json(payload))
        case .invalid(let reason):
            throw .runtime("invalid signed transaction \(path): \(reason)")
        }
    }
}
