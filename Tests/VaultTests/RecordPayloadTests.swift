import Foundation
import Testing

@testable import Vault

/// What a record keeps of a date: found by the vault record fuzzer (`make fuzz`).
@Suite struct RecordPayloadTests {
    /// `Fuzz/seeds/vault/crash-far-date.bin`, the fuzzer's find: re-encoding a decoded put
    /// moved its dates down one millisecond, so every compaction did.
    @Test func theFuzzersFindEncodesBackToTheSameBytes() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/seeds/vault/crash-far-date.bin").standardized
        let bytes = [UInt8](try Data(contentsOf: file))
        let payload = try #require(RecordPayload.decode(bytes))
        #expect(payload.encoded() == bytes)
        #expect(RecordPayload.decode(payload.encoded()) == payload)
    }

    /// `Fuzz/seeds/vault/crash-int64-min-date.bin`, its second find: a put dated 8 ms after
    /// `Int64.min` milliseconds (a `Double` of -2^63) encoded its date as 0, 1970 (the range
    /// check excluded both ends). Now it is the same date read back.
    @Test func theExtremeDatesEncodeBackToThemselves() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fuzz/seeds/vault/crash-int64-min-date.bin").standardized
        let bytes = [UInt8](try Data(contentsOf: file))
        let payload = try #require(RecordPayload.decode(bytes))
        let again = try #require(RecordPayload.decode(payload.encoded()))
        #expect(again == payload)
        #expect(again.encoded() == payload.encoded())
        #expect(RecordPayload.milliseconds(Date(timeIntervalSince1970: -1e300)) == .min)
        #expect(RecordPayload.milliseconds(Date(timeIntervalSince1970: 1e300)) == .max)
        #expect(RecordPayload.milliseconds(Date(timeIntervalSince1970: .nan)) == 0)
    }

    @Test func everyStoredMillisecondReadsBackAsItself() {
        var state: UInt64 = 0x5EED_0018
        func next() -> Int64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int64(bitPattern: state >> 13) - (1 << 50)
        }
        let edges: [Int64] = [
            0, 1, -1, 999, -999, 1_767_225_600_123, 847_087_809_885_283, 1 << 50, -(1 << 50), .min, .max,
        ]
        for ms in edges + (0..<10_000).map({ _ in next() }) {
            #expect(RecordPayload.milliseconds(RecordPayload.date(ms)) == ms, "\(ms)")
        }
    }

    @Test func aFreshDateIsRoundedToTheNearestMillisecond() {
        #expect(RecordPayload.milliseconds(Date(timeIntervalSince1970: 1_767_225_600.123_4)) == 1_767_225_600_123)
        #expect(RecordPayload.milliseconds(Date(timeIntervalSince1970: 1_767_225_600.123_6)) == 1_767_225_600_124)
    }
}
