internal import Crypto
import Foundation
import StoreCore

/// Signs promotional offers as the developer's server does (Apple's
/// `PromotionalOfferSignatureCreator`): ECDSA P-256 with SHA-256 over
/// `PromotionalOffer.signedText`, DER-encoded, with the subscription key from App Store
/// Connect (a `.p8` file) and its key ID.
public struct PromotionalOfferSigner: @unchecked Sendable {
    /// The subscription key's ID.
    public let keyID: String
    /// The app's bundle ID the signatures are for.
    public let bundleID: String
    private let privateKey: PrivateKey

    /// Creates a signer from the key's PEM text (PKCS#8, as App Store Connect hands it out).
    /// - Throws: `LocalAppStoreError.invalidSubscriptionKey` when the text holds no EC P-256 key.
    public init(privateKeyPEM: String, keyID: String, bundleID: String) throws(LocalAppStoreError) {
        let key: PrivateKey
        do {
            key = try PrivateKey(pem: privateKeyPEM)
        } catch {
            throw .invalidSubscriptionKey(keyID: keyID, reason: error.description)
        }
        guard key.isEC else { throw .invalidSubscriptionKey(keyID: keyID, reason: "not an EC P-256 key") }
        self.init(key: key, keyID: keyID, bundleID: bundleID)
    }

    init(key: PrivateKey, keyID: String, bundleID: String) {
        self.privateKey = key
        self.keyID = keyID
        self.bundleID = bundleID
    }

    /// Signs an offer for one purchase.
    /// - Parameters:
    ///   - productID: the subscription's product ID.
    ///   - offerID: the promotional offer's ID (`adHocOffers` in the catalog).
    ///   - appAccountName: the app account token in lowercase (or the application username;
    ///     empty when the purchase has neither), as the purchase will carry it.
    ///   - nonce: a new UUID for this signature.
    ///   - timestamp: when it is signed, in milliseconds since 1970.
    /// - Returns: the offer to put in the purchase's options.
    /// - Throws: `LocalAppStoreError.invalidSubscriptionKey` when OpenSSL cannot sign.
    public func sign(
        productID: String, offerID: String, appAccountName: String, nonce: UUID, timestamp: Int64
    ) throws(LocalAppStoreError) -> PromotionalOffer {
        let text = PromotionalOffer.signedText(
            bundleID: bundleID, keyID: keyID, productID: productID, offerID: offerID, appAccountName: appAccountName,
            nonce: nonce, timestamp: timestamp)
        do {
            let signature = try privateKey.signSHA256(Array(text.utf8))
            return PromotionalOffer(
                offerID: offerID, keyID: keyID, nonce: nonce, signature: Data(signature), timestamp: timestamp)
        } catch {
            throw .invalidSubscriptionKey(keyID: keyID, reason: error.description)
        }
    }

    /// Whether `offer`'s signature is this key's over the text for `productID` and
    /// `appAccountName` (the bundle ID is the signer's).
    func verifies(_ offer: PromotionalOffer, productID: String, appAccountName: String) -> Bool {
        let text = PromotionalOffer.signedText(
            bundleID: bundleID, keyID: offer.keyID, productID: productID, offerID: offer.offerID,
            appAccountName: appAccountName, nonce: offer.nonce, timestamp: offer.timestamp)
        guard let publicKey = try? PublicKey(of: privateKey) else { return false }
        return (try? publicKey.verifySHA256(signature: Array(offer.signature), message: Array(text.utf8))) ?? false
    }
}
