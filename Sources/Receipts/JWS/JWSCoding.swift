import Foundation

/// The JSON coding App Store JWS payloads use: dates as integer milliseconds since 1970.
enum JWSCoding {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            guard let milliseconds = date.exactAppStoreMilliseconds else {
                throw EncodingError.invalidValue(
                    date, .init(codingPath: encoder.codingPath, debugDescription: "date out of range"))
            }
            try container.encode(milliseconds)
        }
        return encoder
    }

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
