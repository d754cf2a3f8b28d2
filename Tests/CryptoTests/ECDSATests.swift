import Foundation
import Testing

@testable import Crypto

@Suite struct ECDSATests {
    @Test func es256SignaturesAreRawAndVerify() throws {
        let authority = try CertificateAuthority.create(now: Date(timeIntervalSince1970: 1_767_225_600)).authority
        let message = Array("header.payload".utf8)
        let signature = try ECDSA.signES256(message, key: authority.signingKey)
        #expect(signature.count == 64)
        #expect(
            try ECDSA.verifyES256(signature: signature, message: message, certificate: authority.signingCertificate))
        #expect(
            try !ECDSA.verifyES256(
                signature: signature, message: message + [0], certificate: authority.signingCertificate))
        var flipped = signature
        flipped[10] ^= 1
        #expect(try !ECDSA.verifyES256(signature: flipped, message: message, certificate: authority.signingCertificate))
        #expect(
            try !ECDSA.verifyES256(
                signature: Array(signature.prefix(63)), message: message, certificate: authority.signingCertificate))
        #expect(try !ECDSA.verifyES256(signature: signature, message: message, certificate: authority.root))
    }

    @Test func derAndRawConvertBothWays() throws {
        let key = try PrivateKey.generate(.p256)
        for index in 0..<20 {
            let der = try key.signSHA256([UInt8(index)])
            let raw = try ECDSA.rawSignature(fromDER: der)
            #expect(raw.count == 64)
            #expect(try ECDSA.derSignature(fromRaw: raw) == der)
        }
        #expect(throws: CryptoError.self) { try ECDSA.derSignature(fromRaw: [1, 2, 3]) }
        #expect(throws: CryptoError.self) { try ECDSA.rawSignature(fromDER: [0x30, 0x00]) }
    }

    @Test func aDigestMadeInPartsSignsAsTheMessage() throws {
        let authority = try CertificateAuthority.create(now: Date(timeIntervalSince1970: 1_767_225_600)).authority
        let prefix = try SHA256Prefix(Array("header.".utf8))
        for payload in ["payload", "another payload", ""] {
            let message = Array(("header." + payload).utf8)
            let digest = try prefix.digest(continuingWith: Array(payload.utf8))
            #expect(digest == (try Digest.hash(.sha256, message)))
            let signature = try ECDSA.signES256(digest: digest, key: authority.signingKey)
            #expect(signature.count == 64)
            #expect(
                try ECDSA.verifyES256(
                    signature: signature, message: message, certificate: authority.signingCertificate))
            #expect(
                try !ECDSA.verifyES256(
                    signature: signature, message: message + [0], certificate: authority.signingCertificate))
        }
        #expect(throws: CryptoError.self) {
            try ECDSA.signES256(digest: Array(repeating: 1, count: 31), key: authority.signingKey)
        }
    }

    @Test func anRSADigestSignatureIsTheMessagesSignature() throws {
        // PKCS#1 v1.5 is deterministic: the digest's signature must be the message's, byte for byte.
        let key = try PrivateKey.generate(.rsa(bits: 2048))
        let message = Array("a message signed whole and as its digest".utf8)
        #expect(try key.signSHA256(digest: Digest.hash(.sha256, message)) == key.signSHA256(message))
    }

    @Test func rsaKeyCannotSignES256() throws {
        #expect(throws: CryptoError.self) { try ECDSA.signES256([1], key: PrivateKey.generate(.rsa(bits: 2048))) }
    }
}

@Suite struct PublicKeyES256Tests {
    @Test func aSignatureChecksWithThePublicHalfAndNothingElse() throws {
        let key = try PrivateKey.generate(.p256)
        let other = try PrivateKey.generate(.p256)
        let message = Array("header.payload".utf8)
        let signature = try ECDSA.signES256(message, key: key)
        let publicKey = try PublicKey(of: key)
        #expect(publicKey.isP256)
        #expect(try ECDSA.verifyES256(signature: signature, message: message, publicKey: publicKey))
        #expect(try !ECDSA.verifyES256(signature: signature, message: message + [0], publicKey: publicKey))
        #expect(try !ECDSA.verifyES256(signature: signature, message: message, publicKey: PublicKey(of: other)))
        #expect(try !ECDSA.verifyES256(signature: Array(signature.dropLast()), message: message, publicKey: publicKey))
        let reread = try PublicKey(pem: publicKey.pemRepresentation())
        #expect(try ECDSA.verifyES256(signature: signature, message: message, publicKey: reread))
    }

    @Test func anRSAKeyIsNotAnES256Key() throws {
        let rsa = try PublicKey(of: PrivateKey.generate(.rsa(bits: 2048)))
        #expect(!rsa.isP256)
        #expect(try !ECDSA.verifyES256(signature: [UInt8](repeating: 1, count: 64), message: [1], publicKey: rsa))
    }

    @Test func garbageIsNotAPublicKey() {
        #expect(throws: CryptoError.self) {
            _ = try PublicKey(pem: "-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n")
        }
    }
}
