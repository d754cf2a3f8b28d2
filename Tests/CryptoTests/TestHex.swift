/// Hex literals for known-answer tests.
func hex(_ s: String) -> [UInt8] {
    var out: [UInt8] = []
    var chars = Array(s.utf8).filter { $0 != 32 && $0 != 10 }[...]
    while chars.count >= 2 {
        let pair = String(decoding: chars.prefix(2), as: UTF8.self)
        out.append(UInt8(pair, radix: 16) ?? 0)
        chars = chars.dropFirst(2)
    }
    return out
}
