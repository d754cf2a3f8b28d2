/// How runs of an index merge (`LayeredIndex.merged`), and a run is made from its frames: each
/// table is one pass over two sorted ones, never a rebuild into hash maps and a sort of them all.
extension HistoryIndex {
    /// A table of pairs (sorted by key, then value; no entry twice) with `added` in it, sorted
    /// the same way; an entry already there is not added again.
    static func merging(_ old: [Entry], _ added: [Entry]) -> [Entry] {
        guard !added.isEmpty else { return old }
        let added = added.sorted { ($0.key, $0.value) < ($1.key, $1.value) }
        var merged: [Entry] = []
        merged.reserveCapacity(old.count + added.count)
        var i = old.startIndex
        var j = added.startIndex
        while i < old.endIndex || j < added.endIndex {
            let next: Entry
            if j == added.endIndex || (i < old.endIndex && (old[i].key, old[i].value) <= (added[j].key, added[j].value))
            {
                next = old[i]
                i += 1
            } else {
                next = added[j]
                j += 1
            }
            if merged.last != next { merged.append(next) }
        }
        return merged
    }

    /// A table with one entry a key (sorted by key) in which each of `latest`'s keys holds its
    /// entry from `latest` (one a key), in place of the old one or beside the others.
    static func replacing(_ old: [Entry], with latest: [Entry]) -> [Entry] {
        combining(old, with: latest.map { ($0.key, $0) }) { _, _, new in new }
    }

    /// A table with one entry a key (sorted by key) in which each key of `changes` (one a key)
    /// holds `combine(key, its old entry or nil, change)`, left out when that is nil.
    static func combining<Change>(
        _ old: [Entry], with changes: [(key: UInt64, change: Change)], _ combine: (UInt64, Entry?, Change) -> Entry?
    ) -> [Entry] {
        guard !changes.isEmpty else { return old }
        let changes = changes.sorted { $0.key < $1.key }
        var combined: [Entry] = []
        combined.reserveCapacity(old.count + changes.count)
        var i = old.startIndex
        for (key, change) in changes {
            while i < old.endIndex, old[i].key < key {
                combined.append(old[i])
                i += 1
            }
            var current: Entry?
            if i < old.endIndex, old[i].key == key {
                current = old[i]
                i += 1
            }
            if let entry = combine(key, current, change) { combined.append(entry) }
        }
        combined.append(contentsOf: old[i...])
        return combined
    }

    /// An `entries` table of `older` overlaid by `newer` (both one entry a key, sorted): a key
    /// in both takes `newer`'s entry with `older`'s `shadows` bit (whether a run older than
    /// both has it).
    static func overlaying(_ older: [Entry], with newer: [Entry]) -> [Entry] {
        guard !older.isEmpty else { return newer }
        guard !newer.isEmpty else { return older }
        return combining(older, with: newer.map { ($0.key, $0) }) { _, old, new in
            guard let old else { return new }
            var entry = new
            entry.info = (new.info & ~shadowsBit) | (old.info & shadowsBit)
            return entry
        }
    }

    /// Two sums tables (one entry a key, sorted) added up key by key: values and infos wrap; a
    /// key whose value and info both come to zero is left out.
    static func summing(_ a: [Entry], _ b: [Entry]) -> [Entry] {
        combining(a, with: b.map { ($0.key, $0) }) { key, current, change in
            Entry(key: key, value: (current?.value ?? 0) &+ change.value, info: (current?.info ?? 0) &+ change.info)
        }.filter { $0.value != 0 || $0.info != 0 }
    }
}
