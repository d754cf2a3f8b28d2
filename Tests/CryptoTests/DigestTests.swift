import Testing

@testable import Crypto

@Suite struct DigestTests {
    // Known answers from FIPS 180-4's examples ("abc").
    @Test(arguments: [
        (Digest.Algorithm.sha1, "a9993e364706816aba3e25717850c26c9cd0d89d"),
        (.sha256, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ])
    func knownAnswerForABC(algorithm: Digest.Algorithm, hex: String) throws {
        #expect(try Digest.hash(algorithm, Array("abc".utf8)).hexString == hex)
    }

    @Test func streamingEqualsOneShot() throws {
        let data = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var digest = try Digest(.sha512)
        try digest.update(data[..<1234])
        try digest.update(data[1234...])
        #expect(try digest.finalize() == Digest.hash(.sha512, data))
        #expect(try Digest.hash(.sha384, data).count == Digest.Algorithm.sha384.byteCount)
    }

    @Test func aCopyFinishesThePrefixWhileTheOriginalGoesOn() throws {
        let data = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        var digest = try Digest(.sha256)
        try digest.update(data[..<4321])
        let prefix = try digest.copy()
        try digest.update(data[4321...])
        // FIPS 180-4's "abc" through a copy made before anything was fed in.
        var empty = try Digest(.sha256).copy()
        try empty.update(Array("abc".utf8))
        #expect(try empty.finalize().hexString == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(try prefix.finalize() == Digest.hash(.sha256, data[..<4321]))
        #expect(try digest.finalize() == Digest.hash(.sha256, data))
    }
}
