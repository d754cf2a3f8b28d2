/// An archive's index: the runs the journal names (`HistoryIndex`, oldest first), each over
/// the data file's bytes after the one before it. A key's latest frame is in the newest run
/// that has it; a pairs table answers every run's pairs; a sums table the total of every run's.
///
/// A compaction writes one run for what it moved (or one that merges it with the newest runs:
/// `mergeCount`), so its cost follows what it moved, not the archive's size; the runs stay
/// few because a run is merged with the next older one once it grows to half its size.
struct LayeredIndex {
    /// The runs, oldest first.
    let runs: [HistoryIndex]

    /// A run is merged into the next older one once that one is at most this many times its size.
    static let mergeRatio = 2
    /// Runs beyond this many are merged whatever their sizes (a bound on a lookup's reads).
    static let maximumRuns = 24

    /// How many of the newest runs of `sizes` (oldest first; entries a run) a new run of
    /// `added` entries merges with: while the next older run is at most `mergeRatio` times the
    /// size of what is merged so far, or the runs would be more than `maximumRuns`.
    static func mergeCount(sizes: [Int], adding added: Int) -> Int {
        var merged = added
        var count = 0
        while count < sizes.count {
            let next = sizes[sizes.count - 1 - count]
            guard next <= mergeRatio * merged || sizes.count - count + 1 > maximumRuns else { break }
            merged += next
            count += 1
        }
        return count
    }

    /// The `entries` table's entry of `key` in the newest run that has it.
    func latest(_ key: UInt64) throws -> HistoryIndex.Entry? {
        for run in runs.reversed() {
            if let entry = try run.entries(.entries, key: key).first { return entry }
        }
        return nil
    }

    /// Every value a pairs table holds under `key`, in every run, ascending and once each.
    func values(_ table: HistoryIndex.Table, key: UInt64) throws -> [UInt64] {
        var values: [UInt64] = []
        for run in runs { values += try run.entries(table, key: key).map(\.value) }
        guard runs.count > 1 else { return values }
        return Array(Set(values)).sorted()
    }

    /// The total of a sums table's entries under `key` over every run: the value as a two's
    /// complement count, and the info.
    func total(_ table: HistoryIndex.Table, key: UInt64) throws -> (count: Int, info: UInt64) {
        var count: UInt64 = 0
        var info: UInt64 = 0
        for run in runs {
            for entry in try run.entries(table, key: key) {
                count &+= entry.value
                info &+= entry.info
            }
        }
        return (Int(Int64(bitPattern: count)), info)
    }

    /// How many keys the `entries` tables hold (each once, in whichever runs it is).
    var count: Int { runs.reduce(0) { $0 + $1.ownKeys } }

    /// How many keys below `key` the `entries` tables hold.
    func rank(of key: UInt64) throws -> Int {
        var rank = 0
        for run in runs { rank += try run.ownRank(of: key) }
        return rank
    }

    /// The key at `rank` (0-based, in key order) of the `entries` tables' keys.
    func key(at rank: Int) throws -> UInt64? {
        guard rank >= 0, rank < count else { return nil }
        if runs.count == 1 { return try runs[0].ownKey(at: rank) }
        // The smallest key with `rank + 1` keys at or below it, by bisection between the runs'
        // extremes (keys are transaction IDs or positions, dense, so few steps).
        var low = UInt64.max
        var high = UInt64.min
        for run in runs {
            guard let range = try run.keyRange(.entries) else { continue }
            low = min(low, range.lowerBound)
            high = max(high, range.upperBound)
        }
        guard low <= high else { return nil }
        while low < high {
            let middle = low + (high - low) / 2
            // Keys at or below `middle`: the rank of the one after it.
            if try self.rank(of: middle + 1) > rank { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The smallest key above `key` in any run's `entries` table (the key after it in order).
    func key(after key: UInt64) throws -> UInt64? {
        var next: UInt64?
        for run in runs {
            if let candidate = try run.key(after: key) { next = min(next ?? candidate, candidate) }
        }
        return next
    }

    /// The largest key below `key` in any run's `entries` table (the key before it in order).
    func key(before key: UInt64) throws -> UInt64? {
        var previous: UInt64?
        for run in runs {
            if let candidate = try run.key(before: key) { previous = max(previous ?? candidate, candidate) }
        }
        return previous
    }

    /// Every `entries` table's entry, the newest run's for a key that several have, in key order.
    func allEntries() throws -> [HistoryIndex.Entry] {
        var merged: [HistoryIndex.Entry] = []
        // Newest first: each older run is overlaid by what is merged so far, so the work
        // follows the runs' sizes, which grow towards the oldest.
        for run in runs.reversed() {
            merged = HistoryIndex.overlaying(try run.allEntries(.entries), with: merged)
        }
        return merged
    }

    /// The tables of the runs `range` merged into one run (what a compaction writes in their
    /// place): the newest entry of each key (its `shadows` bit the oldest's), every pair, the
    /// sums added up.
    static func merged(
        _ tables: [[[HistoryIndex.Entry]]], kinds: [IndexTableKind]
    ) -> [[HistoryIndex.Entry]] {
        guard var result = tables.last else { return Array(repeating: [], count: HistoryIndex.Table.count) }
        for older in tables.dropLast().reversed() {
            result[0] = HistoryIndex.overlaying(older[0], with: result[0])
            for (index, kind) in kinds.enumerated() {
                result[index + 1] =
                    switch kind {
                    case .pairs: HistoryIndex.merging(older[index + 1], result[index + 1])
                    case .sums: HistoryIndex.summing(older[index + 1], result[index + 1])
                    }
            }
        }
        return result
    }
}
