import Testing

@testable import Crypto

@Suite struct AEADTests {
    // McGrew & Viega, "The Galois/Counter Mode of Operation", test case 16 (AES-256, 96-bit IV, AAD).
    @Test func aesGCMKnownAnswer() throws {
        let key = SecureBytes(hex("feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308"))
        let nonce = hex("cafebabefacedbaddecaf888")
        let plaintext = hex(
            """
            d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39
            """)
        let aad = hex("feedfacedeadbeeffeedfacedeadbeefabaddad2")
        let expected = hex(
            """
            522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662
            76fc6ece0f4e1768cddf8853bb2d551b
            """)
        let sealed = try AEAD.seal(.aes256GCM, key: key, nonce: nonce, plaintext: plaintext, associatedData: aad)
        #expect(sealed == expected)
        #expect(try AEAD.open(.aes256GCM, key: key, nonce: nonce, sealed: sealed, associatedData: aad) == plaintext)
    }

    // RFC 8439 section 2.8.2.
    @Test func chachaPolyKnownAnswer() throws {
        let key = SecureBytes(hex("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"))
        let nonce = hex("070000004041424344454647")
        let aad = hex("50515253c0c1c2c3c4c5c6c7")
        let plaintext = Array(
            "Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it."
                .utf8)
        let sealed = try AEAD.seal(.chacha20Poly1305, key: key, nonce: nonce, plaintext: plaintext, associatedData: aad)
        #expect(Array(sealed.prefix(16)) == hex("d31a8d34648e60db7b86afbc53ef7ec2"))
        #expect(Array(sealed.suffix(16)) == hex("1ae10b594f09e26a7e902ecbd0600691"))
        #expect(
            try AEAD.open(.chacha20Poly1305, key: key, nonce: nonce, sealed: sealed, associatedData: aad) == plaintext)
    }

    @Test(arguments: AEAD.Algorithm.allCases)
    func anyAlterationFailsToOpen(algorithm: AEAD.Algorithm) throws {
        let key = try SecureBytes.random(count: 32)
        let nonce = try SecureRandom.bytes(count: 12)
        let aad = Array("record 7".utf8)
        let sealed = try AEAD.seal(
            algorithm, key: key, nonce: nonce, plaintext: Array("secret".utf8), associatedData: aad)
        for bit in 0..<(sealed.count * 8) {
            var altered = sealed
            altered[bit / 8] ^= 1 << UInt8(bit % 8)
            #expect(try AEAD.open(algorithm, key: key, nonce: nonce, sealed: altered, associatedData: aad) == nil)
        }
        var otherNonce = nonce
        otherNonce[0] ^= 1
        #expect(try AEAD.open(algorithm, key: key, nonce: otherNonce, sealed: sealed, associatedData: aad) == nil)
        #expect(
            try AEAD.open(algorithm, key: key, nonce: nonce, sealed: sealed, associatedData: Array("record 8".utf8))
                == nil)
        #expect(
            try AEAD.open(
                algorithm, key: try SecureBytes.random(count: 32), nonce: nonce, sealed: sealed, associatedData: aad)
                == nil)
        #expect(
            try AEAD.open(algorithm, key: key, nonce: nonce, sealed: Array(sealed.dropLast()), associatedData: aad)
                == nil)
        #expect(try AEAD.open(algorithm, key: key, nonce: nonce, sealed: [], associatedData: aad) == nil)
    }

    @Test func emptyPlaintextAndAAD() throws {
        let key = try SecureBytes.random(count: 32)
        let nonce = try SecureRandom.bytes(count: 12)
        let sealed = try AEAD.seal(.aes256GCM, key: key, nonce: nonce, plaintext: [], associatedData: [])
        #expect(sealed.count == 16)
        #expect(try AEAD.open(.aes256GCM, key: key, nonce: nonce, sealed: sealed, associatedData: []) == [])
    }

    @Test func wrongSizesAreErrorsNotTraps() throws {
        #expect(throws: CryptoError.self) {
            try AEAD.seal(
                .aes256GCM, key: SecureBytes([1, 2, 3]), nonce: [UInt8](repeating: 0, count: 12), plaintext: [],
                associatedData: [])
        }
        #expect(throws: CryptoError.self) {
            try AEAD.seal(
                .aes256GCM, key: try SecureBytes.random(count: 32), nonce: [0], plaintext: [], associatedData: [])
        }
    }

    /// Opening into a caller's buffer gives what the allocating form gives, wipes what it wrote
    /// when the tag does not verify, and refuses a buffer too small.
    @Test(arguments: AEAD.Algorithm.allCases)
    func openingIntoABufferMatchesTheAllocatingForm(algorithm: AEAD.Algorithm) throws {
        let key = try AEADKey(algorithm, key: try SecureBytes.random(count: 32))
        var buffer = [UInt8](repeating: 0xEE, count: 1100)
        for length in [0, 1, 16, 1000] {
            let nonce = try SecureRandom.bytes(count: 12)
            let plaintext = try SecureRandom.bytes(count: length)
            let aad = try SecureRandom.bytes(count: 5)
            var sealed = try plaintext.withUnsafeBytes { p in
                try aad.withUnsafeBytes { try key.seal(nonce: nonce, plaintext: p, associatedData: $0) }
            }
            func open() throws -> Bool {
                try nonce.withUnsafeBytes { n in
                    try sealed.withUnsafeBytes { s in
                        try aad.withUnsafeBytes { a in
                            try buffer.withUnsafeMutableBytes {
                                try key.open(nonce: n, sealed: s, associatedData: a, into: $0)
                            }
                        }
                    }
                }
            }
            #expect(try open())
            #expect(Array(buffer.prefix(length)) == plaintext)
            #expect(buffer[length...].allSatisfy { $0 == 0xEE }, "nothing written past the plaintext")
            sealed[0] ^= length > 0 ? 1 : 0
            sealed[sealed.count - 1] ^= 1
            #expect(try open() == false)
            #expect(buffer.prefix(length).allSatisfy { $0 == 0 }, "an unauthenticated plaintext is wiped")
        }
        let sealed = try [UInt8](repeating: 1, count: 8).withUnsafeBytes {
            try key.seal(
                nonce: [UInt8](repeating: 0, count: 12), plaintext: $0,
                associatedData: UnsafeRawBufferPointer(start: nil, count: 0))
        }
        var small = [UInt8](repeating: 0, count: 7)
        #expect(throws: CryptoError.self) {
            try [UInt8](repeating: 0, count: 12).withUnsafeBytes { n in
                try sealed.withUnsafeBytes { s in
                    try small.withUnsafeMutableBytes {
                        try key.open(
                            nonce: n, sealed: s, associatedData: UnsafeRawBufferPointer(start: nil, count: 0), into: $0)
                    }
                }
            }
        }
    }

    /// A MAC written into a caller's buffer is the one `authenticate` returns.
    @Test func aMACIntoABufferIsTheReturnedOne() throws {
        let key = try HMACKey(.sha256, key: SecureBytes(Array("Jefe".utf8)))
        let message = Array("what do ya want for nothing?".utf8)
        var mac = [UInt8](repeating: 0, count: 64)
        let length = try message.withUnsafeBytes { m in
            try mac.withUnsafeMutableBytes { try key.authenticate(m, into: $0) }
        }
        #expect(length == 32)
        #expect(Array(mac.prefix(length)) == (try key.authenticate(message)))
        var short = [UInt8](repeating: 0, count: 16)
        #expect(throws: CryptoError.self) {
            try message.withUnsafeBytes { m in try short.withUnsafeMutableBytes { try key.authenticate(m, into: $0) } }
        }
    }
}
