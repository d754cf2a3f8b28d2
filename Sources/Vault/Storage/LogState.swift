/// What replaying a vault file's records has established so far: the items, and where and
/// how the next record must follow.
struct LogState {
    var items: [VaultItem.ID: VaultItem] = [:]
    /// The file offset just past the last record that verified.
    var validEnd: UInt64
    var nextSequence: UInt64 = 0
    /// The previous record's tag (the file id before the first record).
    var chain: [UInt8]
    var recordCount = 0

    /// The state of a file whose header ends at `headerEnd` and that has no records yet.
    init(headerEnd: UInt64, codec: RecordCodec) {
        validEnd = headerEnd
        chain = codec.initialChain
    }

    /// Verifies and applies the records in `bytes` (the file from `offset` on). Stops quietly
    /// at a torn record at the end; throws on anything else that does not verify, keeping
    /// the records verified before it.
    mutating func consume(_ bytes: ArraySlice<UInt8>, at offset: UInt64, codec: RecordCodec, path: String) throws {
        var position = bytes.startIndex
        while position < bytes.endIndex {
            let here = offset + UInt64(position - bytes.startIndex)
            switch try codec.open(bytes[position...], offset: here, sequence: nextSequence, chain: chain, path: path) {
            case .torn:
                return
            case .record(let payload, let length, let newChain):
                apply(payload, chain: newChain, length: length)
                position += length
            }
        }
    }

    /// Records one more record: the one just appended or just read.
    mutating func apply(_ payload: RecordPayload, chain newChain: [UInt8], length: Int) {
        switch payload {
        case .put(let item): items[item.id] = item
        case .delete(let id): items[id] = nil
        }
        chain = newChain
        nextSequence += 1
        recordCount += 1
        validEnd += UInt64(length)
    }
}
