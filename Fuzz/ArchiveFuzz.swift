import Catalog
import Crypto
import Dispatch
import Foundation
import StoreCore
import StoreTesting
import SystemIO

@testable import LocalAppStore

// libFuzzer target for the archives beside the store journal (`make fuzz`): the compacted history
// (`history.dat` and `history-G.idx`) and the settled notifications (`outbox.dat` and
// `outbox-G.idx`) — `HistoryIndex`, `FrameArchive` (frames, lookups, making a damaged index
// again), `JournalHistory` and `NotificationArchive` over them. Built against the package's
// modules compiled with `-sanitize=fuzzer,address -enable-testing` (Makefile).
//
// The stores are real, each the state directory of a store that bought and finished a few
// hundred things and delivered their notifications (PROVENANCE.md beside each):
// Fuzz/seeds/archive/ as the last build of journal version 5 left it (one index of each whole
// archive, index version 2), and Fuzz/seeds/archive-v6/ as this build leaves it (the indexes as
// runs; made again by `make fuzz-file-stores`, which runs this binary with
// ARCHIVE_FUZZ_MAKE_STORE=DIR). Each run writes one of them to /dev/shm with one of its archive
// files replaced by the input, opens it with `StoreJournal` and asks both archives everything
// they answer.
//
// An input is one selector byte, then the file:
// - bits 0-1: the file replaced: 0 `history-G.idx`, 1 `history.dat`, 2 `outbox-G.idx`, 3 `outbox.dat`;
// - bits 5-6: which run of the index (its files in the order of their generations, wrapping);
// - bit 7: the store: 0 the version 5 one, 1 the version 6 one;
// - bit 2: reseal: the harness recomputes the file's checks (an index's header and page SHA-256,
//   each frame's), so what lies behind them is fuzzed too (a file damaged consistently);
// - bit 3: open the store read-only;
// - bit 4: the 16 bytes after the selector replace the journal header's `historyEnd` and
//   `outboxEnd` (little-endian), then the file follows.
//
// Invariants: opening either succeeds or throws a `LocalAppStoreError` naming a file of the
// directory; so does every failure a lookup keeps (`failure`). Without reseal or new ends, the
// archives never answer wrong data: when neither kept a failure, every answer is the real
// store's (a damaged index is made again from its data file, a damaged frame is a failure).
// Opened read-only, the store writes nothing: every file is as the run wrote it.

@_cdecl("LLVMFuzzerInitialize")
public func archiveFuzzInitialize(
    _ argc: UnsafeMutablePointer<Int32>?,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> Int32 {
    if let directory = ProcessInfo.processInfo.environment["ARCHIVE_FUZZ_MAKE_STORE"] {
        ArchiveStoreMaker.make(in: directory)
        exit(0)
    }
    _ = ArchiveHarness.shared
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func archiveFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let data, count > 0 else { return 0 }
    ArchiveHarness.shared.run(Array(UnsafeBufferPointer(start: data, count: count)))
    return 0
}

/// What one run asks the archives, and the answers (compared with the real store's).
private struct Answers: Equatable {
    var historyIDs: [UInt64] = []
    var historyCount = 0
    var entries: [QueueEntry?] = []
    var byRequest: [QueueEntry?] = []
    var grants: [[QueueEntry]] = []
    var ranked: [UInt64?] = []
    var ranks: [Int] = []
    var restorable: [String] = []
    var digest: TransactionDigest = TransactionDigest()
    /// `frames(from:)` throws (it is not a lookup): its answer, or its error's text.
    var frames: Result<[QueueEntry], Failure> = .success([])
    var outboxCount = 0
    var notifications: [ArchivedNotification] = []
    var byPosition: [StoredNotification?] = []
    var byUUID: [ArchivedNotification?] = []
    var byToken: [StoredNotification?] = []
    var notified: [Bool] = []
    var outboxFrames: Result<[ArchivedNotification], Failure> = .success([])

    struct Failure: Error, Equatable {
        let text: String
    }

    /// What failed: the archives' kept failures and the errors `frames(from:)` threw.
    func failures(_ journal: StoreJournal) -> [String] {
        var failures = [journal.state.history?.failure, journal.state.notifications.archive?.failure].compactMap {
            $0.map { "\($0)" }
        }
        if case .failure(let error) = frames { failures.append(error.text) }
        if case .failure(let error) = outboxFrames { failures.append(error.text) }
        return failures
    }
}

/// `body`'s answer, or what it threw as text.
private func answer<T>(_ body: () throws -> T) -> Result<T, Answers.Failure> {
    do { return .success(try body()) } catch { return .failure(Answers.Failure(text: "\(error)")) }
}

/// One seed store: its files, what it answers, and what the runs ask about.
private struct SeedStore {
    /// The store's files, by name.
    var files: [(name: String, bytes: [UInt8])] = []
    /// What the real store answers.
    var truth = Answers()
    /// What the runs ask about: a spread of the history's IDs and the outbox's notifications.
    var sampleIDs: [QueueEntry] = []
    var sampleNotifications: [ArchivedNotification] = []
    /// Where the last few frames of each data file start (`frames(from:)` is asked for those:
    /// decoding every frame each run would be most of its time).
    var historyTail: UInt64 = 0
    var outboxTail: UInt64 = 0

    /// The files of an archive's index runs, in the order of their generations.
    func runs(_ prefix: String) -> [String] {
        files.map(\.name).filter { $0.hasPrefix(prefix) && $0.hasSuffix(".idx") }.sorted {
            (UInt64($0.dropFirst(prefix.count).dropLast(4)) ?? 0)
                < (UInt64($1.dropFirst(prefix.count).dropLast(4)) ?? 0)
        }
    }
}

private final class ArchiveHarness: @unchecked Sendable {
    static let shared = ArchiveHarness()

    /// The version 5 store and the version 6 one.
    var stores: [SeedStore] = []
    /// The store a run uses.
    var store = 0
    let directory: String
    let account = StoreAccount.localTester.id
    let fs = POSIXFileSystem()

    var truth: Answers { stores[store].truth }
    var sampleIDs: [QueueEntry] { stores[store].sampleIDs }
    var sampleNotifications: [ArchivedNotification] { stores[store].sampleNotifications }
    var historyTail: UInt64 { stores[store].historyTail }
    var outboxTail: UInt64 { stores[store].outboxTail }
    var files: [(name: String, bytes: [UInt8])] { stores[store].files }

    private init() {
        let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        directory = base + "/storefront-archive-fuzz-\(getpid())"
        try? FileManager.default.removeItem(atPath: directory)
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        archiveFuzzPath = directory
        atexit { if let path = archiveFuzzPath { try? FileManager.default.removeItem(atPath: path) } }
        let environment = ProcessInfo.processInfo.environment
        for source in [
            environment["ARCHIVE_FUZZ_STORE"] ?? "Fuzz/seeds/archive",
            environment["ARCHIVE_FUZZ_STORE_V6"] ?? "Fuzz/seeds/archive-v6",
        ] {
            stores.append(load(source))
            store = stores.count - 1
            stores[store].truth = real()
        }
    }

    /// A seed store's files and samples.
    private func load(_ source: String) -> SeedStore {
        var seed = SeedStore()
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: source)) ?? []).filter {
            $0 == "journal.jsonl" || $0.hasSuffix(".dat") || $0.hasSuffix(".idx")
        }.sorted()
        seed.files = names.map { ($0, Array(FileManager.default.contents(atPath: source + "/" + $0) ?? Data())) }
        guard names.contains("journal.jsonl"), names.contains("history.dat"), names.contains("outbox.dat") else {
            fatalError("archive fuzz: no store in \(source) (run from the repository, or set ARCHIVE_FUZZ_STORE)")
        }
        return seed
    }

    /// The real answers of the store `store`, as it is; its samples set on the way.
    private func real() -> Answers {
        writeStore(replacing: nil, with: [])
        let journal: StoreJournal
        do {
            journal = try StoreJournal(
                directory: directory, initialSettings: LocalStoreSettings(), metrics: StoreMetrics(), syncsWrites: false
            )
        } catch {
            fatalError("archive fuzz: the seed store does not open: \(error)")
        }
        guard let history = journal.state.history, let outbox = journal.state.notifications.archive, history.count > 0,
            outbox.count > 0
        else {
            fatalError("archive fuzz: the seed store has no history or no outbox archive")
        }
        let all = history.entries()
        stores[store].sampleIDs =
            stride(from: 0, to: all.count, by: max(1, all.count / 7)).map { all[$0] } + [all[all.count - 1]]
        let notifications = outbox.items()
        stores[store].sampleNotifications =
            stride(from: 0, to: notifications.count, by: max(1, notifications.count / 5)).map { notifications[$0] }
            + [notifications[notifications.count - 1]]
        do {
            guard let historyTail = try history.index.latest(UInt64(all[all.count - 20].id)!)?.value,
                let outboxTail = try outbox.index.latest(notifications[notifications.count - 3].position)?.value
            else { fatalError("archive fuzz: the seed store's indexes miss their items") }
            stores[store].historyTail = historyTail
            stores[store].outboxTail = outboxTail
        } catch {
            fatalError("archive fuzz: the seed store's indexes fail: \(error)")
        }
        let truth = ask(journal)
        guard truth.failures(journal).isEmpty else {
            fatalError("archive fuzz: the seed store's archives fail: \(truth.failures(journal))")
        }
        return truth
    }

    func run(_ input: [UInt8]) {
        let selector = input[0]
        store = Int(selector >> 7)
        let target = ["history", "history.dat", "outbox", "outbox.dat"][Int(selector & 3)]
        let reseal = selector & 4 != 0
        let readOnly = selector & 8 != 0
        let newEnds = selector & 16 != 0
        var file = Array(input[1...])
        var ends: (UInt64, UInt64)?
        if newEnds {
            let raw = file.prefix(16) + [UInt8](repeating: 0, count: max(0, 16 - file.count))
            let words = raw.withUnsafeBytes {
                (
                    $0.loadUnaligned(fromByteOffset: 0, as: UInt64.self),
                    $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
                )
            }
            ends = (UInt64(littleEndian: words.0), UInt64(littleEndian: words.1))
            file = Array(file.dropFirst(16))
        }
        let runs = stores[store].runs(target + "-")
        guard
            let name = target.hasSuffix(".dat")
                ? target : runs.isEmpty ? nil : runs[Int(selector >> 5 & 3) % runs.count]
        else { return }
        if reseal { file = name.hasSuffix(".idx") ? Reseal.index(file) : Reseal.frames(file) }
        writeStore(replacing: name, with: file, ends: ends)
        let written = readOnly ? snapshot() : [:]

        let journal: StoreJournal
        do {
            journal = try StoreJournal(
                directory: directory, initialSettings: LocalStoreSettings(), metrics: StoreMetrics(),
                syncsWrites: false, readOnly: readOnly)
        } catch {
            check("\(error)".contains(directory), "an open failure that names no file of the store: \(error)")
            if readOnly { check(snapshot() == written, "a read-only open wrote to the store (\(name))") }
            return
        }
        let answers = ask(journal)
        let failures = answers.failures(journal)
        for failure in failures {
            check(failure.contains(directory), "a lookup failure that names no file of the store: \(failure)")
        }
        if !reseal, ends == nil {
            if failures.isEmpty {
                check(answers == truth, "wrong answers from a damaged \(name) (\(difference(answers)))")
            }
            if name.hasSuffix(".idx"), !readOnly {
                // Only an index was damaged: it is made again from the intact data file (a
                // read-only store may only say so).
                check(failures.isEmpty, "a damaged \(name) over an intact archive failed: \(failures)")
            }
        }
        if readOnly {
            let after = snapshot()
            let changed = Set(after.keys).union(written.keys).filter { after[$0] != written[$0] }.sorted()
            check(changed.isEmpty, "a read-only store wrote \(changed) (\(name) replaced)")
        }
    }

    /// Everything the archives answer about the samples.
    func ask(_ journal: StoreJournal) -> Answers {
        var a = Answers()
        if let h = journal.state.history {
            a.historyIDs = h.identifiers()
            a.historyCount = h.count
            a.entries = sampleIDs.map { h.entry(id: $0.id) } + [h.entry(id: "1"), h.entry(id: "18446744073709551615")]
            a.byRequest = sampleIDs.map { h.entry(requestID: $0.transaction.payment.requestID) }
            a.grants = sampleIDs.map {
                h.entries(grantKey: JournalState.grantKey(accountID: $0.accountID, transaction: $0.transaction))
            }
            a.ranked = [0, 1, h.count / 2, h.count - 1, h.count, -1].map { h.identifier(at: $0) }
            a.ranks =
                sampleIDs.compactMap { UInt64($0.id) }.flatMap { [h.rank(of: $0), h.rank(of: $0 &+ 1)] } + [
                    h.rank(of: 0), h.rank(of: .max),
                ]
            a.restorable = h.entries(where: { $0.restorable(in: .sync) }).map(\.id)
            a.digest = h.finishedDigest(accountID: account)
            a.frames = answer { try h.frames(from: historyTail) }
        }
        if let o = journal.state.notifications.archive {
            a.outboxCount = o.count
            a.notifications = o.items()
            a.byPosition = sampleNotifications.map { o.notification(at: $0.position) } + [o.notification(at: .max)]
            a.byUUID =
                sampleNotifications.map { o.notification(uuid: $0.notification.notificationUUID) } + [
                    o.notification(uuid: "nobody")
                ]
            a.byToken = sampleNotifications.map { n in
                n.notification.testNotificationToken.flatMap { o.notification(token: $0) }
            }
            a.notified = sampleNotifications.map { n in
                n.notification.eventKey.map { o.hasNotified(eventKey: $0) } ?? false
            }
            a.outboxFrames = answer { try o.frames(from: outboxTail) }
        }
        return a
    }

    /// What differs from the truth, for a message.
    func difference(_ a: Answers) -> String {
        let mirror = Mirror(reflecting: a)
        let real = Mirror(reflecting: truth)
        return zip(mirror.children, real.children).filter { "\($0.value)" != "\($1.value)" }.compactMap(\.0.label)
            .joined(separator: ", ")
    }

    /// Empties the directory and writes the store's files, `name` replaced by `bytes`, the
    /// journal header's ends by `ends`.
    func writeStore(replacing name: String?, with bytes: [UInt8], ends: (UInt64, UInt64)? = nil) {
        for existing in (try? fs.contentsOfDirectory(directory)) ?? [] {
            let path = directory + "/" + existing
            do { try fs.removeFile(path) } catch { try? FileManager.default.removeItem(atPath: path) }
        }
        for (fileName, original) in files {
            var content = fileName == name ? bytes : original
            if fileName == "journal.jsonl", let ends {
                content = Self.journal(content, historyEnd: ends.0, outboxEnd: ends.1)
            }
            do {
                let file = try fs.open(directory + "/" + fileName, [.write, .create, .truncate], mode: 0o600)
                defer { fs.close(file) }
                try fs.write(file, content[...])
            } catch {
                fatalError("archive fuzz: cannot write \(fileName) in \(directory): \(error)")
            }
        }
    }

    /// The journal with its header's `historyEnd` and `outboxEnd` replaced.
    static func journal(_ bytes: [UInt8], historyEnd: UInt64, outboxEnd: UInt64) -> [UInt8] {
        guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")),
            var header = try? JSONSerialization.jsonObject(with: Data(bytes[..<newline])) as? [String: Any]
        else { return bytes }
        header["historyEnd"] = NSNumber(value: historyEnd)
        header["outboxEnd"] = NSNumber(value: outboxEnd)
        guard let line = try? JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]) else {
            return bytes
        }
        return Array(line) + bytes[newline...]
    }

    /// Every file of the directory and its bytes.
    func snapshot() -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in (try? fs.contentsOfDirectory(directory)) ?? [] where name != "store.lock" {
            files[name] = FileManager.default.contents(atPath: directory + "/" + name).map(Array.init) ?? []
        }
        return files
    }
}

/// The checks of a fuzzed file made to hold again, so that the readers behind them are fuzzed.
private enum Reseal {
    /// An index: the header's SHA-256 (over its fixed part, first keys and, from version 3,
    /// ranks), then every whole page's (over the generation, the page's number and its body),
    /// as `HistoryIndex.write` makes them.
    static func index(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        guard bytes.count >= 12 else { return bytes }
        var v = HistoryIndex.Reader(bytes, at: 8)
        let version = v.uint16()
        let fixed = HistoryIndex.fixedHeaderLength(version: version)
        guard bytes.count >= fixed else { return bytes }
        var r = HistoryIndex.Reader(bytes, at: 12)
        let generation = r.uint64()
        _ = r.uint64()
        if version >= 3 { _ = r.uint64() }
        var pages: [Int] = []
        for _ in 0..<HistoryIndex.Table.count {
            pages.append(Int(r.uint32()))
            _ = r.uint32()
        }
        let listsEnd = fixed + pages.reduce(0, +) * 8 + (version >= 3 ? (pages[0] + 1) * 8 : 0)
        guard listsEnd + 32 <= bytes.count else { return bytes }
        let digest = (try? Digest.hash(.sha256, Array(bytes[..<listsEnd]))) ?? []
        bytes.replaceSubrange(listsEnd..<(listsEnd + 32), with: digest)
        let size = HistoryIndex.pageSize
        var start = (listsEnd + 32 + size - 1) / size * size
        for (table, count) in pages.enumerated() {
            for page in 0..<count {
                guard start + size <= bytes.count else { return bytes }
                var w = HistoryIndex.Writer()
                w.uint64(generation)
                w.uint32(UInt32(truncatingIfNeeded: table << 24 | page))
                let check = (try? Digest.hash(.sha256, w.bytes + bytes[start..<(start + size - 32)])) ?? []
                bytes.replaceSubrange((start + size - 32)..<(start + size), with: check)
                start += size
            }
        }
        return bytes
    }

    /// A data file: each whole frame's check (the first 8 bytes of its payload's SHA-256).
    static func frames(_ input: [UInt8]) -> [UInt8] {
        var bytes = input
        var position = 16
        while position + 12 <= bytes.count {
            var r = HistoryIndex.Reader(bytes, at: position)
            let length = Int(r.uint32())
            guard length <= bytes.count - position - 12 else { break }
            let check = (try? Digest.hash(.sha256, Array(bytes[(position + 12)..<(position + 12 + length)]))) ?? []
            bytes.replaceSubrange((position + 4)..<(position + 12), with: check.prefix(8))
            position += 12 + length
        }
        return bytes
    }
}

/// Makes the seed store (`make fuzz-file-stores`): a real LocalAppStore that imports
/// `ARCHIVE_FUZZ_IMPORTED` (200) purchases, then buys and finishes `ARCHIVE_FUZZ_PURCHASES`
/// (100) products, the last `ARCHIVE_FUZZ_NOTIFIED` (12) with
/// `notification-url` set, each of their notifications delivered with its signed payload as
/// the sender records it; compaction moves them to `history.dat` and `outbox.dat` as it would.
private enum ArchiveStoreMaker {
    static func make(in directory: String) {
        let environment = ProcessInfo.processInfo.environment
        let imported = environment["ARCHIVE_FUZZ_IMPORTED"].flatMap(Int.init) ?? 200
        let purchases = environment["ARCHIVE_FUZZ_PURCHASES"].flatMap(Int.init) ?? 100
        let notified = environment["ARCHIVE_FUZZ_NOTIFIED"].flatMap(Int.init) ?? 12
        let data = URL(fileURLWithPath: directory + "-data")
        try? FileManager.default.removeItem(at: data)
        wait {
            let store = try LocalAppStore(
                configuration: LocalAppStoreConfiguration(
                    catalog: try StoreKitConfiguration.decode(
                        data: Data(FuzzStore.catalogJSON.utf8), file: "Fuzz.storekit"),
                    stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: data),
                    clock: ManualClock(), initialLatencyMilliseconds: 0
                ).syncing(false))
            let products = ["com.test.coins", "com.test.gems", "com.test.coins", "com.test.hints"]
            // A history imported first is the index's first run, large beside the runs the
            // purchases' compactions write after it (so the store has several).
            try await store.transactionManager.importHistory(
                (0..<imported).map { n in
                    let product = products[n % products.count]
                    return Transaction(
                        transactionID: "imported-\(n)", productID: product, productType: .consumable,
                        payment: Payment(productID: product), state: .purchased,
                        purchaseDate: Date(timeIntervalSince1970: 1_700_000_000 + Double(n)),
                        price: Decimal(string: "0.99"), currencyCode: "USD", storefront: "USA")
                }, signing: false)
            for n in 0..<purchases {
                if n == purchases - notified {
                    try await store.settings.set(name: "notification-url", value: "http://127.0.0.1:9/notifications")
                }
                let product = n == 3 ? "com.test.pro" : n == 5 ? "com.test.plus.monthly" : products[n % products.count]
                try await FuzzStore.buy(product, in: store)
                for due in try await store.notifications.due(by: .distantFuture).due {
                    try await store.notifications.recordAttempt(
                        due.notificationUUID,
                        SendAttemptItem(
                            attemptDate: Date(timeIntervalSince1970: 1_800_000_000 + Double(n)),
                            sendAttemptResult: .success),
                        signedPayload: try await store.notifications.signedPayload(of: due))
                }
            }
            _ = try await store.notifications.requestTest()
            for due in try await store.notifications.due(by: .distantFuture).due {
                try await store.notifications.recordAttempt(
                    due.notificationUUID,
                    SendAttemptItem(
                        attemptDate: Date(timeIntervalSince1970: 1_900_000_000), sendAttemptResult: .success),
                    signedPayload: try await store.notifications.signedPayload(of: due))
            }
        }
        let state = LocalAppStoreConfiguration.stateDirectory(inDataDirectory: data).path
        // One compaction more, so that the journal is short (each run reads it) and the
        // archives hold everything; the index runs kept are the ones its header names.
        let names: [String]
        do {
            let journal = try StoreJournal(
                directory: state, initialSettings: LocalStoreSettings(), metrics: StoreMetrics(), syncsWrites: false)
            try journal.withLock { () throws(LocalAppStoreError) in try journal.compact() }
            guard let history = journal.state.history, let outbox = journal.state.notifications.archive,
                history.runs.count > 1
            else {
                fatalError("archive fuzz: the store made has no history, no outbox archive, or one history run")
            }
            names =
                ["journal.jsonl", "history.dat", "outbox.dat"] + history.runs.map { "history-\($0.generation).idx" }
                + outbox.runs.map { "outbox-\($0.generation).idx" }
        } catch {
            fatalError("archive fuzz: cannot compact the store made: \(error)")
        }
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where name.hasSuffix(".idx")
        {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
        }
        for name in names {
            try? FileManager.default.removeItem(atPath: directory + "/" + name)
            do { try FileManager.default.copyItem(atPath: state + "/" + name, toPath: directory + "/" + name) } catch {
                fatalError("archive fuzz: cannot copy \(name): \(error)")
            }
        }
        try? FileManager.default.removeItem(at: data)
    }

    /// Runs `body` to its end on the concurrency pool, blocking this thread.
    static func wait(_ body: @escaping @Sendable () async throws -> Void) {
        let done = DispatchSemaphore(value: 0)
        let failure = FailureBox()
        Task {
            do { try await body() } catch { failure.error = "\(error)" }
            done.signal()
        }
        done.wait()
        if let error = failure.error { fatalError("archive fuzz: making the store failed: \(error)") }
    }

    private final class FailureBox: @unchecked Sendable {
        var error: String?
    }
}

nonisolated(unsafe) private var archiveFuzzPath: String?

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("archive fuzz invariant broken: \(message())") }
}
