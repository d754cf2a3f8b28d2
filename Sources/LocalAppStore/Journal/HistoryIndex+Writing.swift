internal import Crypto
internal import SystemIO

/// Writing a run of the index (`HistoryIndex`): its header, its checked pages, and the keys
/// its tables hash.
extension HistoryIndex {
    /// Writes the tables (each sorted by key) as generation `generation`'s run over the bytes
    /// `historyStart..<historyEnd` at `path`, through a temporary renamed into place. Not
    /// synced: a run lost to a crash is made again from the data file (`FrameArchive`).
    static func write(
        _ tables: [[Entry]], generation: UInt64, historyStart: UInt64, historyEnd: UInt64, to path: String,
        fs: any FileSystem, temporarySuffix: String
    ) throws(SystemCallError) {
        var header = Writer()
        header.append(magic)
        header.uint16(version)
        header.uint16(0)
        header.uint64(generation)
        header.uint64(historyStart)
        header.uint64(historyEnd)
        let pageCounts = tables.map { ($0.count + entriesPerPage - 1) / entriesPerPage }
        for (table, pages) in zip(tables, pageCounts) {
            header.uint32(UInt32(pages))
            header.uint32(UInt32(table.count))
        }
        for (table, pages) in zip(tables, pageCounts) {
            for page in 0..<pages { header.uint64(table[page * entriesPerPage].key) }
        }
        // The `entries` pages' ranks among the keys no older run has, and their total.
        var rank: UInt64 = 0
        for page in 0...pageCounts[0] {
            header.uint64(rank)
            if page < pageCounts[0] {
                let slice = tables[0][(page * entriesPerPage)..<min(tables[0].count, (page + 1) * entriesPerPage)]
                rank += UInt64(slice.lazy.filter { !$0.shadows }.count)
            }
        }
        var bytes = header.bytes
        bytes += (try? Digest.hash(.sha256, header.bytes)) ?? []
        bytes += [UInt8](repeating: 0, count: (bytes.count + pageSize - 1) / pageSize * pageSize - bytes.count)
        bytes.reserveCapacity(bytes.count + pageCounts.reduce(0, +) * pageSize)
        for (index, (table, pages)) in zip(tables, pageCounts).enumerated() {
            for page in 0..<pages {
                // The page's entries and count, stored in place (little-endian), then its check.
                let entries = table[(page * entriesPerPage)..<min(table.count, (page + 1) * entriesPerPage)]
                var body = [UInt8](repeating: 0, count: pageSize - 32)
                body.withUnsafeMutableBytes { raw in
                    var offset = 0
                    for entry in entries {
                        raw.storeBytes(of: entry.key.littleEndian, toByteOffset: offset, as: UInt64.self)
                        raw.storeBytes(of: entry.value.littleEndian, toByteOffset: offset + 8, as: UInt64.self)
                        raw.storeBytes(of: entry.info.littleEndian, toByteOffset: offset + 16, as: UInt64.self)
                        offset += entrySize
                    }
                    raw.storeBytes(
                        of: UInt16(entries.count).littleEndian, toByteOffset: entriesPerPage * entrySize,
                        as: UInt16.self)
                }
                bytes += body
                bytes +=
                    (try? Digest.hash(.sha256, pageCheckInput(body, generation: generation, number: index << 24 | page)))
                    ?? []
            }
        }
        try fs.replaceAtomically(
            path, with: bytes, temporaryPath: path + ".tmp-" + temporarySuffix, fileSync: nil, syncsDirectory: false)
    }

    /// FNV-1a, 64 bits, of `parts` joined by a separator: the tables' keys for request IDs and
    /// grants (a collision only makes a lookup read one more entry, which it then rejects).
    static func hash(_ parts: String...) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for (index, part) in parts.enumerated() {
            if index > 0 { hash = (hash ^ 0x1F) &* 0x100_0000_01b3 }
            for byte in part.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        return hash
    }

    /// What a page's check hashes: the run's generation, the page's number, its body.
    static func pageCheckInput(_ page: [UInt8], generation: UInt64, number: Int) -> [UInt8] {
        var w = Writer()
        w.uint64(generation)
        w.uint32(UInt32(number))
        return w.bytes + page[..<(pageSize - 32)]
    }
}
