/// `storefront store refund-reverse ID`: a refund is reversed, and the purchase grants again.
struct RefundReverseVerb: Verb {
    let name = "refund-reverse"
    let arguments = [Argument("ID")]
    let abstract = """
        reverse a refund: the purchase grants again, and a subscription period the refund ended runs on to its \
        end (REFUND_REVERSED)
        """

    func run(_ call: VerbCall) async throws(CLIError) {
        let t = try await call.store { try await $0.transactionManager.reverseRefund(transactionID: call.arguments[0]) }
        call.write(
            json: TransactionOutput.json(t),
            lines: ["Refund of \(t.transactionID) (\(t.productID)) reversed: it grants again."])
    }
}
