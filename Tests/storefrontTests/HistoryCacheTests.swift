import Foundation
import TestSupport
import Testing

@testable import storefront

/// `history` read from the vault's derived cache of its rows (`vault.sfv.derived-…`, written by
/// the first listing of a ledger with an index) prints, byte for byte, what the build before
/// it printed from the records; so does a run over a damaged cache.
@Suite struct HistoryCacheTests {
    @Test func historyFromTheCachePrintsWhatItPrintedBefore() async throws {
        let scratch = try TemporaryDirectory(prefix: "sf-history-cache")
        let data = scratch.url("data")
        try await HistoryOutputTests.seed(data, count: 1_100)
        let cache = data.appendingPathComponent("vault.sfv.derived-transaction-summaries")
        #expect(!FileManager.default.fileExists(atPath: cache.path))
        for run in ["from the records", "from the cache", "from a damaged cache"] {
            if run == "from a damaged cache" {
                var bytes = try [UInt8](Data(contentsOf: cache))
                bytes[bytes.count / 2] ^= 0x01
                try Data(bytes).write(to: cache)
            }
            let table = await HistoryOutputTests.run(["history"], data: data)
            #expect(table.status == 0, "\(run): \(table.output.standardError)")
            #expect(table.output.standardOutput.utf8.count == HistoryOutputTests.tableBytes, "\(run)")
            #expect(HistoryOutputTests.fnv1a(table.output.standardOutput) == HistoryOutputTests.tableDigest, "\(run)")
            #expect(FileManager.default.fileExists(atPath: cache.path), "\(run)")
        }
    }
}
