import Foundation
import Testing
@testable import Vault

/// The record payload decoder's fixtures from `Fuzz/VaultRecordFuzz.swift` (`make fuzz`).
@Suite struct RecordPayloadTests {
    /// `Fuzz/seeds/vault/crash-far-date.bin`: a put dated 847,000,000,000,000 ms, whose
    /// re-encoding moved the date down by a millisecond (and so every compaction did).
    static let farDate: [UInt8] = [
        0x01, 0x03, 0x00, 0x73, 0x76, 0x63, 0x04, 0x00, 0x61, 0x63, 0x63, 0x74, 0x05, 0x00, 0x6c, 0x02,
        0x03, 0x00, 0x73, 0x63, 0x74, 0x00, 0x00, 0x6c, 0x02, 0x03, 0x00, 0x73, 0x63, 0x74, 0x00, 0x00,
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
    ]

    @Test func aDecodedPayloadEncodesToTheSameBytes() throws {
        let payload = try #require(RecordPayload.decode(Self.farDate))
        #expect(payload.encoded() == Self.farDate)
        #expect(RecordPayload.decode(payload.encoded()) == payload)
    }

    @Test func everyStoredMillisecondReadsBackAsItself() {
        var generator = SystemRandomNumberGenerator()
        let edges: [Int64] = [0, 1, -1, 999, 1_767_225_600_123, 847_000_000_000_001, 1 << 50, -(1 << 50)]
        for ms in edges + (0..<10_000).map({ _ in Int64.random(in: -(1 << 50)...(1 << 50), using: &generator) }) {
            #expect(RecordPayload.milliseconds(RecordPayload.date(ms)) == ms, "\(ms)")
        }
    }

    @Test func aFreshDateIsTruncatedToItsMillisecond() {
        let date = Date(timeIntervalSince1970: 1_767_225_600.123_9)
        #expect(RecordPayload.milliseconds(date) == 1_767_225_600_123)
    }
}
