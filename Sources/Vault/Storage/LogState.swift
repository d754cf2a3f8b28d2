/// What replaying a vault file's records has established so far: where and how the next
/// record must follow, and the items the replayed records changed.
///
/// Without an index the replay starts at the first record, so `items` holds every live item.
/// With an index (`VaultIndex`) it starts where the index ends: `items` and `deleted` are the
/// changes since, laid over what the index names (`VaultStore.item(_:)` looks here first).
struct LogState {
    /// Items put since the base (the index, or the empty file).
    var items: [VaultItem.ID: VaultItem] = [:]
    /// Items deleted since the base that the base may hold.
    var deleted: Set<VaultItem.ID> = []
    /// Where the record of each item in `items` starts, and its sequence number (for the index).
    var locations: [VaultItem.ID: (offset: UInt64, sequence: UInt64)] = [:]
    /// The file offset just past the last record that verified (and closed its atomic write).
    var validEnd: UInt64
    var nextSequence: UInt64 = 0
    /// The previous record's tag (the file id before the first record).
    var chain: [UInt8]
    /// Records in the file up to `validEnd`, the base's included.
    var recordCount = 0
    /// Records replayed on top of the base.
    var tailRecords = 0
    /// Live items, the base's included.
    var liveCount = 0

    /// The state of a file whose header ends at `headerEnd` and that has no records yet.
    init(headerEnd: UInt64, codec: RecordCodec) {
        validEnd = headerEnd
        chain = codec.initialChain
    }

    /// The state where an index ends: its records counted, none replayed yet.
    init(index: VaultIndex) {
        validEnd = index.coveredEnd
        nextSequence = index.nextSequence
        chain = index.chain
        recordCount = index.recordCount
        liveCount = index.itemCount
    }

    /// Verifies and applies the records in `bytes` (the file from `offset` on). The records of
    /// an atomic write (a batch marker and the records it counts) apply together, once the last
    /// of them has verified. Stops quietly at a torn record, or a torn atomic write, at the end;
    /// throws on anything else that does not verify, keeping what verified before it.
    /// - Parameter baseHolds: whether the base (the index) holds an item, for the live count.
    mutating func consume(
        _ bytes: ArraySlice<UInt8>, at offset: UInt64, codec: RecordCodec, path: String,
        baseHolds: (VaultItem.ID) throws -> Bool
    ) throws {
        var position = bytes.startIndex
        var pending: [(payload: RecordPayload, chain: [UInt8], length: Int)] = []
        var awaited = 0
        var sequence = nextSequence
        var chain = self.chain
        while position < bytes.endIndex {
            let here = offset + UInt64(position - bytes.startIndex)
            switch try codec.open(bytes[position...], offset: here, sequence: sequence, chain: chain, path: path) {
            case .torn:
                return
            case .record(let payload, let length, let newChain):
                if let count = payload.batchCount {
                    guard count >= 1, awaited == 0 else {
                        throw VaultError.integrity(
                            path: path, offset: here, detail: "record \(sequence) opens a malformed atomic write")
                    }
                    awaited = count
                } else if awaited > 0 {
                    awaited -= 1
                }
                pending.append((payload, newChain, length))
                position += length
                sequence += 1
                chain = newChain
                if awaited == 0 {
                    for record in pending {
                        try apply(record.payload, chain: record.chain, length: record.length, baseHolds: baseHolds)
                    }
                    pending.removeAll()
                }
            }
        }
    }

    /// Records one more record: the one just appended or just read.
    mutating func apply(
        _ payload: RecordPayload, chain newChain: [UInt8], length: Int, baseHolds: (VaultItem.ID) throws -> Bool
    ) throws {
        defer {
            chain = newChain
            nextSequence += 1
            recordCount += 1
            tailRecords += 1
            validEnd += UInt64(length)
        }
        // A batch marker holds no item: it only counts as a record.
        guard payload.batchCount == nil else { return }
        let id = payload.id
        let existed = try exists(id, baseHolds: baseHolds)
        switch payload {
        case .put(let item):
            items[id] = item
            locations[id] = (validEnd, nextSequence)
            if !deleted.isEmpty { deleted.remove(id) }
            if !existed { liveCount += 1 }
        case .delete:
            items[id] = nil
            locations[id] = nil
            deleted.insert(id)
            if existed { liveCount -= 1 }
        }
    }

    /// Whether `id` is live: put since the base, or held by the base and not deleted since.
    func exists(_ id: VaultItem.ID, baseHolds: (VaultItem.ID) throws -> Bool) throws -> Bool {
        if items[id] != nil { return true }
        if deleted.contains(id) { return false }
        return try baseHolds(id)
    }
}
