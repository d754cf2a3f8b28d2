/// Apple-style order IDs (`MK5TTTVWJH`: "M" and nine characters of a 32-letter alphabet) for
/// the store's purchases, derived from the transaction ID by a bijection, so every purchase
/// has one without storing it, and an order ID leads back to its transaction.
///
/// The offset of a transaction ID from the store's first one is multiplied by an odd constant
/// modulo 2^45 (a permutation, so consecutive purchases get unrelated-looking IDs) and written
/// in base 32.
public enum OrderID {
    private static let alphabet = Array("0123456789ABCDEFGHJKLMNPQRSTVWXZ")
    private static let alphabetBytes = Array("0123456789ABCDEFGHJKLMNPQRSTVWXZ".utf8)
    private static let bits: UInt64 = 45
    private static let mask: UInt64 = (1 << 45) - 1
    private static let multiplier: UInt64 = 0x1_5A4E_35F3_9D1B & ((1 << 45) - 1) | 1
    private static let offset: UInt64 = 0x0_B7E1_5162_8AED & ((1 << 45) - 1)
    private static let first = JournalState.firstTransactionID

    /// The order ID of the purchase with this transaction ID; nil for IDs this store never makes.
    public static func make(transactionID: String) -> String? {
        guard let id = UInt64(transactionID), id >= first, id - first <= mask else { return nil }
        var value = ((id - first) &* multiplier &+ offset) & mask
        // Ten ASCII bytes make a small string: nothing allocated (a history prints one a row).
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { letters in
            letters[0] = UInt8(ascii: "M")
            for index in (1...9).reversed() {
                letters[index] = alphabetBytes[Int(value & 31)]
                value >>= 5
            }
            return String(decoding: letters, as: UTF8.self)
        }
    }

    /// The transaction ID an order ID was made from; nil when it is not one of this store's.
    public static func transactionID(orderID: String) -> String? {
        let characters = Array(orderID.uppercased())
        guard characters.count == 10, characters[0] == "M" else { return nil }
        var value: UInt64 = 0
        for character in characters.dropFirst() {
            guard let digit = alphabet.firstIndex(of: character) else { return nil }
            value = value << 5 | UInt64(digit)
        }
        let n = ((value &- offset) & mask) &* inverse & mask
        return String(first + n)
    }

    /// The multiplier's inverse modulo 2^45 (Newton's iteration doubles the correct bits).
    private static let inverse: UInt64 = {
        var x = multiplier
        for _ in 0..<6 { x = x &* (2 &- multiplier &* x) }
        return x & mask
    }()
}
