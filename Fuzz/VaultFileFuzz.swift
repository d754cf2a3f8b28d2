import Crypto
import Foundation
import StoreTesting
import SystemIO

@testable import Vault

// libFuzzer target for the vault's files (`make fuzz`): its index (`NAME.idx`, `VaultIndex`: the
// header, its pages, the records they name read through `IndexedRecordReader`) and the vault file
// itself (the header, the key slot and the log of sealed records, `VaultStore`'s reader). Built
// against the package's modules compiled with `-sanitize=fuzzer,address -enable-testing`.
//
// The vault is real: Fuzz/seeds/vault-file/ holds one made by the real code (PROVENANCE.md; made
// again by `make fuzz-vault-file-store`, which runs this binary with VAULT_FUZZ_MAKE_STORE=DIR),
// with its key file. Each run writes the three files to /dev/shm, one replaced by the input, opens
// the vault and reads every item (listed, one by one, as views, all of them, its status).
//
// An input is one selector byte, then the file:
// - bit 0: the file replaced: 0 `vault.sfv.idx`, 1 `vault.sfv`;
// - bit 2: reseal: the harness recomputes an index's MACs (header and pages, under the vault's
//   index key), so what lies behind them is fuzzed too;
// - bit 3: open the vault read-only.
//
// Invariants: opening and every read either answer or throw a `VaultError` naming the vault
// (its path is in the message). An index is only a cache: when only it was damaged (no reseal),
// every answer is the real vault's and nothing fails. Read-only, nothing is written.

@_cdecl("LLVMFuzzerInitialize")
public func vaultFileFuzzInitialize(
    _ argc: UnsafeMutablePointer<Int32>?,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> Int32 {
    if let directory = ProcessInfo.processInfo.environment["VAULT_FUZZ_MAKE_STORE"] {
        VaultFileMaker.make(in: directory)
        exit(0)
    }
    _ = VaultFileHarness.shared
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func vaultFileFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let data, count > 0 else { return 0 }
    VaultFileHarness.shared.run(Array(UnsafeBufferPointer(start: data, count: count)))
    return 0
}

/// The vault's thresholds: small, so that a vault of a few hundred records has an index and a tail.
private func vaultFuzzConfiguration(readOnly: Bool = false) -> VaultConfiguration {
    VaultConfiguration(clock: ManualClock(), indexMinimumRecords: 64, indexTailRecords: 32, readOnly: readOnly)
}

private let vaultFuzzServices = ["storefront.purchases", "storefront.settings"]

/// An item as compared: its bytes as an array (the harness keeps the real vault's answers for
/// the whole run, and LeakSanitizer cannot follow a `Data`'s storage through its tagged pointer).
private struct ItemAnswer: Hashable {
    var id: VaultItem.ID
    var data: [UInt8]
    var label: String
    var attributes: [String: String]
    var created: Date
    var modified: Date

    init(_ item: VaultItem) {
        (id, data, label, attributes, created, modified) = (
            item.id, Array(item.data), item.label, item.attributes, item.created, item.modified
        )
    }
}

/// What a run reads.
private struct VaultAnswers: Equatable {
    var listed: [[ItemAnswer]] = []
    var viewed: [[String]] = []
    var got: [ItemAnswer?] = []
    var all: [ItemAnswer] = []
    var status: VaultStatus?
}

private final class VaultFileHarness: @unchecked Sendable {
    static let shared = VaultFileHarness()

    let files: [(name: String, bytes: [UInt8])]
    let directory: String
    let fs = POSIXFileSystem()
    var truth = VaultAnswers()
    var samples: [VaultItem.ID] = []
    /// The vault's index key (to reseal), from the real vault opened once.
    var codec: RecordCodec?

    private init() {
        let source = ProcessInfo.processInfo.environment["VAULT_FUZZ_STORE"] ?? "Fuzz/seeds/vault-file"
        files = ["vault.key", "vault.sfv", "vault.sfv.idx"].map {
            ($0, Array(FileManager.default.contents(atPath: source + "/" + $0) ?? Data()))
        }
        guard !files.contains(where: { $0.bytes.isEmpty }) else {
            fatalError("vault fuzz: no vault in \(source) (run from the repository, or set VAULT_FUZZ_STORE)")
        }
        let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        directory = base + "/storefront-vault-file-fuzz-\(getpid())"
        try? FileManager.default.removeItem(atPath: directory)
        try? FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        vaultFileFuzzPath = directory
        atexit { if let path = vaultFileFuzzPath { try? FileManager.default.removeItem(atPath: path) } }
        writeFiles(replacing: nil, with: [])
        do {
            let store = try VaultStore(
                path: directory + "/vault.sfv", key: key, configuration: vaultFuzzConfiguration(readOnly: true))
            codec = store.codec
            guard store.index != nil else { fatalError("vault fuzz: the seed vault opened without its index") }
        } catch {
            fatalError("vault fuzz: the seed vault does not open: \(error)")
        }
        let vault: Vault
        do {
            vault = try Vault(
                at: URL(fileURLWithPath: directory + "/vault.sfv"), key: key,
                configuration: vaultFuzzConfiguration(readOnly: true))
            let all = try vault.allItems()
            let spread: [VaultItem.ID] = stride(from: 0, to: all.count, by: max(1, all.count / 9)).map { all[$0].id }
            samples = spread + [all[all.count - 1].id, VaultItem.ID(service: vaultFuzzServices[0], account: "nobody")]
        } catch {
            fatalError("vault fuzz: the seed vault cannot be read: \(error)")
        }
        guard let answers = try? ask(vault) else { fatalError("vault fuzz: the seed vault cannot be read") }
        truth = answers
    }

    var key: VaultKey { .keyFile(URL(fileURLWithPath: directory + "/vault.key")) }

    func run(_ input: [UInt8]) {
        let selector = input[0]
        let name = selector & 1 == 0 ? "vault.sfv.idx" : "vault.sfv"
        let reseal = selector & 4 != 0
        let readOnly = selector & 8 != 0
        var file = Array(input[1...])
        if reseal, name.hasSuffix(".idx"), let codec { file = Self.resealIndex(file, codec: codec) }
        writeFiles(replacing: name, with: file)
        let written = readOnly ? snapshot() : [:]
        let vaultPath = directory + "/vault.sfv"
        var failure: (any Error)?
        var answers: VaultAnswers?
        do {
            let vault = try Vault(
                at: URL(fileURLWithPath: vaultPath), key: key, configuration: vaultFuzzConfiguration(readOnly: readOnly)
            )
            answers = try ask(vault)
        } catch {
            failure = error
        }
        if let failure {
            check(failure is VaultError, "a failure that is not a VaultError: \(failure)")
            check("\(failure)".contains(directory), "a failure that names no file of the vault: \(failure)")
        }
        if name.hasSuffix(".idx"), !reseal {
            check(failure == nil, "a damaged index failed the vault: \(failure.map { "\($0)" } ?? "")")
            check(answers == truth, "a damaged index changed what the vault answers")
        }
        if readOnly {
            let after = snapshot()
            let changed = Set(after.keys).union(written.keys).filter { after[$0] != written[$0] }.sorted()
            check(changed.isEmpty, "a read-only vault wrote \(changed) (\(name) replaced)")
        }
    }

    func ask(_ vault: Vault) throws -> VaultAnswers {
        var a = VaultAnswers()
        a.listed = try vaultFuzzServices.map { try vault.items(service: $0).map(ItemAnswer.init) }
        a.viewed = try vaultFuzzServices.map { service in
            var accounts: [String] = []
            try vault.forEachItemView(service: service) { accounts.append($0.account) }
            return accounts.sorted()
        }
        a.got = try samples.map { try vault.get(service: $0.service, account: $0.account).map(ItemAnswer.init) }
        a.all = try vault.allItems().map(ItemAnswer.init)
        a.status = try vault.status()
        return a
    }

    func writeFiles(replacing name: String?, with bytes: [UInt8]) {
        for existing in (try? fs.contentsOfDirectory(directory)) ?? [] {
            let path = directory + "/" + existing
            do { try fs.removeFile(path) } catch { try? FileManager.default.removeItem(atPath: path) }
        }
        for (fileName, original) in files {
            do {
                let file = try fs.open(directory + "/" + fileName, [.write, .create, .truncate], mode: 0o600)
                defer { fs.close(file) }
                try fs.write(file, (fileName == name ? bytes : original)[...])
            } catch {
                fatalError("vault fuzz: cannot write \(fileName) in \(directory): \(error)")
            }
        }
    }

    func snapshot() -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in (try? fs.contentsOfDirectory(directory)) ?? [] {
            files[name] = FileManager.default.contents(atPath: directory + "/" + name).map(Array.init) ?? []
        }
        return files
    }

    /// An index with its header's and pages' MACs made again, as `VaultIndex.write` makes them.
    static func resealIndex(_ input: [UInt8], codec: RecordCodec) -> [UInt8] {
        var bytes = input
        let fixed = VaultIndex.fixedHeaderLength
        guard bytes.count >= fixed else { return bytes }
        let pageCount = Int(bytes[12]) | Int(bytes[13]) << 8 | Int(bytes[14]) << 16 | Int(bytes[15]) << 24
        let headerLength = fixed + pageCount * 16 + 32
        guard headerLength <= bytes.count,
            let mac = try? codec.indexMACKey.authenticate(Array(bytes[..<(headerLength - 32)]))
        else { return bytes }
        bytes.replaceSubrange((headerLength - 32)..<headerLength, with: mac)
        let indexID = Array(bytes[80..<96])
        let size = VaultIndex.pageSize
        var start = (headerLength + size - 1) / size * size
        for page in 0..<pageCount {
            guard start + size <= bytes.count else { break }
            var w = ByteWriter(capacity: size + 20)
            w.append(indexID)
            w.uint32(UInt32(truncatingIfNeeded: page))
            w.append(Array(bytes[start..<(start + size - 16)]))
            guard let pageMAC = try? codec.indexMACKey.authenticate(w.bytes) else { break }
            bytes.replaceSubrange((start + size - 16)..<(start + size), with: pageMAC.prefix(16))
            start += size
        }
        return bytes
    }
}

/// Makes the seed vault (`make fuzz-vault-file-store`): 300 purchases and a few settings written
/// through `Vault` one change at a time, some updated and some deleted, so that it has an index
/// and records after it.
private enum VaultFileMaker {
    static func make(in directory: String) {
        let work = directory + "-work"
        try? FileManager.default.removeItem(atPath: work)
        do {
            try FileManager.default.createDirectory(
                atPath: work, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let vault = try Vault(
                at: URL(fileURLWithPath: work + "/vault.sfv"), key: .keyFile(URL(fileURLWithPath: work + "/vault.key")),
                configuration: vaultFuzzConfiguration())
            for n in 0..<300 {
                let content = VaultItemContent(
                    data: Data(
                        "{\"transactionID\":\"\(2_000_000_000_000_001 + n)\",\"productID\":\"com.test.coins\"}".utf8),
                    label: "purchase \(n)", attributes: n % 3 == 0 ? ["kind": "consumable"] : [:])
                try vault.upsert(service: vaultFuzzServices[0], account: "\(2_000_000_000_000_001 + n)", content)
                if n % 10 == 0 {
                    try vault.upsert(
                        service: vaultFuzzServices[1], account: "setting-\(n % 40)",
                        VaultItemContent(data: Data("\(n)".utf8)))
                }
                if n % 17 == 16 {
                    try vault.delete(service: vaultFuzzServices[0], account: "\(2_000_000_000_000_001 + n - 5)")
                }
            }
        } catch {
            fatalError("vault fuzz: making the vault failed: \(error)")
        }
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in ["vault.key", "vault.sfv", "vault.sfv.idx"] {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
            do { try FileManager.default.copyItem(atPath: work + "/" + name, toPath: directory + "/" + name) } catch {
                fatalError("vault fuzz: cannot copy \(name): \(error)")
            }
        }
        try? FileManager.default.removeItem(atPath: work)
    }
}

nonisolated(unsafe) private var vaultFileFuzzPath: String?

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("vault file fuzz invariant broken: \(message())") }
}
