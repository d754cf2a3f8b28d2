import Foundation
import LocalAppStore
import StoreCore

/// `storefront store sign-offer PRODUCT_ID OFFER_ID`: a promotional offer signed with the
/// store's subscription key, as the app's server signs one, printed as `buy` takes it.
struct SignOfferVerb: Verb {
    let name = "sign-offer"
    let arguments = [Argument("PRODUCT_ID"), Argument("OFFER_ID")]
    var options: [any CommandOption] { [OfferOptions.appAccountToken, Self.username] }
    let abstract = """
        sign a promotional offer with the store's subscription key, as the app's server would (Apple's \
        signature: bundle ID, key ID, product, offer, app account token, nonce, timestamp); prints what 'buy' \
        takes
        """

    /// `--username NAME` (hashed, as `buy --username`).
    static let username = Option<String>(
        "username", valueName: "NAME", help: "store sign-offer: the purchase's account name (hashed, as buy's).")

    func run(_ call: VerbCall) async throws(CLIError) {
        let (productID, offerID) = (call.arguments[0], call.arguments[1])
        let token = try call.value(OfferOptions.appAccountToken)
        let username = try call.value(Self.username).map(ApplicationUsername.hash)
        let (offer, keyFile) = try await call.store { store in
            let offer = try store.offers.signPromotionalOffer(
                productID: productID, offerID: offerID, appAccountToken: token, applicationUsername: username)
            return (offer, try store.offers.subscriptionKeyURL().path)
        }
        let signature = offer.signature.base64EncodedString()
        let nonce = offer.nonce.uuidString.lowercased()
        call.write(
            json: .object([
                ("productID", .string(productID)), ("offerID", .string(offer.offerID)), ("keyID", .string(offer.keyID)),
                ("nonce", .string(nonce)), ("timestamp", .number(String(offer.timestamp))),
                ("signature", .string(signature)), ("keyFile", .string(keyFile)),
            ]),
            lines: [
                "key ID     \(offer.keyID)", "nonce      \(nonce)", "timestamp  \(offer.timestamp)",
                "signature  \(signature)", "key file   \(keyFile)",
                "storefront buy \(productID) --offer \(offer.offerID) --key-id \(offer.keyID) --nonce \(nonce) --timestamp \(offer.timestamp) --signature \(signature)",
            ])
    }
}
