/// `storefront receipt [FILE]` prints a decoded app receipt; `storefront receipt verify FILE
/// --root CERT` verifies any receipt file, Apple's included.
struct ReceiptCommand: VerbCommand {
    let name = "receipt"
    let summary = "Print a decoded app receipt, or verify one against a trusted root."
    let verbs: [any Verb] = [ReceiptPrintVerb(), ReceiptVerifyVerb()]
}
