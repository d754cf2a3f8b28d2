import Foundation
import StoreKitValues

/// The JSON coding App Store JWS payloads use: dates as integer milliseconds since 1970.
enum JWSCoding {
    /// The JSON text of a payload or header as the signer has always written it, byte for byte
    /// what `JSONEncoder` writes with `.sortedKeys`, `.withoutEscapingSlashes` and dates as
    /// milliseconds, without its tree of values (the text the signature covers).
    /// - Throws: `EncodingError.invalidValue` for a date out of range or a non-finite number.
    static func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        try encoder.encode(value)
    }

    private static let encoder = StreamingJSONEncoder(
        dateEncoding: .integer { $0.exactAppStoreMilliseconds }, sortsKeys: true, escapesSlashes: false)

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            if let milliseconds = try? container.decode(Int64.self), milliseconds.magnitude < 10_000_000_000_000_000 {
                return Date(appStoreMilliseconds: milliseconds)
            }
            let milliseconds = try container.decode(Double.self)
            // Keep dates within ±300,000 years so every later conversion to an integer is exact.
            guard milliseconds.isFinite, abs(milliseconds) < 1e16 else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "date \(milliseconds) ms is out of range")
            }
            return Date(timeIntervalSince1970: milliseconds / 1000)
        }
        return decoder
    }
}
