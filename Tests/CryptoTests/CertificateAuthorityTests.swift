import Foundation
import TestSupport
import Testing
@testable import Crypto

@Suite struct CertificateAuthorityTests {
    let now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01

    @Test func makesChainOnFirstUseAndLoadsItAfterwards() throws {
        let temp = try TemporaryDirectory()
        let directory = temp.url.appendingPathComponent("ca")
        let made = try CertificateAuthority.loadOrCreate(in: directory, now: now)
        let loaded = try CertificateAuthority.loadOrCreate(in: directory, now: now.addingTimeInterval(86_400))
        #expect(made.root == loaded.root)
        #expect(made.signingCertificate == loaded.signingCertificate)
        #expect(made.root.isSelfSigned)
        #expect(!made.intermediate.isSelfSigned)
        #expect(made.signingCertificate.hasExtension(oid: "1.2.840.113635.100.6.11.1"))
        #expect(made.intermediate.hasExtension(oid: "1.2.840.113635.100.6.2.1"))
        let keyMode = try FileManager.default.attributesOfItem(
            atPath: directory.appendingPathComponent(CertificateAuthority.FileName.signingKey).path)[.posixPermissions] as? Int
        #expect(keyMode == 0o600)
        // The chain verifies at "now" and fails once the signing certificate has expired.
        #expect(try CertificateChain.verify(
            leaf: made.signingCertificate, intermediates: [made.intermediate], trustedRoots: [made.root], at: now) == nil)
        let late = try CertificateChain.verify(
            leaf: made.signingCertificate, intermediates: [made.intermediate], trustedRoots: [made.root],
            at: now.addingTimeInterval(6 * 365 * 86_400))
        guard case .expired = late else { Issue.record("expected expiry, got \(String(describing: late))"); return }
    }

    @Test func refusesPartialDirectoryWithoutOverwriting() throws {
        let temp = try TemporaryDirectory()
        _ = try CertificateAuthority.loadOrCreate(in: temp.url, now: now)
        let keyURL = temp.url.appendingPathComponent(CertificateAuthority.FileName.rootKey)
        try FileManager.default.removeItem(at: keyURL)
        let rootBefore = try Data(contentsOf: temp.url.appendingPathComponent(CertificateAuthority.FileName.root))
        #expect {
            try CertificateAuthority.loadOrCreate(in: temp.url, now: now)
        } throws: { error in
            (error as? CryptoError)?.reason.contains(CertificateAuthority.FileName.rootKey) == true
        }
        #expect(try Data(contentsOf: temp.url.appendingPathComponent(CertificateAuthority.FileName.root)) == rootBefore)
    }

    @Test func rejectsSigningKeyOfAnotherChain() throws {
        let temp = try TemporaryDirectory()
        _ = try CertificateAuthority.loadOrCreate(in: temp.url, now: now)
        let other = try PrivateKey.generate(.p256).pemRepresentation()
        try other.write(to: temp.url.appendingPathComponent(CertificateAuthority.FileName.signingKey), atomically: true, encoding: .utf8)
        #expect(throws: CryptoError.self) { try CertificateAuthority.load(from: temp.url) }
    }

    @Test func exportedRootIsReadByOpenSSL() throws {
        let temp = try TemporaryDirectory()
        let authority = try CertificateAuthority.create(now: now).authority
        let file = temp.url.appendingPathComponent("root.cer")
        try authority.exportRoot(to: file)
        let result = try ChildProcess.run(.tool("openssl"), ["x509", "-inform", "DER", "-in", file.path, "-noout", "-subject"])
        #expect(result.status == 0)
        #expect(result.output.contains("Storefront Local App Store Root CA"))
        #expect(try X509Certificate.read(contentsOf: file) == authority.root)
    }

    @Test func rsaChainWorksToo() throws {
        let config = CertificateAuthority.Configuration(keyKind: .rsa(bits: 2048))
        let authority = try CertificateAuthority.create(configuration: config, now: now).authority
        #expect(!authority.signingKey.isEC)
        #expect(try CertificateChain.verify(
            leaf: authority.signingCertificate, intermediates: [authority.intermediate], trustedRoots: [authority.root],
            at: now) == nil)
    }
}

@Suite struct CertificateAuthorityRaceTests {
    @Test func concurrentFirstUsesAgreeOnOneChain() async throws {
        let temp = try TemporaryDirectory()
        let directory = temp.url.appendingPathComponent("state/Certificates")
        let now = Date(timeIntervalSince1970: 1_767_225_600)
        let roots = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<4 {
                group.addTask { try CertificateAuthority.loadOrCreate(in: directory, now: now).root.derRepresentation }
            }
            var all: [[UInt8]] = []
            for try await root in group { all.append(root) }
            return all
        }
        #expect(Set(roots).count == 1)
        #expect(try CertificateAuthority.load(from: directory).root.derRepresentation == roots.first)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.deletingLastPathComponent().path)
        #expect(leftovers == ["Certificates"])
    }
}
