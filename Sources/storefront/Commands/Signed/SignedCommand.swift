/// `storefront signed`: every item the local App Store signs, as it signs it now; `storefront
/// signed ocsp FILE` answers an OCSP request with the store's chain.
struct SignedCommand: VerbCommand {
    let name = "signed"
    let summary = "Print the store's signed transactions, renewal info, app transaction and receipt."
    let verbs: [any Verb] = [SignedItemsVerb(), OCSPVerb()]
}
