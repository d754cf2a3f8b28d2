import Testing

@testable import Crypto

@Suite struct KDFTests {
    // RFC 4231, test case 2.
    @Test func hmacSHA256KnownAnswer() throws {
        let mac = try HMAC.authenticate(
            .sha256, key: SecureBytes(Array("Jefe".utf8)), message: Array("what do ya want for nothing?".utf8))
        #expect(mac.hexString == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(HMAC.equal(mac, mac))
        #expect(!HMAC.equal(mac, Array(mac.dropLast()) + [0]))
    }

    // RFC 5869, test cases 1 and 3.
    @Test func hkdfKnownAnswers() throws {
        let okm = try HKDF.derive(
            key: SecureBytes([UInt8](repeating: 0x0b, count: 22)), salt: hex("000102030405060708090a0b0c"),
            info: hex("f0f1f2f3f4f5f6f7f8f9"), count: 42)
        #expect(
            okm.copiedBytes.hexString
                == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
        let okm3 = try HKDF.derive(key: SecureBytes([UInt8](repeating: 0x0b, count: 22)), salt: [], info: [], count: 42)
        #expect(
            okm3.copiedBytes.hexString
                == "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8")
    }

    // RFC 7914, section 12, the first two vectors.
    @Test func scryptKnownAnswers() throws {
        let a = try Scrypt.derive(
            password: SecureBytes([UInt8]()), salt: [],
            parameters: .init(log2N: 4, r: 1, p: 1, maxMemory: 1 << 20), count: 64)
        #expect(
            a.copiedBytes.hexString == """
                77d6576238657b203b19ca42c18a0497f16b4844e3074ae8dfdffa3fede21442fcd0069ded0948f8326a753a0fc81f17e8d3e0fb2e0d3628cf35e20c38d18906
                """)
        let b = try Scrypt.derive(
            password: SecureBytes(Array("password".utf8)), salt: Array("NaCl".utf8),
            parameters: .init(log2N: 10, r: 8, p: 16, maxMemory: 32 << 20), count: 64)
        #expect(
            b.copiedBytes.hexString == """
                fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640
                """)
    }

    @Test(arguments: [
        (Scrypt.Parameters(log2N: 40, r: 8, p: 1, maxMemory: 1 << 30), "log2N"),
        (Scrypt.Parameters(log2N: 63, r: 0xFFFF_FFFF, p: 0xFFFF_FFFF, maxMemory: .max), "log2N"),
        (Scrypt.Parameters(log2N: 14, r: 0xFFFF_FFFF, p: 1, maxMemory: 1 << 30), "r"),
        (Scrypt.Parameters(log2N: 14, r: 8, p: 0, maxMemory: 1 << 30), "p"),
        (Scrypt.Parameters(log2N: 14, r: 8, p: 1, maxMemory: .max), "maxMemory"),
        (Scrypt.Parameters(log2N: 20, r: 32, p: 16, maxMemory: 1024), "maxMemory"),
        (Scrypt.Parameters(log2N: 0, r: 8, p: 1, maxMemory: 1 << 20), "log2N"),
    ])
    func hostileParametersAreRejectedBeforeWork(parameters: Scrypt.Parameters, field: String) throws {
        #expect(throws: Scrypt.ParameterError.self) { try Scrypt.validate(parameters, limits: .default) }
        do {
            try Scrypt.validate(parameters, limits: .default)
        } catch {
            #expect(error.field == field)
        }
        // derive refuses too (and returns at once: a 2^40 derivation would not finish).
        #expect(throws: CryptoError.self) {
            try Scrypt.derive(password: SecureBytes([1]), salt: [1], parameters: parameters, count: 32)
        }
    }

    @Test func secureBytesCompareAndCopy() throws {
        let a = SecureBytes([1, 2, 3])
        #expect(a.constantTimeEquals(SecureBytes([1, 2, 3])))
        #expect(!a.constantTimeEquals(SecureBytes([1, 2, 4])))
        #expect(!a.constantTimeEquals(SecureBytes([1, 2])))
        #expect(a.copiedBytes == [1, 2, 3])
        #expect(try SecureBytes.random(count: 32).count == 32)
        #expect(SecureBytes([UInt8]()).count == 0)
    }
}

@Suite struct ReusableKeyTests {
    // RFC 4231 test cases 1 and 2 through one reused key each, several times over.
    @Test func hmacKeyReusedGivesTheSameAnswers() throws {
        let jefe = try HMACKey(.sha256, key: SecureBytes(Array("Jefe".utf8)))
        let key1 = try HMACKey(.sha256, key: SecureBytes([UInt8](repeating: 0x0b, count: 20)))
        for _ in 0..<3 {
            #expect(
                try jefe.authenticate(Array("what do ya want for nothing?".utf8)).hexString
                    == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
            #expect(
                try key1.authenticate(Array("Hi There".utf8)).hexString
                    == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        }
        let other = try HMAC.authenticate(.sha512, key: SecureBytes([1, 2, 3]), message: [4, 5])
        #expect(try HMACKey(.sha512, key: SecureBytes([1, 2, 3])).authenticate([4, 5]) == other)
    }

    @Test(arguments: AEAD.Algorithm.allCases)
    func aeadKeyReusedMatchesOneShot(algorithm: AEAD.Algorithm) throws {
        let secret = try SecureBytes.random(count: 32)
        let key = try AEADKey(algorithm, key: secret)
        for length in [0, 1, 15, 16, 17, 1000] {
            let nonce = try SecureRandom.bytes(count: 12)
            let plaintext = try SecureRandom.bytes(count: length)
            let aad = try SecureRandom.bytes(count: length % 7)
            let sealed = try plaintext.withUnsafeBytes { p in
                try aad.withUnsafeBytes { try key.seal(nonce: nonce, plaintext: p, associatedData: $0) }
            }
            #expect(
                sealed
                    == (try AEAD.seal(algorithm, key: secret, nonce: nonce, plaintext: plaintext, associatedData: aad)))
            let opened = try sealed.withUnsafeBytes { s in
                try aad.withUnsafeBytes { try key.open(nonce: nonce, sealed: s, associatedData: $0) }
            }
            #expect(opened == plaintext)
            var altered = sealed
            altered[altered.count - 1] ^= 1
            let rejected = try altered.withUnsafeBytes { s in
                try aad.withUnsafeBytes { try key.open(nonce: nonce, sealed: s, associatedData: $0) }
            }
            #expect(rejected == nil)
        }
    }
}
