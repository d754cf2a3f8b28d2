import Foundation

/// The two values every store line holds, `Transaction` and its `Payment`, written member by
/// member as their synthesized `encode(to:)` writes them through `StreamingJSONEncoder` (the
/// same members, in the same order, each written the same way), without a keyed container, an
/// encoder and a witness call for each member: a purchase writes a transaction about five times
/// (the journal's lines, the ledger's line, the archive's frame). Members that are themselves
/// structured (an error, commitment info, order data, a signed offer) go through `value` as
/// before. `StreamingJSONEncoderTests` compares these with the synthesized text byte for byte
/// and fails when either type gains a member.
extension JSONStream {
    /// Writes `transaction` at the current position.
    func write(_ transaction: Transaction, in parent: SlotEncoder?, key: (any CodingKey)?) throws {
        typealias Key = Transaction.CodingKeys
        let slot = SlotEncoder(stream: self, parent: parent, key: key)
        let place = push(0x7B, 0x7D)
        let t = transaction
        string(t.transactionID, Key.transactionID, place, slot)
        string(t.originalTransactionID, Key.originalTransactionID, place, slot)
        string(t.productID, Key.productID, place, slot)
        string(t.productType.rawValue, Key.productType, place, slot)
        if member(Key.payment, place, slot) { try write(t.payment, in: slot, key: Key.payment) }
        string(t.state.rawValue, Key.state, place, slot)
        if member(Key.purchaseDate, place, slot) { try date(t.purchaseDate, in: slot, key: Key.purchaseDate) }
        if member(Key.originalPurchaseDate, place, slot) {
            try date(t.originalPurchaseDate, in: slot, key: Key.originalPurchaseDate)
        }
        if let date = t.expiresDate, member(Key.expiresDate, place, slot) {
            try self.date(date, in: slot, key: Key.expiresDate)
        }
        if let date = t.revocationDate, member(Key.revocationDate, place, slot) {
            try self.date(date, in: slot, key: Key.revocationDate)
        }
        if let reason = t.revocationReason, member(Key.revocationReason, place, slot) { writer.integer(reason) }
        t.webOrderLineItemID.map { string($0, Key.webOrderLineItemID, place, slot) }
        if let price = t.price, member(Key.price, place, slot) {
            writer.bytes.append(contentsOf: price.description.utf8)
        }
        t.currencyCode.map { string($0, Key.currencyCode, place, slot) }
        t.storefront.map { string($0, Key.storefront, place, slot) }
        t.signedTransaction.map { string($0, Key.signedTransaction, place, slot) }
        if let error = t.error, member(Key.error, place, slot) { try value(error, in: slot, key: Key.error) }
        t.subscriptionGroupID.map { string($0, Key.subscriptionGroupID, place, slot) }
        if member(Key.isUpgraded, place, slot) { t.isUpgraded ? writer.raw("true") : writer.raw("false") }
        t.offerType.map { string($0.rawValue, Key.offerType, place, slot) }
        t.offerID.map { string($0, Key.offerID, place, slot) }
        t.storedOwnershipType.map { string($0.rawValue, Key.storedOwnershipType, place, slot) }
        t.billingPlanType.map { string($0.rawValue, Key.billingPlanType, place, slot) }
        if let commitment = t.commitmentInfo, member(Key.commitmentInfo, place, slot) {
            try value(commitment, in: slot, key: Key.commitmentInfo)
        }
        close(above: place.level)
    }

    /// Writes `payment` at the current position.
    func write(_ payment: Payment, in parent: SlotEncoder?, key: (any CodingKey)?) throws {
        typealias Key = Payment.CodingKeys
        let slot = SlotEncoder(stream: self, parent: parent, key: key)
        let place = push(0x7B, 0x7D)
        let p = payment
        string(p.productID, Key.productID, place, slot)
        if member(Key.quantity, place, slot) { writer.integer(p.quantity) }
        p.applicationUsername.map { string($0, Key.applicationUsername, place, slot) }
        if member(Key.orderData, place, slot) { try value(p.orderData, in: slot, key: Key.orderData) }
        p.offerID.map { string($0, Key.offerID, place, slot) }
        string(p.requestID, Key.requestID, place, slot)
        p.appAccountToken.map { string($0.uuidString, Key.appAccountToken, place, slot) }
        if let offer = p.promotionalOffer, member(Key.promotionalOffer, place, slot) {
            try value(offer, in: slot, key: Key.promotionalOffer)
        }
        p.offerCode.map { string($0, Key.offerCode, place, slot) }
        p.winBackOfferID.map { string($0, Key.winBackOfferID, place, slot) }
        p.billingPlanType.map { string($0.rawValue, Key.billingPlanType, place, slot) }
        close(above: place.level)
    }

    /// Writes `"key":` as the next member of the object at `place` (whose position is `slot`);
    /// false when the object was closed.
    private func member(_ key: some CodingKey, _ place: Place, _ slot: SlotEncoder) -> Bool {
        writeKey(key, place, path: slot.codingPath + [key])
    }

    /// Writes the member `key` with the string `text`.
    private func string(_ text: String, _ key: some CodingKey, _ place: Place, _ slot: SlotEncoder) {
        if member(key, place, slot) { writer.string(text) }
    }
}
