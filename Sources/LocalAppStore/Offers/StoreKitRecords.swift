import Foundation

/// The journal's `storekit` records added up: used offer nonces, offer codes by code, refund
/// requests by ID. Part of `JournalState`, so compaction keeps them (each last version).
struct StoreKitRecords: Sendable {
    /// Nonces accepted, by key ID and lowercase nonce.
    private(set) var usedNonces: [String: UsedOfferNonce] = [:]
    /// Every offer code issued, by its code (upper case).
    private(set) var offerCodes: [String: OfferCode] = [:]
    private var codeOrder: [String] = []
    /// Refund requests, by request ID.
    private(set) var refundRequests: [String: RefundRequest] = [:]
    private var refundOrder: [String] = []
    private var nonceOrder: [String] = []

    static func nonceKey(keyID: String, nonce: String) -> String { keyID + "/" + nonce.lowercased() }

    mutating func apply(_ record: StoreKitRecord) {
        if let n = record.usedNonce {
            let key = Self.nonceKey(keyID: n.keyID, nonce: n.nonce)
            if usedNonces.updateValue(n, forKey: key) == nil { nonceOrder.append(key) }
        }
        if let c = record.offerCode {
            if offerCodes.updateValue(c, forKey: c.code) == nil { codeOrder.append(c.code) }
        }
        if let r = record.refundRequest {
            if refundRequests.updateValue(r, forKey: r.id) == nil { refundOrder.append(r.id) }
        }
    }

    /// Offer codes in the order they were issued.
    var orderedOfferCodes: [OfferCode] { codeOrder.compactMap { offerCodes[$0] } }

    /// Refund requests in the order they were made.
    var orderedRefundRequests: [RefundRequest] { refundOrder.compactMap { refundRequests[$0] } }

    /// The records that rebuild this state.
    var snapshot: [StoreKitRecord] {
        nonceOrder.compactMap { usedNonces[$0] }.map { StoreKitRecord(usedNonce: $0) }
            + orderedOfferCodes.map { StoreKitRecord(offerCode: $0) }
            + orderedRefundRequests.map { StoreKitRecord(refundRequest: $0) }
    }
}
