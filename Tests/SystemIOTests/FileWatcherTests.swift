import Foundation
import StoreTesting
import TestSupport
import Testing

@testable import SystemIO

/// The file watchers with real files changed by real child processes: inotify wakes its
/// consumer for what another process writes, renames into place or leaves by ending, and only
/// for the entries and changes asked for; the polling fallback looks on an injected clock.
/// The time limit only turns a watch that never wakes into a failure instead of a hang.
@Suite(.waitsOnProcesses, .timeLimit(.minutes(10))) struct FileWatcherTests {
    /// Runs a shell command line in a child process, to its end.
    static func shell(_ line: String) throws {
        let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", line])
        #expect(result.status == 0, "\(line): \(result.output)")
    }

    @Test func aWriteByAnotherProcessWakesTheWatch() async throws {
        let scratch = try TemporaryDirectory(prefix: "sf-watch")
        let changes = try InotifyWatch.start([WatchedEntries(scratch.path, named: ["journal.jsonl"])])
        var next = changes.makeAsyncIterator()
        try Self.shell("printf 'line\\n' >> '\(scratch.path("journal.jsonl"))'")
        #expect(await next.next() != nil)
    }

    @Test func aFileRenamedIntoPlaceWakesTheWatch() async throws {
        let scratch = try TemporaryDirectory(prefix: "sf-watch")
        let changes = try InotifyWatch.start([WatchedEntries(scratch.path, named: ["journal.jsonl"])])
        var next = changes.makeAsyncIterator()
        let temporary = scratch.path("journal.jsonl.tmp-1")
        try Self.shell("printf 'new\\n' > '\(temporary)' && mv '\(temporary)' '\(scratch.path("journal.jsonl"))'")
        #expect(await next.next() != nil)
    }

    /// A lease's holder killed by SIGKILL: the kernel closes its file, which the watch of closes
    /// hears; the holder never wrote a byte.
    @Test func aWriterKilledWakesAWatchOfClosesByWriters() async throws {
        let scratch = try TemporaryDirectory(prefix: "sf-watch")
        let lease = scratch.path("TOKEN.lock")
        let holder = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", "-c",
                "import fcntl, sys\nf = open(sys.argv[1], 'a')\nfcntl.flock(f, fcntl.LOCK_EX)\n"
                    + "print('locked', flush=True)\nsys.stdin.read()",
                lease,
            ], tiedToThisProcess: true)
        #expect(holder.waitForStandardOutput { $0.contains("locked") } != nil)
        let changes = try InotifyWatch.start([
            WatchedEntries(scratch.path, changes: [.closedByWriter]) { $0.hasSuffix(".lock") }
        ])
        var next = changes.makeAsyncIterator()
        holder.kill()
        #expect(holder.wait().signaled)
        #expect(await next.next() != nil)
    }

    /// Which events count, decided on the kernel's own records (`struct inotify_event`): the
    /// entries and changes asked for, and the kernel's notices; not a reader's close, not
    /// another entry, not a directory the watch does not know.
    @Test func onlyTheEntriesAndChangesAskedForCount() {
        let written = WatchedEntries("/d", named: ["journal.jsonl"])
        let closes = WatchedEntries("/d/owners", changes: [.closedByWriter]) { $0.hasSuffix(".lock") }
        let table: [Int32: [WatchedEntries]] = [1: [written], 2: [closes]]
        func counts(_ watch: Int32, _ mask: Int32, _ name: String) -> Bool {
            Self.event(watch: watch, mask: UInt32(mask), name: name).withUnsafeBytes {
                InotifyWatch.counts($0, table: table)
            }
        }
        #expect(counts(1, IN_MODIFY, "journal.jsonl"))
        #expect(counts(1, IN_MOVED_TO, "journal.jsonl"))
        #expect(counts(1, IN_CREATE, "journal.jsonl"))
        #expect(counts(1, IN_DELETE, "journal.jsonl"))
        #expect(!counts(1, IN_MODIFY, "store.lock"), "another entry")
        #expect(!counts(1, IN_CLOSE_WRITE, "journal.jsonl"), "a change not asked for")
        #expect(counts(2, IN_CLOSE_WRITE, "A1B2.lock"))
        #expect(!counts(2, IN_CLOSE_NOWRITE, "A1B2.lock"), "a reader's close")
        #expect(!counts(2, IN_CLOSE_WRITE, "A1B2.tmp"), "an entry the matcher refuses")
        #expect(!counts(2, IN_MODIFY, "A1B2.lock"), "a write where only closes count")
        #expect(!counts(7, IN_MODIFY, "journal.jsonl"), "a directory the watch does not know")
        #expect(counts(-1, IN_Q_OVERFLOW, ""), "lost events: look again")
        #expect(counts(1, IN_DELETE_SELF, ""), "the directory went away: look again")
        // Several records in one read: one that counts is enough.
        let two =
            Self.event(watch: 1, mask: UInt32(IN_MODIFY), name: "store.lock")
            + Self.event(watch: 2, mask: UInt32(IN_CLOSE_WRITE), name: "X.lock")
        #expect(two.withUnsafeBytes { InotifyWatch.counts($0, table: table) })
    }

    /// The watch's inotify instance is closed once its consumer stops: no descriptor left
    /// watching the directory.
    @Test func aConsumerThatStopsClosesTheInstance() async throws {
        let scratch = try TemporaryDirectory(prefix: "sf-watch")
        let inode = try #require(try POSIXFileSystem().status(atPath: scratch.path, followingLinks: true)).inode
        let changes = try InotifyWatch.start([WatchedEntries(scratch.path, named: ["journal.jsonl"])])
        #expect(Self.instancesWatching(inode: inode) == 1)
        let consumer = Task {
            for await _ in changes {}
        }
        consumer.cancel()
        await consumer.value
        // The descriptor closes on the watch's Dispatch queue, after the cancellation.
        while Self.instancesWatching(inode: inode) > 0 { await Task.yield() }
        #expect(Self.instancesWatching(inode: inode) == 0)
    }

    /// The polling fallback on a clock that moves only when told: a change shows at the next
    /// look after it; entries watched for closes (which `stat` cannot see) show at every look.
    @Test func thePollingFallbackLooksAtEachIntervalOfItsClock() async throws {
        let scratch = try TemporaryDirectory(prefix: "sf-watch")
        let clock = ManualClock()
        let watcher = PollingFileWatcher(interval: .milliseconds(100), sleep: clock.sleep(for:))
        let journal = scratch.path("journal.jsonl")
        try Data("a\n".utf8).write(to: URL(fileURLWithPath: journal))
        let entries = [WatchedEntries(scratch.path, named: ["journal.jsonl"])]
        let before = watcher.signature(of: entries)
        #expect(before[scratch.path]?.keys.sorted() == ["journal.jsonl"])
        #expect(watcher.signature(of: entries) == before, "nothing changed, nothing differs")
        var next = watcher.watch(entries).makeAsyncIterator()
        await clock.waitForSleepers(1)
        try Self.shell("printf 'b\\n' >> '\(journal)'")
        #expect(watcher.signature(of: entries) != before)
        clock.advance(by: 0.1)
        #expect(await next.next() != nil)

        var closes = watcher.watch([WatchedEntries(scratch.path, changes: [.closedByWriter]) { _ in true }])
            .makeAsyncIterator()
        for _ in 0..<2 {
            await clock.waitForSleepers(2)
            clock.advance(by: 0.1)
            #expect(await closes.next() != nil)
        }
    }

    @Test func theSystemWatcherIsTheKernelsNotificationOnLinux() async throws {
        #expect(SystemFileWatcher.notifies)
        let scratch = try TemporaryDirectory(prefix: "sf-watch")
        // A fallback that never looks: only the kernel can wake this watch.
        let watcher = SystemFileWatcher(fallback: PollingFileWatcher(sleep: ManualClock().sleep(for:)))
        var next = watcher.watch([WatchedEntries(scratch.path, named: ["journal.jsonl"])]).makeAsyncIterator()
        try Self.shell("printf 'line\\n' >> '\(scratch.path("journal.jsonl"))'")
        #expect(await next.next() != nil)
    }

    /// One `struct inotify_event` as the kernel writes it: the header, then the name padded
    /// with NULs to a multiple of 16 bytes.
    static func event(watch: Int32, mask: UInt32, name: String) -> [UInt8] {
        var nameBytes = Array(name.utf8)
        if !nameBytes.isEmpty { nameBytes += Array(repeating: 0, count: 16 - nameBytes.count % 16) }
        var bytes: [UInt8] = []
        withUnsafeBytes(of: watch) { bytes += $0 }
        withUnsafeBytes(of: mask) { bytes += $0 }
        withUnsafeBytes(of: UInt32(0)) { bytes += $0 }
        withUnsafeBytes(of: UInt32(nameBytes.count)) { bytes += $0 }
        return bytes + nameBytes
    }

    /// How many inotify instances of this process watch the directory with this inode
    /// (`/proc/self/fdinfo` lists each instance's watches as `inotify wd:… ino:HEX …`).
    static func instancesWatching(inode: UInt64) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fdinfo")) ?? []
        let needle = "ino:" + String(inode, radix: 16) + " "
        return names.filter { name in
            let info = (try? String(contentsOfFile: "/proc/self/fdinfo/" + name, encoding: .utf8)) ?? ""
            return info.split(separator: "\n").contains { $0.hasPrefix("inotify ") && $0.contains(needle) }
        }.count
    }
}
