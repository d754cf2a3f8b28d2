import Crypto
import Foundation
import Testing

@testable import Vault

/// The item tags a codec keeps (`ItemTagCache`): a kept tag is the tag, and the cache stays
/// bounded.
@Suite struct ItemTagCacheTests {
    @Test func aTagIsComputedOnceAndThenKept() {
        let cache = ItemTagCache(capacity: 4)
        var computed = 0
        let id = VaultItem.ID(service: "s", account: "a")
        for _ in 0..<3 {
            #expect(
                cache.tag(id) {
                    computed += 1
                    return [1, 2, 3]
                } == [1, 2, 3])
        }
        #expect(computed == 1)
    }

    @Test func aFullCacheIsEmptiedBeforeItKeepsMore() {
        let cache = ItemTagCache(capacity: 2)
        var computed = 0
        let ids = (0..<3).map { VaultItem.ID(service: "s", account: "\($0)") }
        for id in ids {
            _ = cache.tag(id) {
                computed += 1
                return [UInt8(computed)]
            }
        }
        #expect(computed == 3)
        // The third emptied the cache: the first two are computed again, the third is kept.
        _ = cache.tag(ids[2]) {
            computed += 1
            return [0]
        }
        #expect(computed == 3)
        _ = cache.tag(ids[0]) {
            computed += 1
            return [0]
        }
        #expect(computed == 4)
    }

    /// A codec's tags, kept or not, are the HMAC the format defines: records sealed for more
    /// items than the cache holds, twice over, each open (opening re-computes the tag from the
    /// decrypted service and account, past any cache) and each tag equals a fresh codec's.
    @Test func keptTagsAreTheFormatsTags() throws {
        let dataKey = try SecureBytes.random(count: 32)
        let fileID = try SecureRandom.bytes(count: 16)
        let codec = try RecordCodec(cipher: .aes256GCM, fileID: fileID, dataKey: dataKey)
        let fresh = { try RecordCodec(cipher: .aes256GCM, fileID: fileID, dataKey: dataKey) }
        let ids = (0..<300).map { VaultItem.ID(service: "sérvice", account: "account \($0) ✓") }
        var chain = codec.initialChain
        var sequence: UInt64 = 0
        let now = RecordPayload.stored(Date())
        for id in ids + ids {
            let item = VaultItem(
                id: id, content: VaultItemContent(data: Data([1, 2]), label: "l"), created: now, modified: now)
            let (frame, next) = try codec.seal(.put(item), sequence: sequence, chain: chain)
            #expect(try codec.itemTag(id) == fresh().itemTag(id))
            #expect(Array(frame[16..<32]) == (try fresh().itemTag(id)))
            guard
                case .record(let payload, _, _) = try fresh().open(
                    frame[...], offset: 0, sequence: sequence, chain: chain, path: "x")
            else {
                Issue.record("a sealed record did not open")
                return
            }
            #expect(payload == .put(item))
            chain = next
            sequence += 1
        }
    }
}
