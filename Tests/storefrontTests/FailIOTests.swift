import Foundation
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import storefront

/// Issue 18 item 3: every write and fsync of a purchase made to fail in turn, with EIO, ENOSPC
/// and EDQUOT, through `STOREFRONT_FAIL_IO` (SystemIO's `FaultInjectingFileSystem` under the
/// CLI): the command exits 0 or 1, never hangs or crashes; a failure names a file of the data
/// directory; nothing recorded before is lost; and the next run recovers: every charge the
/// store made is delivered exactly once, and a purchase the CLI called done is there.
@Suite(.serialized, .timeLimit(.minutes(10))) struct FailIOTests {
    static let catalog = Repository.root.appendingPathComponent("Catalogs/Demo.storekit").path

    struct Run {
        let status: Int32
        let output: BufferedOutput
    }

    static func run(_ arguments: [String], data: URL, failing rule: String? = nil) async -> Run {
        let output = BufferedOutput()
        var environment: [String: String] = [:]
        if let rule { environment["STOREFRONT_FAIL_IO"] = rule }
        let status = await StorefrontCLI().run(
            ["--catalog", catalog, "--data-dir", data.path] + arguments,
            context: CommandContext(
                environment: environment, currentDirectory: data.deletingLastPathComponent().path, output: output))
        return Run(status: status, output: output)
    }

    /// The transaction IDs of `history --json` and of `store charges --json`.
    static func facts(_ data: URL) async throws -> (delivered: [String], charged: [String]) {
        let history = await run(["history", "--json"], data: data)
        #expect(history.status == 0, "\(history.output.standardError)")
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(history.output.standardOutput.utf8)) as? [String: Any])
        let transactions = try #require(object["transactions"] as? [[String: Any]])
        let charges = await run(["store", "charges", "--json"], data: data)
        #expect(charges.status == 0, "\(charges.output.standardError)")
        let charged = try #require(
            try JSONSerialization.jsonObject(with: Data(charges.output.standardOutput.utf8)) as? [[String: Any]])
        return (
            transactions.compactMap { $0["transactionID"] as? String },
            charged.compactMap { $0["transactionID"] as? String }
        )
    }

    @Test(arguments: ["write", "synchronize"], ["EIO", "ENOSPC", "EDQUOT"])
    func everyFailingCallOfAPurchaseIsAnsweredAndRecovered(_ operation: String, _ errno: String) async throws {
        let scratch = try TemporaryDirectory(prefix: "sf-fail-io")
        let base = scratch.url("base")
        // One purchase before: it must survive every failure after it.
        let first = await Self.run(["buy", DemoCatalog.coins], data: base)
        #expect(first.status == 0, "\(first.output.standardError)")
        let before = try await Self.facts(base)
        #expect(before.delivered.count == 1)

        var failures = 0
        var call = 1
        while true {
            let data = scratch.url("\(operation)-\(errno)-\(call)")
            try FileManager.default.copyItem(at: base, to: data)
            let buy = await Self.run(["buy", DemoCatalog.coins], data: data, failing: "\(operation):\(call):\(errno)")
            let made = try #require(FaultInjection.lastFaulty.withLock { $0 })
                .calls(of: try #require(FaultInjectingFileSystem.Operation(rawValue: operation)))
            let message = buy.output.standardError
            #expect(buy.status == 0 || buy.status == 1, "\(operation) \(call): exit \(buy.status)")
            if buy.status == 1 {
                failures += 1
                #expect(
                    message.contains(data.path + "/"),
                    "\(operation) \(call) \(errno) names no file of the data directory: \(message)")
            }
            // The next run (without faults) recovers.
            let after = try await Self.facts(data)
            #expect(
                Set(before.delivered).isSubset(of: after.delivered), "\(operation) \(call): a recorded purchase is lost"
            )
            #expect(
                Set(after.delivered).count == after.delivered.count,
                "\(operation) \(call): delivered twice: \(after.delivered)")
            #expect(
                Set(after.charged).isSubset(of: after.delivered),
                "\(operation) \(call): charged, never delivered: \(after)")
            if buy.status == 0 {
                #expect(after.delivered.count == 2, "\(operation) \(call): the purchase the CLI reported is missing")
            }
            // Past the command's last call of the operation, nothing fails any more.
            if call > made {
                #expect(buy.status == 0)
                break
            }
            call += 1
        }
        print(
            "fail-io: \(operation) with \(errno): each of the purchase's \(call - 1) calls failed in turn, \(failures) made it exit 1 naming the file, the others exit 0"
        )
        #expect(failures > 0, "no \(operation) failure reached the purchase")
    }

    @Test func aBadRuleIsAUsageError() async throws {
        let scratch = try TemporaryDirectory(prefix: "sf-fail-io")
        for rule in ["write", "write:0:EIO", "frob:1:EIO", "write:1:EWHAT"] {
            let result = await Self.run(["history"], data: scratch.url("data"), failing: rule)
            #expect(result.status == 2, "\(rule)")
            #expect(
                result.output.standardError.contains("STOREFRONT_FAIL_IO=\(rule)"), "\(result.output.standardError)")
        }
    }
}
