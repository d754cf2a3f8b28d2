/// `storefront signed ocsp REQUEST_FILE`: the store's OCSP answer to a DER OCSP request, as the
/// local App Store Server gives it at SERVER-URL/ocsp.
struct OCSPVerb: Verb {
    let name = "ocsp"
    let arguments = [Argument("REQUEST_FILE")]
    let abstract = """
        read a DER OCSP request and print the store's DER OCSP response in base64: what the local App Store \
        Server answers at SERVER-URL/ocsp
        """

    func run(_ call: VerbCall) async throws(CLIError) {
        let request = try CommandLineFile.read(call.arguments[0], context: call.context, what: "OCSP request")
        let (_, _, backend) = try await StoreSession.openBackend(call.invocation, context: call.context)
        call.output.write(backend.receipts.respondToOCSP(request.contents).base64EncodedString() + "\n")
    }
}
