import Foundation
import LocalAppStore
import Receipts

/// The `revision` of Get Refund History: the last refund a page returned (its revocation date,
/// exactly, and transaction ID), or none before the first; opaque to callers (base64url). A
/// revision kept for days returns every refund made since, in Apple's order (`StoreSnapshot.refunds`).
struct RefundRevision: Hashable, Sendable {
    /// The last refund returned; nil before the first.
    var mark: StoreSnapshot.RefundMark?

    /// The token's text: `r:` alone, or `r:` the date's bits in hex `:` the transaction ID.
    var text: String {
        guard let mark else { return Base64URL.encode(Array("r:".utf8)) }
        let bits = String(mark.revocationDate.timeIntervalSinceReferenceDate.bitPattern, radix: 16)
        return Base64URL.encode(Array("r:\(bits):\(mark.transactionID)".utf8))
    }

    init(mark: StoreSnapshot.RefundMark?) { self.mark = mark }

    /// Reads a token; nil when it is not one of this endpoint's.
    init?(text: String) {
        guard text.count <= 128, let bytes = Base64URL.decode(text) else { return nil }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.first == "r" else { return nil }
        if parts.count == 2, parts[1].isEmpty {
            mark = nil
            return
        }
        guard parts.count == 3, let bits = UInt64(parts[1], radix: 16), !parts[2].isEmpty else { return nil }
        let interval = Double(bitPattern: bits)
        guard interval.isFinite else { return nil }
        mark = .init(revocationDate: Date(timeIntervalSinceReferenceDate: interval), transactionID: String(parts[2]))
    }
}
