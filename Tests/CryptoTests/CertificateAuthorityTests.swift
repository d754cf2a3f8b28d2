import Foundation
import TestSupport
import Testing

@testable import Crypto

@Suite(.waitsOnProcesses) struct CertificateAuthorityTests {
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
        let keyMode =
            try FileManager.default.attributesOfItem(
                atPath: directory.appendingPathComponent(CertificateAuthority.FileName.signingKey).path)[
                .posixPermissions] as? Int
        #expect(keyMode == 0o600)
        // The chain verifies at "now" and fails once the signing certificate has expired.
        #expect(
            try CertificateChain.verify(
                leaf: made.signingCertificate, intermediates: [made.intermediate], trustedRoots: [made.root], at: now)
                == nil)
        let late = try CertificateChain.verify(
            leaf: made.signingCertificate, intermediates: [made.intermediate], trustedRoots: [made.root],
            at: now.addingTimeInterval(6 * 365 * 86_400))
        guard case .expired = late else {
            Issue.record("expected expiry, got \(String(describing: late))")
            return
        }
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
        try other.write(
            to: temp.url.appendingPathComponent(CertificateAuthority.FileName.signingKey), atomically: true,
            encoding: .utf8)
        let error = try #require(throws: CryptoError.self) { try CertificateAuthority.load(from: temp.url) }
        #expect(error.reason == "signing-key.pem does not belong to signing.pem")
        #expect(throws: CryptoError.self) { try CertificateAuthority.loadOrCreate(in: temp.url, now: now) }
    }

    @Test func rejectsARootKeyThatIsNotTheRootsOwnWhenTheRootIssuesOrAnswers() throws {
        let temp = try TemporaryDirectory()
        let made = try CertificateAuthority.loadOrCreate(in: temp.url, now: now)
        let intermediateKey = try Data(
            contentsOf: temp.url.appendingPathComponent(CertificateAuthority.FileName.intermediateKey))
        try intermediateKey.write(to: temp.url.appendingPathComponent(CertificateAuthority.FileName.rootKey))
        // Signing reads neither issuing key: the chain loads, and signs as before.
        let signer = try CertificateAuthority.loadOrCreate(in: temp.url, now: now)
        #expect(signer.signingCertificate.derRepresentation == made.signingCertificate.derRepresentation)
        // Answering OCSP and issuing for another OCSP URL read the root's key, and refuse it.
        let error = try #require(throws: CryptoError.self) { try CertificateAuthority.load(from: temp.url) }
        #expect(error.reason == "root-key.pem does not belong to root.pem")
        let issuing = try #require(throws: CryptoError.self) {
            try CertificateAuthority.loadOrCreate(
                in: temp.url, configuration: .init(ocspURL: "http://127.0.0.1:9/ocsp"), now: now)
        }
        #expect(issuing.reason == "root-key.pem does not belong to root.pem")
        #expect(!FileManager.default.fileExists(atPath: temp.url.appendingPathComponent("issued").path))
    }

    @Test func anUnreadableIntermediateKeyStopsOnlyWhatIssues() throws {
        let temp = try TemporaryDirectory()
        _ = try CertificateAuthority.loadOrCreate(in: temp.url, now: now)
        let keyURL = temp.url.appendingPathComponent(CertificateAuthority.FileName.intermediateKey)
        try Data("not a key".utf8).write(to: keyURL)
        _ = try CertificateAuthority.loadOrCreate(in: temp.url, now: now)
        let error = try #require(throws: CryptoError.self) { try CertificateAuthority.load(from: temp.url) }
        #expect(error.operation == "reading \(keyURL.path)")
    }

    @Test func aDamagedRootOrIntermediateIsRefusedOnLoadNamingTheFile() throws {
        for name in [CertificateAuthority.FileName.root, CertificateAuthority.FileName.intermediate] {
            let temp = try TemporaryDirectory()
            _ = try CertificateAuthority.loadOrCreate(in: temp.url, now: now)
            let url = temp.url.appendingPathComponent(name)
            let der = try X509Certificate(pem: String(contentsOf: url, encoding: .utf8)).derRepresentation
            let body = Data(der.dropLast(3)).base64EncodedString(options: [.lineLength64Characters])
            try Data("-----BEGIN CERTIFICATE-----\n\(body)\n-----END CERTIFICATE-----\n".utf8).write(to: url)
            let error = try #require(throws: CryptoError.self) {
                try CertificateAuthority.loadOrCreate(in: temp.url, now: now)
            }
            #expect(error.operation == "reading \(url.path)")
            #expect(error.reason.contains("not a DER X.509 certificate"), "\(error)")
        }
    }

    @Test func anotherChainsIntermediateIsFoundByWhatIssues() throws {
        // Read to be parsed on use, the intermediate is checked against its key when the chain
        // issues or answers OCSP, as before; signing sends it as it is on disk.
        let temp = try TemporaryDirectory()
        _ = try CertificateAuthority.loadOrCreate(in: temp.url, now: now)
        let other = try CertificateAuthority.create(now: now).authority.intermediate
        let url = temp.url.appendingPathComponent(CertificateAuthority.FileName.intermediate)
        try Data(other.pemRepresentation.utf8).write(to: url)
        let signing = try CertificateAuthority.loadOrCreate(
            in: temp.url, configuration: .init(receiptKeyKind: nil), now: now)
        #expect(signing.intermediate.derRepresentation == other.derRepresentation)
        let error = try #require(throws: CryptoError.self) { try CertificateAuthority.load(from: temp.url) }
        #expect(error.reason.contains("does not belong to \(CertificateAuthority.FileName.intermediate)"), "\(error)")
    }

    @Test func exportedRootIsReadByOpenSSL() throws {
        let temp = try TemporaryDirectory()
        let authority = try CertificateAuthority.create(now: now).authority
        let file = temp.url.appendingPathComponent("root.cer")
        try authority.exportRoot(to: file)
        let result = try ChildProcess.run(
            .tool("openssl"), ["x509", "-inform", "DER", "-in", file.path, "-noout", "-subject"])
        #expect(result.status == 0)
        #expect(result.output.contains("Storefront Local App Store Root CA"))
        #expect(try X509Certificate.read(contentsOf: file) == authority.root)
    }

    @Test func rsaChainWorksToo() throws {
        let config = CertificateAuthority.Configuration(keyKind: .rsa(bits: 2048))
        let authority = try CertificateAuthority.create(configuration: config, now: now).authority
        #expect(!authority.signingKey.isEC)
        #expect(
            try CertificateChain.verify(
                leaf: authority.signingCertificate, intermediates: [authority.intermediate],
                trustedRoots: [authority.root],
                at: now) == nil)
    }
}

@Suite(.waitsOnProcesses) struct CertificateAuthorityRaceTests {
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
        #expect(try CertificateAuthority.load(from: directory).authority.root.derRepresentation == roots.first)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.deletingLastPathComponent().path)
        #expect(leftovers == ["Certificates"])
    }
}

/// The pieces a newer version adds: the RSA receipt signer and certificates naming an OCSP
/// responder, added beside a chain without overwriting anything.
@Suite(.waitsOnProcesses) struct CertificateAuthorityGrowthTests {
    let now = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
    let url = "http://127.0.0.1:8490/ocsp"

    func bytes(of directory: URL, _ names: [String]) throws -> [String: Data] {
        Dictionary(
            uniqueKeysWithValues: try names.map { ($0, try Data(contentsOf: directory.appendingPathComponent($0))) })
    }

    @Test func aNewChainHasAnRSAReceiptSignerAndNamesItsOCSPResponder() throws {
        let temp = try TemporaryDirectory()
        let made = try CertificateAuthority.loadOrCreate(in: temp.url, configuration: .init(ocspURL: url), now: now)
        let receiptSigner = try #require(made.receiptSigningCertificate)
        #expect(made.receiptSigningKey?.isEC == false)
        #expect(made.signingKey.isEC)
        #expect(receiptSigner.hasExtension(oid: "1.2.840.113635.100.6.11.1"))
        for certificate in [made.intermediate, made.signingCertificate, receiptSigner] {
            #expect(certificate.ocspResponderURLs == [url])
        }
        #expect(made.root.ocspResponderURLs.isEmpty)
        #expect(made.ocspURL == url)
        #expect(
            try CertificateChain.verify(
                leaf: receiptSigner, intermediates: [made.intermediate], trustedRoots: [made.root], at: now) == nil)
        let loaded = try CertificateAuthority.loadOrCreate(
            in: temp.url, configuration: .init(ocspURL: url), now: now + 60)
        #expect(loaded.receiptSigningCertificate == made.receiptSigningCertificate)
        #expect(
            !FileManager.default.fileExists(
                atPath: temp.url.appendingPathComponent(CertificateAuthority.FileName.issued).path))
        // OpenSSL's own text agrees about the extension.
        let printed = try ChildProcess.run(
            .tool("openssl"), ["x509", "-noout", "-text", "-in", temp.url.appendingPathComponent("signing.pem").path])
        #expect(printed.output.contains("OCSP - URI:\(url)"), "\(printed.output)")
    }

    @Test func aChainFromBeforeRSAReceiptsGetsTheSignerAddedAndKeepsItsFiles() throws {
        let temp = try TemporaryDirectory()
        _ = try CertificateAuthority.loadOrCreate(in: temp.url, now: now)
        for name in [CertificateAuthority.FileName.receiptSigning, CertificateAuthority.FileName.receiptSigningKey] {
            try FileManager.default.removeItem(at: temp.url.appendingPathComponent(name))
        }
        let before = try bytes(of: temp.url, CertificateAuthority.FileName.all)
        let upgraded = try CertificateAuthority.loadOrCreate(in: temp.url, now: now + 86_400)
        #expect(
            try bytes(of: temp.url, CertificateAuthority.FileName.all) == before,
            "nothing of the old chain is rewritten")
        #expect(upgraded.receiptSigningKey?.isEC == false)
        #expect(
            try CertificateChain.verify(
                leaf: try #require(upgraded.receiptSigningCertificate), intermediates: [upgraded.intermediate],
                trustedRoots: [upgraded.root],
                at: now + 86_400) == nil)
        let keyMode =
            try FileManager.default.attributesOfItem(
                atPath: temp.url.appendingPathComponent(CertificateAuthority.FileName.receiptSigningKey).path)[
                .posixPermissions] as? Int
        #expect(keyMode == 0o600)
        #expect(
            try CertificateAuthority.load(from: temp.url).authority.receiptSigningCertificate
                == upgraded.receiptSigningCertificate)
    }

    @Test func anotherOCSPURLGetsCertificatesForTheSameKeysBesideTheOldOnes() throws {
        let temp = try TemporaryDirectory()
        let old = try CertificateAuthority.loadOrCreate(in: temp.url, now: now)
        let before = try bytes(of: temp.url, CertificateAuthority.FileName.all)
        let moved = try CertificateAuthority.loadOrCreate(
            in: temp.url, configuration: .init(ocspURL: url), now: now + 60)
        #expect(try bytes(of: temp.url, CertificateAuthority.FileName.all) == before)
        #expect(moved.root == old.root)
        #expect(moved.signingCertificate != old.signingCertificate)
        #expect(moved.signingCertificate.ocspResponderURLs == [url])
        #expect(moved.intermediate.ocspResponderURLs == [url])
        #expect(moved.signingCertificate.subject == old.signingCertificate.subject)
        // The same key: what the old certificate's key signs, the new certificate verifies.
        let message = Array("same key".utf8)
        #expect(
            try moved.signingCertificate.verifySHA256(signature: old.signingKey.signSHA256(message), message: message))
        #expect(
            try CertificateChain.verify(
                leaf: moved.signingCertificate, intermediates: [moved.intermediate], trustedRoots: [old.root],
                at: now + 60) == nil)
        // Loading again finds the same set; the old URL still gets the old certificates.
        #expect(
            try CertificateAuthority.loadOrCreate(in: temp.url, configuration: .init(ocspURL: url), now: now + 120)
                .signingCertificate == moved.signingCertificate)
        #expect(
            try CertificateAuthority.loadOrCreate(in: temp.url, now: now + 120).signingCertificate
                == old.signingCertificate)
        let issued = try CertificateAuthority.issuedCertificates(in: temp.url)
        #expect(Set(issued.intermediates) == [old.intermediate, moved.intermediate])
        #expect(
            Set(issued.signers)
                == Set(
                    [
                        old.signingCertificate, old.receiptSigningCertificate, moved.signingCertificate,
                        moved.receiptSigningCertificate,
                    ].compactMap { $0 }))
        #expect(issued.signers.count == 4)
    }

    @Test func concurrentProcessesAgreeOnOneSetForANewURL() async throws {
        let temp = try TemporaryDirectory()
        _ = try CertificateAuthority.loadOrCreate(in: temp.url, now: now)
        let directory = temp.url
        let url = self.url
        let now = self.now
        let leaves = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try CertificateAuthority.loadOrCreate(in: directory, configuration: .init(ocspURL: url), now: now)
                        .signingCertificate.derRepresentation
                }
            }
            var all: [[UInt8]] = []
            for try await leaf in group { all.append(leaf) }
            return all
        }
        #expect(Set(leaves).count == 1)
        let sets = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("issued").path)
        #expect(sets.count == 1 && sets[0].hasPrefix("ocsp-"), "\(sets)")
    }

    @Test func theReceiptSignerIsMadeOnlyWhenAskedFor() throws {
        let temp = try TemporaryDirectory()
        let jwsOnly = try CertificateAuthority.loadOrCreate(
            in: temp.url, configuration: .init(receiptKeyKind: nil), now: now)
        #expect(jwsOnly.receiptSigningCertificate == nil && jwsOnly.receiptSigningKey == nil)
        #expect(
            !FileManager.default.fileExists(
                atPath: temp.url.appendingPathComponent(CertificateAuthority.FileName.receiptSigningKey).path))
        let before = try bytes(of: temp.url, CertificateAuthority.FileName.all)
        let full = try CertificateAuthority.loadOrCreate(in: temp.url, now: now + 60)
        #expect(full.receiptSigningKey?.isEC == false)
        #expect(full.signingCertificate == jwsOnly.signingCertificate)
        #expect(try bytes(of: temp.url, CertificateAuthority.FileName.all) == before)
        // Once made, it is loaded even when not asked for.
        let again = try CertificateAuthority.loadOrCreate(
            in: temp.url, configuration: .init(receiptKeyKind: nil), now: now + 120)
        #expect(again.receiptSigningCertificate == full.receiptSigningCertificate)
    }

    /// A chain that signs only JWS leaves the receipt signer the directory has unread (a damaged
    /// one included), and reads its JWS signer without OpenSSL parsing it; asked for, the
    /// receipt signer is read, and a damaged key is refused naming its file.
    @Test func aChainThatSignsOnlyJWSReadsNoReceiptSigner() throws {
        let temp = try TemporaryDirectory()
        let full = try CertificateAuthority.loadOrCreate(in: temp.url, now: now)
        #expect(full.receiptSigningKey != nil)
        let jwsOnly = try CertificateAuthority.loadOrCreate(
            in: temp.url, configuration: .init(receiptKeyKind: nil, readsReceiptSigner: false), now: now + 60)
        #expect(jwsOnly.receiptSigningCertificate == nil && jwsOnly.receiptSigningKey == nil)
        #expect(!jwsOnly.signingCertificate.isParsed)
        #expect(jwsOnly.signingCertificate.derRepresentation == full.signingCertificate.derRepresentation)
        #expect(jwsOnly.ocspURL == nil)

        let keyFile = temp.url.appendingPathComponent(CertificateAuthority.FileName.receiptSigningKey)
        try Data("not a key".utf8).write(to: keyFile)
        _ = try CertificateAuthority.loadOrCreate(
            in: temp.url, configuration: .init(receiptKeyKind: nil, readsReceiptSigner: false), now: now + 120)
        let error = try #require(throws: CryptoError.self) {
            try CertificateAuthority.loadOrCreate(in: temp.url, configuration: .init(receiptKeyKind: nil), now: now)
        }
        #expect(error.operation.contains(CertificateAuthority.FileName.receiptSigningKey), "\(error)")
    }

    @Test func aURLThatIsNotHTTPIsRefused() throws {
        let temp = try TemporaryDirectory()
        #expect(throws: CryptoError.self) {
            try CertificateAuthority.loadOrCreate(in: temp.url, configuration: .init(ocspURL: "ftp://x, y"), now: now)
        }
    }
}
