import Foundation

/// The two hottest answers written directly: Get Transaction Info and a history page are
/// mostly JWS text, which is base64url and dots and so needs no escaping, while
/// `JSONEncoder` inspects every character of it. Same members, order and bytes as
/// `JSONEncoder` (`.withoutEscapingSlashes`) gives for the models; a text with a character
/// it would escape (or any non-ASCII one) sends the model through `JSONEncoder` instead.
enum FastJSON {
    /// Whether `text` can be written between quotes as is: printable ASCII but `"` and `\`.
    static func isPlain(_ text: String) -> Bool {
        if let plain = text.utf8.withContiguousStorageIfAvailable({ isPlain(UnsafeRawBufferPointer($0)) }) {
            return plain
        }
        return Array(text.utf8).withUnsafeBytes { isPlain($0) }
    }

    /// `isPlain` over bytes, eight at a time (a 20-transaction page is 75 KB of JWS).
    static func isPlain(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        /// Whether any byte of `word` is zero.
        func hasZero(_ word: UInt64) -> Bool { (word &- ones) & ~word & highs != 0 }
        var index = 0
        while index + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // Non-ASCII, below 0x20 (each byte minus 0x20 borrows), a quote, a backslash.
            if word & highs != 0 || (word &- ones &* 0x20) & ~word & highs != 0 || hasZero(word ^ (ones &* 0x22))
                || hasZero(word ^ (ones &* 0x5C))
            {
                return false
            }
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte >= 0x80 || byte == 0x22 || byte == 0x5C { return false }
            index += 1
        }
        return true
    }

    /// JSON text written as bytes; `plain` fails on a text that needs escaping.
    struct Writer {
        private(set) var bytes: [UInt8] = []
        private(set) var failed = false
        /// Whether the object being written has a member yet (one object: the answers are flat).
        private var hasMember = false

        init(capacity: Int) { bytes.reserveCapacity(capacity) }

        /// Appends JSON punctuation or a member name, as given.
        mutating func raw(_ text: StaticString) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }

        /// Appends `"text"`, or marks the writer failed when `text` needs escaping.
        mutating func plain(_ text: String) {
            var text = text
            text.withUTF8 { utf8 in
                if isPlain(UnsafeRawBufferPointer(utf8)) {
                    bytes.append(0x22)
                    bytes.append(contentsOf: utf8)
                    bytes.append(0x22)
                } else {
                    failed = true
                }
            }
        }

        /// Appends a number or `true`/`false` as Swift prints it (as `JSONEncoder` does for these).
        mutating func literal(_ value: some CustomStringConvertible) {
            bytes.append(contentsOf: value.description.utf8)
        }

        /// Appends an object member's `"name":`, after a comma unless it is the object's first.
        mutating func key(_ name: StaticString) {
            if hasMember { raw(",") }
            hasMember = true
            raw("\"")
            raw(name)
            raw("\":")
        }

        /// Appends the member `name` with `value` between quotes (`plain`); nothing when it is nil.
        mutating func member(_ name: StaticString, plain value: String?) {
            guard let value else { return }
            key(name)
            plain(value)
        }

        /// Appends the member `name` with `value` as a literal; nothing when it is nil.
        mutating func member(_ name: StaticString, literal value: (some CustomStringConvertible)?) {
            guard let value else { return }
            key(name)
            literal(value)
        }

        /// The text, or nil when a value needed escaping.
        var data: Data? { failed ? nil : Data(bytes) }
    }

    /// `TransactionInfoResponse`, or nil when a value needs escaping.
    static func encode(_ response: TransactionInfoResponse) -> Data? {
        guard let jws = response.signedTransactionInfo else { return nil }
        var writer = Writer(capacity: jws.utf8.count + 28)
        writer.raw("{\"signedTransactionInfo\":")
        writer.plain(jws)
        writer.raw("}")
        return writer.data
    }

    /// `HistoryResponse`, or nil when a value needs escaping.
    static func encode(_ response: HistoryResponse) -> Data? {
        let signed = response.signedTransactions ?? []
        var writer = Writer(capacity: signed.reduce(256) { $0 + $1.utf8.count + 3 })
        writer.raw("{")
        writer.member("revision", plain: response.revision)
        writer.member("hasMore", literal: response.hasMore)
        writer.member("bundleId", plain: response.bundleId)
        writer.member("appAppleId", literal: response.appAppleId)
        writer.member("environment", plain: response.environment)
        if let transactions = response.signedTransactions {
            writer.key("signedTransactions")
            writer.raw("[")
            for (index, jws) in transactions.enumerated() {
                if index > 0 { writer.raw(",") }
                writer.plain(jws)
            }
            writer.raw("]")
        }
        writer.raw("}")
        return writer.data
    }
}
