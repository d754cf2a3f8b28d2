import Foundation
import StoreKitValues
import Testing

/// The conformance receipts in `Fixtures/` and their `expected.json`, read at test time.
enum ConformanceFixtures {
    static var directory: URL {
        get throws {
            try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
        }
    }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func expected() throws -> [String: [String: Any]] {
        let json = try JSONSerialization.jsonObject(
            with: Data(contentsOf: directory.appendingPathComponent("expected.json")))
        let top = try #require(json as? [String: Any])
        return try #require(top["receipts"] as? [String: [String: Any]])
    }

    /// Every receipt file named in expected.json.
    static var receiptNames: [String] {
        ((try? expected().keys.sorted()) ?? [])
    }

    /// Parses an expected date with Foundation's ISO 8601 parser (independent of the code under test).
    static func date(_ value: Any?) -> Date? {
        guard let text = value as? String, !text.isEmpty else { return nil }
        return ISO8601DateFormatter().date(from: text)
    }

    static func hex(_ text: String) -> [UInt8] {
        var out: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex, let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex) {
            if let byte = UInt8(text[index..<next], radix: 16) { out.append(byte) }
            index = next
        }
        return out
    }
}
