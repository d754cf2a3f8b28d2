import Crypto
import Foundation
import TestSupport
import Testing

@testable import Vault

/// Item 7 of the vault issue: damaged, truncated, rearranged and hostile files.
@Suite struct TamperTests {
    /// A small vault written in known steps: `sizes[k]` is the file size after k records.
    struct Fixture {
        let dir: TemporaryDirectory
        let sizes: [Int]
        let states: [[VaultItem]]
        var bytes: [UInt8]

        init(records: Int = 4) throws {
            dir = try TemporaryDirectory()
            let vault = try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
            var sizes = [Int(try vault.status().bytes)]
            var states = [try vault.allItems()]
            let ops: [(String, String?)] = [
                ("a", "alpha"), ("b", "bravo"), ("a", "alpha-2"), ("b", nil), ("c", "charlie"),
            ]
            for (account, value) in ops.prefix(records) {
                if let value {
                    try vault.upsert(service: "s", account: account, content(value, attributes: ["n": value]))
                } else {
                    try vault.delete(service: "s", account: account)
                }
                sizes.append(Int(try vault.status().bytes))
                states.append(try vault.allItems())
            }
            self.sizes = sizes
            self.states = states
            bytes = try fileBytes(dir.vault)
        }

        func open(_ bytes: [UInt8]) throws -> Vault {
            try writeBytes(bytes, to: dir.vault)
            return try Vault(at: dir.vault, key: .keyFile(dir.keyFile), configuration: testConfiguration())
        }

        func frame(_ k: Int) -> [UInt8] { Array(bytes[sizes[k]..<sizes[k + 1]]) }
    }

    /// Clear errors for damage: integrity, not-a-vault, or a version we do not read.
    static func isClearDamageError(_ error: Error) -> Bool {
        switch error as? VaultError {
        case .integrity, .notAVault, .unsupportedVersion: true
        default: false
        }
    }

    @Test func everyBitFlipIsAnErrorOrThePreviousStateForTheTornTail() throws {
        var fixture = try Fixture(records: 4)
        // Leave the fourth record half written: a torn tail.
        let tornEnd = fixture.sizes[3] + (fixture.sizes[4] - fixture.sizes[3]) / 2
        fixture.bytes = Array(fixture.bytes[..<tornEnd])
        let previous = fixture.states[3]
        #expect(try fixture.open(fixture.bytes).allItems() == previous)

        var opened = 0
        var rejected = 0
        for bit in 0..<(fixture.bytes.count * 8) {
            var damaged = fixture.bytes
            damaged[bit / 8] ^= 1 << UInt8(bit % 8)
            do {
                let items = try fixture.open(damaged).allItems()
                // Only a flip inside the torn tail may open, and then only as the previous state.
                #expect(bit / 8 >= fixture.sizes[3], "bit \(bit) opened")
                #expect(items == previous, "bit \(bit) opened with wrong data")
                opened += 1
            } catch {
                #expect(Self.isClearDamageError(error), "bit \(bit): \(error)")
                rejected += 1
            }
        }
        #expect(rejected >= fixture.sizes[3] * 8)
        #expect(opened > 0)
    }

    @Test func everyTruncationOpensAsAPrefixOrFailsClearly() throws {
        let fixture = try Fixture(records: 4)
        for length in 0...fixture.bytes.count {
            do {
                let items = try fixture.open(Array(fixture.bytes[..<length])).allItems()
                let complete = fixture.sizes.lastIndex { $0 <= length } ?? 0
                #expect(items == fixture.states[complete], "length \(length)")
            } catch {
                #expect(length < VaultFormat.headerLength, "length \(length): \(error)")
                #expect(Self.isClearDamageError(error), "length \(length): \(error)")
            }
        }
    }

    @Test func trailingGarbageIsRejected() throws {
        let fixture = try Fixture(records: 2)
        for garbage in [
            Array("garbage!".utf8), [0], [UInt8](repeating: 0, count: 200), Array((0..<100).map { UInt8($0) }),
        ] {
            #expect(throws: VaultError.self) { try fixture.open(fixture.bytes + garbage).allItems() }
            let error = vaultError { _ = try fixture.open(fixture.bytes + garbage) }
            #expect(error?.isIntegrity == true, "\(String(describing: error))")
        }
    }

    @Test func reorderedDuplicatedAndSwappedRecordsAreRejected() throws {
        let fixture = try Fixture(records: 3)
        let header = Array(fixture.bytes[..<fixture.sizes[0]])
        let (r0, r1, r2) = (fixture.frame(0), fixture.frame(1), fixture.frame(2))
        let variants: [String: [UInt8]] = [
            "swap 1 and 2 (item a and item b)": header + r0 + r2 + r1,
            "swap 0 and 1": header + r1 + r0 + r2,
            "duplicate 1": header + r0 + r1 + r1 + r2,
            "drop 1": header + r0 + r2,
            "repeat last": header + r0 + r1 + r2 + r2,
        ]
        for (name, bytes) in variants {
            let error = vaultError { _ = try fixture.open(bytes) }
            #expect(error?.isIntegrity == true, "\(name): \(String(describing: error))")
        }
        // The untouched file still opens.
        #expect(try fixture.open(fixture.bytes).allItems() == fixture.states[3])
    }

    @Test func recordsSplicedFromAnotherVaultAreRejected() throws {
        // Same key file, different vault: different file id and data key.
        let fixture = try Fixture(records: 2)
        let otherURL = fixture.dir.url.appendingPathComponent("data/other.sfv")
        let other = try Vault(at: otherURL, key: .keyFile(fixture.dir.keyFile), configuration: testConfiguration())
        try other.upsert(service: "s", account: "a", content("mallory"))
        try other.upsert(service: "s", account: "b", content("mallory"))
        let otherBytes = try fileBytes(otherURL)
        let spliced = Array(fixture.bytes[..<fixture.sizes[1]]) + Array(otherBytes[fixture.sizes[1]...])
        #expect(vaultError { _ = try fixture.open(spliced) }?.isIntegrity == true)

        // A copy of the same vault (same file id, same data key) that went its own way:
        // its records do not fit the original's history.
        try writeBytes(fixture.bytes, to: otherURL)
        let fork = try Vault(at: otherURL, key: .keyFile(fixture.dir.keyFile), configuration: testConfiguration())
        try fork.upsert(service: "s", account: "z", content("fork 1"))
        try fork.upsert(service: "s", account: "z", content("fork 2"))
        let original = try fixture.open(fixture.bytes)
        try original.upsert(service: "s", account: "y", content("orig 1"))
        try original.upsert(service: "s", account: "y", content("orig 2"))
        let forkBytes = try fileBytes(otherURL)
        let originalBytes = try fileBytes(fixture.dir.vault)
        let recordLength = (originalBytes.count - fixture.bytes.count) / 2  // two records of equal length
        let cut = originalBytes.count - recordLength
        #expect(cut > fixture.bytes.count)
        let mixed = Array(originalBytes[..<cut]) + Array(forkBytes[cut...])
        #expect(vaultError { _ = try fixture.open(mixed) }?.isIntegrity == true)
    }

    @Test func aRecordBoundToAnotherItemIsRejected() throws {
        let fixture = try Fixture(records: 1)
        // Seal, with the vault's real keys, a record whose payload says item "b" under item "a"'s tag.
        let keyBytes = try fileBytes(fixture.dir.keyFile)
        let kek = SecureBytes(keyBytes[8...])
        let (header, length) = try VaultHeader.parse(fixture.bytes[...], path: "x")
        let dataKey = try #require(
            try AEAD.open(
                header.cipher, key: kek, nonce: header.wrapNonce, sealed: header.wrappedKey,
                associatedData: header.wrapAssociatedData()))
        let codec = try RecordCodec(cipher: header.cipher, fileID: header.fileID, dataKey: SecureBytes(dataKey))
        let chain = Array(fixture.frame(0).suffix(16))
        let item = VaultItem(
            id: .init(service: "s", account: "b"), content: content("evil"), created: Date(), modified: Date())
        let forged = try codec.seal(
            .put(item), sequence: 1, chain: chain, itemTagOverride: codec.itemTag(.init(service: "s", account: "a")))
        let error = vaultError { _ = try fixture.open(fixture.bytes + forged.frame) }
        #expect(error?.isIntegrity == true)
        #expect(error?.description.contains("bound to a different item") == true)
        // The same record with its honest tag opens: the forgery failed only on the binding.
        let honest = try codec.seal(.put(item), sequence: 1, chain: chain)
        #expect(text(try fixture.open(fixture.bytes + honest.frame).get(service: "s", account: "b")) == "evil")
        _ = length
    }

    @Test func wrongKeyOrPassphraseIsOneAuthenticationError() throws {
        let fixture = try Fixture(records: 1)
        let otherKey = fixture.dir.url.appendingPathComponent("other.key")
        try writeBytes(VaultFormat.keyFileMagic + [UInt8](repeating: 7, count: 32), to: otherKey)
        let error = vaultError {
            _ = try Vault(at: fixture.dir.vault, key: .keyFile(otherKey), configuration: testConfiguration())
        }
        #expect(error == .authenticationFailed(path: fixture.dir.vault.path))

        let dir = try TemporaryDirectory()
        _ = try Vault(
            at: dir.vault, key: .passphrase(SecureBytes(Array("right horse".utf8))), configuration: testConfiguration())
        let wrong = vaultError {
            _ = try Vault(
                at: dir.vault, key: .passphrase(SecureBytes(Array("wrong horse".utf8))),
                configuration: testConfiguration())
        }
        #expect(wrong == .authenticationFailed(path: dir.vault.path))
        #expect(wrong?.description.contains("wrong key or passphrase") == true)
    }

    /// Rewrites the header checksum so a crafted header gets past it to the check under test.
    static func resealHeader(_ bytes: inout [UInt8]) throws {
        let end = VaultFormat.headerLength
        bytes.replaceSubrange((end - 32)..<end, with: try Digest.hash(.sha256, bytes[..<(end - 32)]))
    }

    static func setUInt32(_ bytes: inout [UInt8], at offset: Int, _ value: UInt32) {
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * i)) }
    }

    @Test func malformedHeadersAreRejectedWithoutAllocating() throws {
        let fixture = try Fixture(records: 1)
        var badMagic = fixture.bytes
        badMagic[0] = UInt8(ascii: "X")
        guard case .notAVault(_, let detail) = vaultError({ _ = try fixture.open(badMagic) }) else {
            Issue.record("bad magic not reported")
            return
        }
        #expect(detail == "bad magic")

        var hugeHeader = fixture.bytes
        Self.setUInt32(&hugeHeader, at: 12, 0xFFFF_FFFF)
        let headerError = vaultError { _ = try fixture.open(hugeHeader) }
        #expect(headerError?.isIntegrity == true)
        #expect(headerError?.description.contains("header length field 4294967295") == true)

        // A record frame claiming 0xFFFFFFFF bytes, with a valid frame check so the length
        // itself is what gets judged.
        var hugeRecord = fixture.bytes
        let frameStart = fixture.sizes[0]
        Self.setUInt32(&hugeRecord, at: frameStart + 4, 0xFFFF_FFFF)
        let check = try Digest.hash(.sha256, hugeRecord[frameStart..<(frameStart + 44)]).prefix(8)
        hugeRecord.replaceSubrange((frameStart + 44)..<(frameStart + 52), with: check)
        let recordError = vaultError { _ = try fixture.open(hugeRecord) }
        #expect(recordError?.isIntegrity == true)
        #expect(recordError?.description.contains("record length 4294967295") == true)

        var majorTwo = fixture.bytes
        majorTwo[8] = 2
        #expect(
            vaultError { _ = try fixture.open(majorTwo) }
                == .unsupportedVersion(path: fixture.dir.vault.path, major: 2, minor: 0))
    }

    @Test func aNewerFormatIsRefusedAndLeftUnchanged() throws {
        let fixture = try Fixture(records: 2)
        for (major, minor) in [(UInt8(1), UInt8(1)), (2, 0), (255, 255)] {
            var newer = fixture.bytes
            newer[8] = major
            newer[10] = minor
            try Self.resealHeader(&newer)
            try writeBytes(newer, to: fixture.dir.vault)
            let error = vaultError {
                _ = try Vault(
                    at: fixture.dir.vault, key: .keyFile(fixture.dir.keyFile), configuration: testConfiguration())
            }
            #expect(
                error == .unsupportedVersion(path: fixture.dir.vault.path, major: UInt16(major), minor: UInt16(minor)))
            #expect(error?.description.contains("upgrade storefront") == true)
            #expect(error?.description.contains("left unchanged") == true)
            #expect(try fileBytes(fixture.dir.vault) == newer)
        }
    }

    @Test func hostileKDFParametersAreRejectedBeforeDeriving() throws {
        let dir = try TemporaryDirectory()
        let pass = SecureBytes(Array("pass".utf8))
        _ = try Vault(at: dir.vault, key: .passphrase(pass), configuration: testConfiguration())
        let good = try fileBytes(dir.vault)
        // log2N at 34, r at 36, p at 40, maxMemory at 44.
        let cases: [(String, (inout [UInt8]) -> Void)] = [
            ("log2N", { $0[34] = 60 }),
            ("r", { Self.setUInt32(&$0, at: 36, 0xFFFF_FFFF) }),
            ("p", { Self.setUInt32(&$0, at: 40, 0xFFFF_FFFF) }),
            ("maxMemory", { for i in 44..<52 { $0[i] = 0xFF } }),
        ]
        for (field, damage) in cases {
            var hostile = good
            damage(&hostile)
            try Self.resealHeader(&hostile)
            try writeBytes(hostile, to: dir.vault)
            let error = vaultError {
                _ = try Vault(at: dir.vault, key: .passphrase(pass), configuration: testConfiguration())
            }
            guard case .kdfParametersRejected(_, let detail) = error else {
                Issue.record("\(field): expected kdfParametersRejected, got \(String(describing: error))")
                continue
            }
            #expect(detail.contains(field), "\(detail)")
        }
        // A prompt is never even consulted for hostile parameters.
        var hostile = good
        hostile[34] = 60
        try Self.resealHeader(&hostile)
        try writeBytes(hostile, to: dir.vault)
        let prompt = CountingPrompt()
        #expect(
            vaultError { _ = try Vault(at: dir.vault, key: .askPassphrase(prompt), configuration: testConfiguration()) }
                != nil)
        #expect(prompt.count == 0)
    }
}

/// A scripted passphrase prompt that records how often it was asked.
final class CountingPrompt: PassphrasePrompt, @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var asked = 0
    let answer: String

    init(answer: String = "pass") { self.answer = answer }

    var count: Int { lock.withLock { asked } }

    func passphrase(message: String) throws -> SecureBytes {
        lock.withLock { asked += 1 }
        return SecureBytes(Array(answer.utf8))
    }
}
