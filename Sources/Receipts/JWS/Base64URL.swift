/// Base64url without padding, as JWS uses it (RFC 7515 §2).
public enum Base64URL {
    /// The 64 characters of the URL-safe alphabet, in value order.
    private static let alphabet: [UInt8] = Array(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Encodes `bytes`, straight into the URL-safe alphabet in one pass (signing a JWS encodes
    /// its certificate chain every time, so this is on the path of every signed transaction).
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let input = Array(bytes)
        let full = input.count / 3 * 3
        let length = input.count / 3 * 4 + [0, 2, 3][input.count % 3]
        return String(
            unsafeUninitializedCapacity: length,
            initializingUTF8With: { output in
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

    /// Each byte's value in the alphabet, 0xFF for a byte outside it. Like the Foundation decoder
    /// this replaced, `+` and `/` are read as `-` and `_` are.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        table[Int(UInt8(ascii: "+"))] = 62
        table[Int(UInt8(ascii: "/"))] = 63
        return table
    }()

    /// Decodes `text`, or returns nil when it is not base64url: a byte outside the alphabet
    /// (padding included), or a length that leaves one character over. The unused low bits of the
    /// last character are ignored, as Foundation's decoder ignores them. One pass over the UTF-8
    /// (every JWS verified decodes its header, payload, signature and chain through here).
    public static func decode<Text: StringProtocol>(_ text: Text) -> [UInt8]? {
        let utf8 = text.utf8
        guard utf8.count % 4 != 1 else { return nil }
        var output: [UInt8] = []
        output.reserveCapacity(utf8.count / 4 * 3 + 2)
        var group: UInt32 = 0
        var length = 0
        for byte in utf8 {
            let value = values[Int(byte)]
            guard value < 64 else { return nil }
            group = group << 6 | UInt32(value)
            length += 1
            if length == 4 {
                output.append(UInt8(truncatingIfNeeded: group >> 16))
                output.append(UInt8(truncatingIfNeeded: group >> 8))
                output.append(UInt8(truncatingIfNeeded: group))
                group = 0
                length = 0
            }
        }
        switch length {
        case 2:
            output.append(UInt8(truncatingIfNeeded: group >> 4))
        case 3:
            output.append(UInt8(truncatingIfNeeded: group >> 10))
            output.append(UInt8(truncatingIfNeeded: group >> 2))
        default:
            break
        }
        return output
    }
}
