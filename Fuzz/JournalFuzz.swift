import Foundation
import SystemIO

@testable import LocalAppStore

// libFuzzer target for the store journal reader (`make fuzz`): the input is written as a state
// directory's `journal.jsonl` and opened the way the store opens it (`StoreJournal`: the header,
// each JSON line decoded as a `JournalRecord` and applied to the state, torn tails cut, a long
// journal compacted). Built against the package's modules compiled with
// `-sanitize=fuzzer,address -enable-testing` (Makefile).
//
// Invariant: opening is idempotent. When the first open succeeds (it may cut a torn tail or
// compact), a second open of the same directory succeeds too and reads the same state: every
// entry, the next transaction ID and the settings.

@_cdecl("LLVMFuzzerTestOneInput")
public func journalFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    guard let data else { return 0 }
    let directory = JournalFuzzDirectory.shared.path
    // The directory emptied and the input written through the file layer the store uses (a few
    // system calls on /dev/shm; Foundation's FileManager took a fifth of each run).
    let fs = POSIXFileSystem()
    for name in (try? fs.contentsOfDirectory(directory)) ?? [] {
        let path = directory + "/" + name
        do { try fs.removeFile(path) } catch { try? FileManager.default.removeItem(atPath: path) }
    }
    do {
        let file = try fs.open(directory + "/journal.jsonl", [.write, .create, .truncate], mode: 0o600)
        defer { fs.close(file) }
        try fs.write(file, Array(UnsafeBufferPointer(start: data, count: count))[...])
    } catch {
        fatalError("cannot write the fuzz journal in \(directory): \(error)")
    }
    let first: StoreJournal
    do {
        first = try StoreJournal(
            directory: directory, initialSettings: LocalStoreSettings(), metrics: StoreMetrics(), syncsWrites: false)
    } catch {
        check(!"\(error)".isEmpty, "an error without a message")
        return 0
    }
    let ids = first.state.freshOrder + Array(first.state.recent.keys)
    let second: StoreJournal
    do {
        second = try StoreJournal(
            directory: directory, initialSettings: LocalStoreSettings(), metrics: StoreMetrics(), syncsWrites: false)
    } catch {
        fatalError("a journal that opened does not open again: \(error)")
    }
    for id in ids {
        check(first.state.entries[id] == second.state.entries[id], "entry \(id) differs after reopening")
    }
    check(
        first.state.nextTransactionID == second.state.nextTransactionID,
        "the next transaction ID moved from \(first.state.nextTransactionID) to \(second.state.nextTransactionID)")
    check(first.state.settings == second.state.settings, "the settings changed after reopening")
    return 0
}

/// The directory the journals are written to: one per process, removed at exit.
private final class JournalFuzzDirectory: Sendable {
    static let shared = JournalFuzzDirectory()
    let path: String

    private init() {
        let base = FileManager.default.isWritableFile(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        path = base + "/storefront-journal-fuzz-\(getpid())"
        try? FileManager.default.removeItem(atPath: path)
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        journalFuzzPath = path
        atexit { if let path = journalFuzzPath { try? FileManager.default.removeItem(atPath: path) } }
    }
}

nonisolated(unsafe) private var journalFuzzPath: String?

private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fatalError("journal fuzz invariant broken: \(message())") }
}
