import Foundation
import LocalAppStore
import StoreCore

/// The options `buy` and `store sign-offer` take for StoreKit 2's purchase options: the app
/// account token, and a promotional offer signed by the developer's subscription key (given
/// as its four parts, or signed now with the store's key).
enum OfferOptions {
    /// `--app-account-token UUID`.
    static let appAccountToken = Option<UUID>(
        "app-account-token", valueName: "UUID",
        help: "A UUID tying the purchase to the app's account (appAccountToken)."
    ) { (text: String) throws(CLIError) -> UUID in
        guard let uuid = UUID(uuidString: text) else {
            throw .usage("--app-account-token must be a UUID (got '\(text)').")
        }
        return uuid
    }
    /// `--signed`: sign `--offer` now with the store's subscription key.
    static let signed = Flag(
        "signed", help: "Sign --offer now with the store's subscription key, as the app's server would.")
    /// `--key-id KEY_ID`.
    static let keyID = Option<String>("key-id", valueName: "KEY_ID", help: "The subscription key ID of --signature.")
    /// `--nonce UUID`.
    static let nonce = Option<UUID>(
        "nonce", valueName: "UUID", help: "The one-time nonce of --signature."
    ) { (text: String) throws(CLIError) -> UUID in
        guard let uuid = UUID(uuidString: text) else { throw .usage("--nonce must be a UUID (got '\(text)').") }
        return uuid
    }
    /// `--timestamp MS`.
    static let timestamp = Option<Int64>(
        "timestamp", valueName: "MS", help: "When --signature was made, in milliseconds since 1970."
    ) { (text: String) throws(CLIError) -> Int64 in
        guard let ms = Int64(text), ms >= 0 else {
            throw .usage("--timestamp must be milliseconds since 1970 (got '\(text)').")
        }
        return ms
    }
    /// `--signature BASE64`.
    static let signature = Option<Data>(
        "signature", valueName: "BASE64",
        help: "The offer's signature (base64 DER ECDSA), as 'store sign-offer' prints it."
    ) { (text: String) throws(CLIError) -> Data in
        guard let data = Data(base64Encoded: text), !data.isEmpty else {
            throw .usage("--signature must be base64 (got '\(text)').")
        }
        return data
    }

    /// The signed offer `invocation` names: its four parts with `--offer`, or `--offer` signed
    /// now with `--signed`; nil without either.
    /// - Throws: `CLIError.usage` when the parts are incomplete; `.runtime` when signing fails.
    static func promotionalOffer(
        _ invocation: Invocation, productID: String, offerID: String?, appAccountToken: UUID?, username: String?,
        backend: LocalAppStore
    ) throws(CLIError) -> PromotionalOffer? {
        let parts = (
            try invocation.value(keyID), try invocation.value(nonce), try invocation.value(timestamp),
            try invocation.value(signature)
        )
        let given = [parts.0 != nil, parts.1 != nil, parts.2 != nil, parts.3 != nil]
        if invocation.isSet(signed) {
            guard let offerID else { throw .usage("--signed signs --offer: name the offer with --offer OFFER_ID.") }
            guard !given.contains(true) else {
                throw .usage("--signed makes the signature; drop --key-id, --nonce, --timestamp and --signature.")
            }
            do {
                return try backend.offers.signPromotionalOffer(
                    productID: productID, offerID: offerID, appAccountToken: appAccountToken,
                    applicationUsername: username)
            } catch {
                throw .runtime(error.description)
            }
        }
        guard given.contains(true) else { return nil }
        guard let offerID, let key = parts.0, let nonce = parts.1, let timestamp = parts.2, let signature = parts.3
        else {
            throw .usage(
                "a signed offer needs --offer, --key-id, --nonce, --timestamp and --signature together (see 'storefront store sign-offer')."
            )
        }
        return PromotionalOffer(offerID: offerID, keyID: key, nonce: nonce, signature: signature, timestamp: timestamp)
    }
}
