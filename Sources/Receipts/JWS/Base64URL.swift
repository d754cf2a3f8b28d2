import Foundation

/// Base64url without padding, as JWS uses it (RFC 7515 §2).
public enum Base64URL {
    /// The 64 characters of the URL-safe alphabet, in value order.
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes `bytes`, straight into the URL-safe alphabet in one pass (signing a JWS encodes
    /// its certificate chain every time, so this is on the path of every signed transaction).
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let input = Array(bytes)
        let full = input.count / 3 * 3
        let length = input.count / 3 * 4 + [0, 2, 3][input.count % 3]
        return String(unsafeUninitializedCapacity: length, initializingUTF8With: { output in
            var o = 0
            var i = 0
            while i < full {
                let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
                output[o] = alphabet[Int(n >> 18 & 63)]
                output[o + 1] = alphabet[Int(n >> 12 & 63)]
                output[o + 2] = alphabet[Int(n >> 6 & 63)]
                output[o + 3] = alphabet[Int(n & 63)]
                i += 3
                o += 4
            }
            switch input.count - full {
            case 1:
                let n = UInt32(input[i]) << 16
                output[o] = alphabet[Int(n >> 18 & 63)]
                output[o + 1] = alphabet[Int(n >> 12 & 63)]
                o += 2
            case 2:
                let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8
                output[o] = alphabet[Int(n >> 18 & 63)]
                output[o + 1] = alphabet[Int(n >> 12 & 63)]
                output[o + 2] = alphabet[Int(n >> 6 & 63)]
                o += 3
            default:
                break
            }
            return o
        })
    }

    /// Decodes `text`, or returns nil when it is not base64url.
    public static func decode<Text: StringProtocol>(_ text: Text) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("=") || text.isEmpty else { return nil }
        switch base64.count % 4 {
        case 2: base64 += "=="
        case 3: base64 += "="
        case 1: return nil
        default: break
        }
        return Data(base64Encoded: base64).map(Array.init)
    }
}
