/// Every state a power loss could leave after the operations of a `Recording`, under the rules
/// of a journaling file system in ordered mode, or under stricter rules that also reorder the
/// operations between syncs (as ALICE, OSDI 2014, explores).
///
/// **Ordered** (`.ordered`), for a crash after any number of the recorded operations:
/// - a file's data and size reach the disk in the order written, each file on its own: any
///   prefix of its writes and truncates since its last `fsync`, the first one left out possibly
///   torn after any byte (`tearPoints` picks a few dozen of them, so the states number in the
///   thousands, not in the billions);
/// - directory entries (create, mkdir, rename, unlink, rmdir) reach it in the order made, as a
///   journal commits them: any prefix of them;
/// - nothing synced is lost: a file's writes before its `fsync`, and every entry change made in
///   a directory before that directory's `fsync` (and, the journal being in order, every entry
///   change before that one), or everything before a `sync()`.
/// The states enumerated for each crash point: everything issued on disk, only what is synced,
/// and each file (and the directory entries) on its own through every prefix and tear, with
/// everything else at the most or the least the rules allow.
///
/// **Reordering** (`.reordering`), for a crash just before each sync and at the end:
/// unsynced operations may reach the disk in any order, each directory's entries only forced by
/// that directory's own sync; enumerated are everything but one unsynced operation, only the
/// synced ones plus one, and each unsynced write reaching the disk as zeros (its size, not its
/// data). A directory-entry change on disk brings along the ones it needs (the mkdir of the
/// directory a rename moves out of), as no journal could commit it without them.
public struct CrashStateGenerator: Sendable {
    /// Which rules.
    public enum Mode: String, Sendable, CaseIterable {
        /// A journaling file system in ordered mode.
        case ordered
        /// Any order between syncs.
        case reordering
    }

    /// The recording the states come from.
    public let recording: Recording

    /// Generates the crash states of `recording`.
    public init(_ recording: Recording) {
        self.recording = recording
    }

    /// Where a write of `length` bytes is torn: every byte of a short write; else every small
    /// offset a record header could end at (1…8, 12, 16, 24, 32, 44, 48, 51, 52, 53, 64), the
    /// quarters, the last bytes, 512-byte sector boundaries (the first eight) and two seeded
    /// random points.
    public static func tearPoints(length: Int, seed: UInt64) -> [Int] {
        guard length > 1 else { return [] }
        if length <= 24 { return Array(1..<length) }
        var points = Set([1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 24, 32, 44, 48, 51, 52, 53, 64])
        points.formUnion([length / 4, length / 2, 3 * length / 4, length - 16, length - 2, length - 1])
        var sector = 512
        var sectors = 0
        while sector < length, sectors < 8 {
            points.insert(sector)
            sector += 512
            sectors += 1
        }
        var generator = SeededGenerator(state: seed &* 0x9E37_79B9 &+ UInt64(length))
        for _ in 0..<2 { points.insert(Int.random(in: 1..<length, using: &generator)) }
        return points.filter { $0 > 0 && $0 < length }.sorted()
    }

    /// The states under `mode`, each once, in crash-point order.
    public func states(_ mode: Mode) -> [CrashState] {
        var collector = Collector()
        switch mode {
        case .ordered: orderedStates(into: &collector)
        case .reordering: reorderingStates(into: &collector)
        }
        return collector.states
    }

    private struct Collector {
        var seen: Set<CrashState> = []
        var states: [CrashState] = []

        mutating func add(_ state: CrashState) {
            if seen.insert(state).inserted { states.append(state) }
        }
    }

    /// What was issued before a crash point, by kind, and what syncs made durable.
    private struct Issued {
        var content: [Int: [Int]] = [:]
        var namespace: [Int] = []
        var metadata: [Int] = []
        var lastFileSync: [Int: Int] = [:]
        var lastDirectorySync: [String: Int] = [:]
        var lastSyncAll = -1

        mutating func add(_ index: Int, _ operation: RecordedOperation) {
            switch operation.kind {
            case .content(let inode): content[inode, default: []].append(index)
            case .namespace: namespace.append(index)
            case .metadata: metadata.append(index)
            case .fileSync(let inode): lastFileSync[inode] = index
            case .directorySync(let path): lastDirectorySync[path] = index
            case .syncAll: lastSyncAll = index
            case .mark: break
            }
        }

        /// How many of `inode`'s content operations are synced (always a prefix).
        func syncedContent(_ inode: Int) -> Int {
            let barrier = max(lastFileSync[inode] ?? -1, lastSyncAll)
            return content[inode, default: []].prefix { $0 < barrier }.count
        }

        /// Whether a directory-entry change at `index` is synced by its own directory's sync.
        func isSyncedEntry(_ index: Int, _ operation: RecordedOperation) -> Bool {
            if lastSyncAll > index { return true }
            guard case .namespace(let directories) = operation.kind else { return false }
            return directories.contains { (lastDirectorySync[$0] ?? -1) > index }
        }
    }

    // MARK: - Ordered

    private func orderedStates(into collector: inout Collector) {
        let operations = recording.operations
        var issued = Issued()
        for crashPoint in 0...operations.count {
            let synced = Dictionary(uniqueKeysWithValues: issued.content.keys.map { ($0, issued.syncedContent($0)) })
            let issuedCounts = issued.content.mapValues(\.count)
            let syncedEntries = (issued.namespace.lastIndex { issued.isSyncedEntry($0, operations[$0]) } ?? -1) + 1
            let allEntries = issued.namespace.count

            func state(entries: Int, content: [Int: Int], partial: CrashState.Partial? = nil) -> CrashState {
                var persisted = issued.metadata + issued.namespace.prefix(entries)
                for (inode, count) in content { persisted += issued.content[inode, default: []].prefix(count) }
                return CrashState(crashPoint: crashPoint, persisted: persisted.sorted(), partial: partial)
            }

            collector.add(state(entries: allEntries, content: issuedCounts))
            collector.add(state(entries: syncedEntries, content: synced))
            if syncedEntries < allEntries {
                for entries in syncedEntries...allEntries {
                    collector.add(state(entries: entries, content: issuedCounts))
                    collector.add(state(entries: entries, content: synced))
                }
            }
            for inode in issued.content.keys.sorted() where synced[inode]! < issuedCounts[inode]! {
                let indices = issued.content[inode]!
                for count in synced[inode]!...issuedCounts[inode]! {
                    var parts: [CrashState.Partial?] = [nil]
                    if count < indices.count, case .write(_, _, let bytes) = operations[indices[count]] {
                        let index = indices[count]
                        parts += Self.tearPoints(length: bytes.count, seed: UInt64(index))
                            .map { CrashState.Partial(index: index, part: .prefix($0)) }
                    }
                    for partial in parts {
                        var most = issuedCounts
                        most[inode] = count
                        collector.add(state(entries: allEntries, content: most, partial: partial))
                        var least = synced
                        least[inode] = count
                        collector.add(state(entries: syncedEntries, content: least, partial: partial))
                    }
                }
            }
            if crashPoint < operations.count { issued.add(crashPoint, operations[crashPoint]) }
        }
    }

    // MARK: - Reordering

    private func reorderingStates(into collector: inout Collector) {
        let operations = recording.operations
        let needs = Self.dependencies(operations)
        var issued = Issued()
        for crashPoint in 0...operations.count {
            let isBarrier: Bool
            if crashPoint == operations.count {
                isBarrier = true
            } else {
                switch operations[crashPoint].kind {
                case .fileSync, .directorySync, .syncAll: isBarrier = true
                default: isBarrier = false
                }
            }
            if isBarrier {
                var forced = Set(issued.metadata)
                var loose: Set<Int> = []
                for (inode, indices) in issued.content {
                    let count = issued.syncedContent(inode)
                    forced.formUnion(indices.prefix(count))
                    loose.formUnion(indices.dropFirst(count))
                }
                for index in issued.namespace {
                    if issued.isSyncedEntry(index, operations[index]) {
                        forced.insert(index)
                    } else {
                        loose.insert(index)
                    }
                }
                // What is on disk needs what made its names: a rename durable drags the mkdir of
                // the directory it moved out of, as a journal could never commit it alone.
                for index in forced { forced.formUnion(needs.closure(of: index)) }
                loose.subtract(forced)
                let all = forced.union(loose)
                collector.add(CrashState(crashPoint: crashPoint, persisted: all.sorted()))
                collector.add(CrashState(crashPoint: crashPoint, persisted: forced.sorted()))
                for index in loose.sorted() {
                    let without = all.filter { $0 != index && !needs.closure(of: $0).contains(index) }
                    collector.add(CrashState(crashPoint: crashPoint, persisted: without.sorted()))
                    collector.add(
                        CrashState(
                            crashPoint: crashPoint,
                            persisted: forced.union([index]).union(needs.closure(of: index)).sorted()))
                    if case .write = operations[index] {
                        collector.add(
                            CrashState(
                                crashPoint: crashPoint, persisted: all.filter { $0 != index }.sorted(),
                                partial: CrashState.Partial(index: index, part: .zeros)))
                    }
                }
            }
            if crashPoint < operations.count { issued.add(crashPoint, operations[crashPoint]) }
        }
    }

    /// Which earlier directory-entry changes each one needs on disk: the one that made the
    /// name it moves or removes, and those that made the directories it reads or writes.
    struct Dependencies {
        fileprivate var direct: [Int: [Int]] = [:]
        fileprivate var memo: [Int: Set<Int>] = [:]

        /// Everything `index` needs, directly or through what it needs.
        func closure(of index: Int) -> Set<Int> {
            if let known = memo[index] { return known }
            var result: Set<Int> = []
            var pending = direct[index] ?? []
            while let next = pending.popLast() {
                if result.insert(next).inserted { pending += direct[next] ?? [] }
            }
            return result
        }
    }

    static func dependencies(_ operations: [RecordedOperation]) -> Dependencies {
        var made: [String: Int] = [:]
        var dependencies = Dependencies()
        func ancestors(_ path: String) -> [String] {
            var result: [String] = []
            var current = DiskImage.parent(of: path)
            while !current.isEmpty {
                result.append(current)
                current = DiskImage.parent(of: current)
            }
            return result
        }
        for (index, operation) in operations.enumerated() {
            switch operation {
            case .create(let path, _, _), .makeDirectory(let path, _):
                dependencies.direct[index] = ancestors(path).compactMap { made[$0] }
                made[path] = index
            case .rename(let from, let to):
                dependencies.direct[index] = ([from] + ancestors(from) + ancestors(to)).compactMap { made[$0] }
                let moved = made.filter { $0.key.hasPrefix(from + "/") }
                for key in moved.keys { made[key] = nil }
                for (key, maker) in moved { made[to + key.dropFirst(from.count)] = maker }
                made[from] = nil
                made[to] = index
            case .link(let from, let to):
                dependencies.direct[index] = ([from] + ancestors(from) + ancestors(to)).compactMap { made[$0] }
                made[to] = index
            case .removeFile(let path), .removeDirectory(let path):
                dependencies.direct[index] = ([path] + ancestors(path)).compactMap { made[$0] }
                made[path] = nil
            default:
                break
            }
        }
        for index in dependencies.direct.keys { dependencies.memo[index] = dependencies.closure(of: index) }
        return dependencies
    }
}
