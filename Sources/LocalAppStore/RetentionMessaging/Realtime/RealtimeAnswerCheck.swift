import Catalog
import Foundation
import StoreCore

/// How the App Store judges a Get Retention Message answer before it shows it: a
/// `RealtimeResponseBody` choosing exactly one of a text message, a switch-plan message or a
/// promotional offer; its message approved with approved images; a switch-plan or offer message
/// text only; the suggested subscription another one of the same group; the offer one of that
/// subscription's promotional offers with a complete version 1 signature. The signature itself
/// is verified by the store (`Offers.judgePromotionalOffer`). Pure.
public struct RealtimeAnswerCheck: Sendable {
    /// What an acceptable answer chose.
    public enum Choice: Hashable, Sendable {
        /// A text message.
        case message(RetentionMessage)
        /// A switch-plan message and the subscription it suggests.
        case alternateProduct(RetentionMessage, productID: String)
        /// A promotional offer and its message (the signature not yet verified).
        case promotionalOffer(RetentionMessage, RetentionPromotionalOffer)

        /// The message shown.
        public var message: RetentionMessage {
            switch self {
            case .message(let m), .alternateProduct(let m, _), .promotionalOffer(let m, _): m
            }
        }
    }

    let catalog: StoreKitConfiguration
    let state: RetentionState
    /// The product of the subscription the customer may cancel.
    let productID: String

    /// A check of answers about a customer's `productID`, against `state`.
    public init(catalog: StoreKitConfiguration, state: RetentionState, productID: String) {
        self.catalog = catalog
        self.state = state
        self.productID = productID
    }

    /// Judges an answer's body.
    /// - Returns: what it chose, or why it cannot be shown.
    public func check(_ body: Data) -> Result<Choice, Refusal> {
        let answer: RealtimeResponseBody
        do {
            answer = try JSONDecoder().decode(RealtimeResponseBody.self, from: body)
        } catch {
            return .failure(Refusal("the answer is not a RealtimeResponseBody: \(RetentionFiles.reason(error))"))
        }
        let chosen = [
            answer.message.map { _ in "message" }, answer.alternateProduct.map { _ in "alternateProduct" },
            answer.promotionalOffer.map { _ in "promotionalOffer" },
            answer.advancedCommerceInfo.map { _ in "advancedCommerceInfo" },
        ].compactMap { $0 }
        guard chosen.count == 1 else {
            return .failure(
                Refusal(
                    chosen.isEmpty
                        ? "the answer chooses nothing (message, alternateProduct or promotionalOffer)"
                        : "the answer chooses \(chosen.joined(separator: " and ")); Apple shows exactly one"))
        }
        do throws(Refusal) {
            if let message = answer.message {
                return .success(.message(try showable(message.messageIdentifier, textOnly: nil)))
            }
            if let alternate = answer.alternateProduct {
                let message = try showable(alternate.messageIdentifier, textOnly: "alternateProduct")
                return .success(.alternateProduct(message, productID: try sibling(alternate.productId)))
            }
            if let offer = answer.promotionalOffer {
                let message = try showable(offer.messageIdentifier, textOnly: "promotionalOffer")
                return .success(.promotionalOffer(message, try signedOffer(offer)))
            }
            throw Refusal(
                "advancedCommerceInfo is for Advanced Commerce API products, and this app sells none")
        } catch {
            return .failure(error)
        }
    }

    /// Why an answer cannot be shown.
    public struct Refusal: Error, Hashable, Sendable {
        /// What is wrong, in a sentence fragment (`the message … is PENDING`).
        public let reason: String

        /// Creates a refusal.
        public init(_ reason: String) { self.reason = reason }
    }

    private func showable(_ text: String?, textOnly kind: String?) throws(Refusal) -> RetentionMessage {
        guard let text else { throw Refusal("the answer's messageIdentifier is missing") }
        guard let id = UUID(uuidString: text) else { throw Refusal("messageIdentifier '\(text)' is not a UUID") }
        guard let message = state.message(id) else { throw Refusal("no message has the identifier \(text)") }
        if let why = state.unshowable(message) { throw Refusal(Self.fragment(why)) }
        if let kind, !message.content.isTextOnly {
            throw Refusal("\(kind) messages are text only, and the message \(text) has an image or bullet points")
        }
        return message
    }

    /// The subscription an answer suggests: another of the customer's subscription group.
    private func sibling(_ id: String?) throws(Refusal) -> String {
        guard let id else { throw Refusal("alternateProduct has no productId") }
        guard let group = catalog.product(id: productID)?.subscription?.groupID,
            let product = catalog.product(id: id), product.kind == .autoRenewable,
            product.subscription?.groupID == group
        else { throw Refusal("\(id) is not a subscription of the same group as \(productID)") }
        guard id != productID else { throw Refusal("alternateProduct suggests \(id), the subscription itself") }
        return id
    }

    private func signedOffer(
        _ answer: RealtimeResponseBody.PromotionalOfferAnswer
    ) throws(Refusal) -> RetentionPromotionalOffer {
        if answer.promotionalOfferSignatureV2 != nil {
            guard answer.promotionalOfferSignatureV1 == nil else {
                throw Refusal("promotionalOffer has both signatures; Apple takes one")
            }
            throw Refusal(
                "promotionalOfferSignatureV2 is not taken by the local App Store yet; sign with "
                    + "promotionalOfferSignatureV1 (Docs/decisions/0113-realtime-answers.md)")
        }
        guard let v1 = answer.promotionalOfferSignatureV1 else {
            throw Refusal("promotionalOffer has no promotionalOfferSignatureV1")
        }
        guard let product = v1.productId, let offerID = v1.offerIdentifier, let keyID = v1.keyId,
            let nonceText = v1.nonce, let timestamp = v1.timestamp, let encoded = v1.encodedSignature
        else {
            throw Refusal(
                "promotionalOfferSignatureV1 needs encodedSignature, productId, nonce, timestamp, keyId "
                    + "and offerIdentifier")
        }
        let target = try product == productID ? product : sibling(product)
        guard catalog.product(id: target)?.subscription?.promotionalOffers.offer(named: offerID) != nil else {
            throw Refusal("\(target) has no promotional offer '\(offerID)'")
        }
        guard let nonce = UUID(uuidString: nonceText) else { throw Refusal("the nonce '\(nonceText)' is not a UUID") }
        guard let signature = Data(base64Encoded: encoded) else {
            throw Refusal("encodedSignature is not Base64")
        }
        var token: UUID?
        if let text = v1.appAccountToken {
            guard let parsed = UUID(uuidString: text) else { throw Refusal("appAccountToken '\(text)' is not a UUID") }
            token = parsed
        }
        return RetentionPromotionalOffer(
            productID: target,
            offer: PromotionalOffer(
                offerID: offerID, keyID: keyID, nonce: nonce, signature: signature, timestamp: timestamp),
            appAccountToken: token)
    }

    /// A state refusal as a fragment: `the message … is PENDING, not APPROVED`.
    static func fragment(_ error: RetentionMessagingError) -> String {
        let text = error.description
        return (text.first.map { String($0).lowercased() } ?? "") + text.dropFirst().dropLast()
    }
}

extension RealtimeAnswerCheck.Refusal: LocalizedError {
    /// The reason, so that `localizedDescription` says what is wrong.
    public var errorDescription: String? { reason }
}
