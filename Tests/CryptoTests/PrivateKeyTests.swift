import Foundation
import TestSupport
import Testing

@testable import Crypto

/// Reading PEM private keys: the PKCS#8 keys this library writes go through their algorithm's
/// own decoder, everything else through OpenSSL's generic reader. Either way the key read is the
/// key written (its public half and its signatures), as OpenSSL's own tool sees it.
@Suite(.waitsOnProcesses) struct PrivateKeyTests {
    @Test(arguments: [PrivateKey.Kind.p256, .rsa(bits: 2048)])
    func aPKCS8KeyReadsBackAsTheSameKey(kind: PrivateKey.Kind) throws {
        let key = try PrivateKey.generate(kind)
        let pem = try key.pemRepresentation()
        #expect(pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let read = try PrivateKey(pem: pem)
        #expect(read.isEC == (kind == .p256))
        #expect(try PublicKey(of: read).pemRepresentation() == PublicKey(of: key).pemRepresentation())
        let message = Array("a purchase".utf8)
        #expect(try PublicKey(of: key).verifySHA256(signature: read.signSHA256(message), message: message))
        #expect(try read.pemRepresentation() == pem)
    }

    /// Keys OpenSSL's tool writes in the other forms: a traditional EC key (`BEGIN EC PRIVATE
    /// KEY`), a traditional RSA key, and a PKCS#8 key of an algorithm this library does not make
    /// (Ed25519), all read by the generic reader; their public halves are the tool's.
    @Test func keysInOtherFormsAreReadAsOpenSSLReadsThem() throws {
        let temp = try TemporaryDirectory()
        let forms: [(String, [String])] = [
            ("ec-traditional.pem", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out"]),
            ("rsa-traditional.pem", ["genrsa", "-traditional", "-out"]),
            ("ed25519.pem", ["genpkey", "-algorithm", "ed25519", "-out"]),
        ]
        for (name, arguments) in forms {
            let file = temp.url.appendingPathComponent(name)
            let bits = name.hasPrefix("rsa") ? ["2048"] : []  // genrsa takes the size after its options
            let made = try ChildProcess.run(.tool("openssl"), arguments + [file.path] + bits)
            #expect(made.status == 0, "\(made.output)")
            let pem = try String(contentsOf: file, encoding: .utf8)
            #expect(!pem.hasPrefix("-----BEGIN PRIVATE KEY-----") || name == "ed25519.pem", "\(name)")
            let key = try PrivateKey(pem: pem)
            let expected = try ChildProcess.run(.tool("openssl"), ["pkey", "-in", file.path, "-pubout"])
            #expect(try PublicKey(of: key).pemRepresentation() == expected.output, "\(name)")
            #expect(key.isEC == name.hasPrefix("ec"), "\(name)")
        }
    }

    /// Text that is not a key, or a PKCS#8 frame whose contents are not one, is refused by the
    /// generic reader with OpenSSL's reasons.
    @Test func whatIsNotAKeyIsRefused() throws {
        let broken = [
            "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n",
            "-----BEGIN PRIVATE KEY-----\nMAMCAQA=\n-----END PRIVATE KEY-----\n",
            "hello",
        ]
        for pem in broken {
            let error = try #require(throws: CryptoError.self) { try PrivateKey(pem: pem) }
            #expect(error.operation == "PEM_read_bio_PrivateKey")
            #expect(!error.reason.isEmpty)
        }
    }

    @Test func aCertificateCertifiesItsOwnKeyOnly() throws {
        let keys = try CertificateAuthority.create(now: Date(timeIntervalSince1970: 1_767_225_600))
        let authority = keys.authority
        #expect(authority.signingCertificate.certifies(authority.signingKey))
        #expect(authority.root.certifies(keys.rootKey))
        #expect(!authority.signingCertificate.certifies(keys.intermediateKey))
        #expect(!authority.root.certifies(try PrivateKey.generate(.rsa(bits: 2048))))
    }
    /// A P-256 PKCS#8 key is made from its scalar and point, and is the key OpenSSL's tool reads:
    /// the same public key info, and signatures its public key verifies.
    @Test func aP256KeyMadeFromItsParametersIsTheKeyOpenSSLReads() throws {
        let temp = try TemporaryDirectory()
        let key = try PrivateKey.generate(.p256)
        let file = temp.url.appendingPathComponent("key.pem")
        try key.pemRepresentation().write(to: file, atomically: true, encoding: .utf8)
        let read = try PrivateKey(pem: try String(contentsOf: file, encoding: .utf8))
        let der = temp.url.appendingPathComponent("public.der")
        let made = try ChildProcess.run(
            .tool("openssl"), ["pkey", "-in", file.path, "-pubout", "-outform", "DER", "-out", der.path])
        #expect(made.status == 0, "\(made.output)")
        #expect(read.p256PublicKeyInfo == Array(try Data(contentsOf: der)))
        #expect(read.p256PublicKeyInfo == key.p256PublicKeyInfo)
        let message = Array("a purchase".utf8)
        #expect(try PublicKey(of: key).verifySHA256(signature: read.signSHA256(message), message: message))
        #expect(try PrivateKey.generate(.rsa(bits: 2048)).p256PublicKeyInfo == nil)
    }

    /// A P-256 PKCS#8 key without its public point is read by its decoder, which computes the
    /// point; one whose point is not on the curve is refused, as the decoder refuses it.
    @Test func aP256KeyWithoutItsPointIsDecodedAndOneOffTheCurveRefused() throws {
        let temp = try TemporaryDirectory()
        let full = temp.url.appendingPathComponent("full.pem")
        try PrivateKey.generate(.p256).pemRepresentation().write(to: full, atomically: true, encoding: .utf8)
        let bare = temp.url.appendingPathComponent("bare.pem")
        let traditional = try ChildProcess.run(
            .tool("openssl"), ["ec", "-in", full.path, "-no_public", "-out", bare.path + ".ec"])
        #expect(traditional.status == 0, "\(traditional.output)")
        let pkcs8 = try ChildProcess.run(
            .tool("openssl"), ["pkcs8", "-topk8", "-nocrypt", "-in", bare.path + ".ec", "-out", bare.path])
        #expect(pkcs8.status == 0, "\(pkcs8.output)")
        let bareText = try String(contentsOf: bare, encoding: .utf8)
        #expect(bareText.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        let read = try PrivateKey(pem: bareText)
        let expected = try ChildProcess.run(.tool("openssl"), ["pkey", "-in", full.path, "-pubout"])
        #expect(try PublicKey(of: read).pemRepresentation() == expected.output)

        // The point's last byte changed: off the curve.
        let text = try String(contentsOf: full, encoding: .utf8)
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        var der = try #require(Data(base64Encoded: body)).map { $0 }
        der[der.count - 1] ^= 0x01
        #expect(throws: CryptoError.self) { try PrivateKey(pem: X509CertificateTests.pem(der, label: "PRIVATE KEY")) }
    }
}
