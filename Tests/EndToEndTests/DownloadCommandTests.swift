import Foundation
import TestSupport
import Testing

/// Hosted content through the real `storefront` binary: `buy` downloads with progress,
/// `downloads` lists, pauses, resumes and cancels, a process killed at `mid-download` resumes
/// from its last durable offset, and a sidecar that does not match its files is rejected.
@Suite(.waitsOnProcesses, .timeLimit(.minutes(10)))
struct DownloadCommandTests {
    static let packageRoot = Repository.root
    static let forest = "com.storefront.demo.levelpack.forest"
    /// Three files, the first larger than one 1 MiB checkpoint.
    static let files: [(String, Int)] = [
        ("levels/big.json", 1_500_000), ("levels/medium.json", 1_200_000), ("pack.json", 300_000),
    ]

    let cli: StorefrontCLI
    var root: URL { cli.scratch.url }
    var data: URL { cli.data }
    var catalog: URL { root.appendingPathComponent("Demo.storekit") }
    var content: URL { root.appendingPathComponent("Demo.content/\(Self.forest)") }

    init() throws {
        var cli = try StorefrontCLI(prefix: "sf-downloads", instant: false)
        cli.catalog = cli.scratch.url.appendingPathComponent("Demo.storekit")
        self.cli = cli
        try FileManager.default.createDirectory(
            at: content.appendingPathComponent("levels"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Repository.root.appendingPathComponent("Catalogs/Demo.storekit"), to: catalog)
        var entries: [String] = []
        for (index, (path, size)) in Self.files.enumerated() {
            let url = content.appendingPathComponent(path)
            try Data(Self.bytes(size, seed: UInt64(index + 1))).write(to: url)
            entries.append(#"{"path": "\#(path)", "size": \#(size), "sha256": "\#(try FileHash.sha256(url))"}"#)
        }
        let manifest = #"{"version": 1, "contentVersion": "2.1", "files": [\#(entries.joined(separator: ", "))]}"#
        try Data(manifest.utf8).write(to: content.appendingPathComponent("manifest.json"))
        #expect(try cli.run(["store", "set", "latency", "0"]).status == 0)
        #expect(try cli.run(["store", "set", "bandwidth", "0"]).status == 0)
    }

    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15
        var out = [UInt8](repeating: 0, count: count)
        for i in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            out[i] = UInt8(truncatingIfNeeded: state >> 33)
        }
        return out
    }

    func downloads() throws -> [[String: Any]] { try cli.array(["downloads"]) }

    func transactionID(_ stdout: String) throws -> String {
        let line = try #require(stdout.split(separator: "\n").first { $0.hasPrefix("Purchased") })
        let start = try #require(line.range(of: "(transaction ")).upperBound
        return String(line[start...].prefix { $0.isNumber })
    }

    /// Every content file installed in `DATA/Content/PRODUCT/2.1/` with the catalog's bytes.
    func installedIntact() throws -> Bool {
        let installed = data.appendingPathComponent("Content/\(Self.forest)/2.1")
        return try Self.files.allSatisfy { path, _ in
            let original = try Data(contentsOf: content.appendingPathComponent(path))
            return FileManager.default.contents(atPath: installed.appendingPathComponent(path).path) == original
        }
    }

    @Test func buyDownloadsWithPlainProgressLinesAndInstallsTheContent() throws {
        let buy = try cli.run(["buy", Self.forest])
        #expect(buy.status == 0, "\(buy.stderr)")
        #expect(buy.stdout.contains("Downloading Forest Level Pack: "))
        #expect(!buy.stdout.contains("\u{1B}["), "no terminal codes when output is not a terminal")
        #expect(
            buy.stdout.contains("Installed Forest Level Pack 2.1 (3.0 MB) in \(data.path)/Content/\(Self.forest)/2.1."))
        #expect(try installedIntact())
        let listed = try #require(try downloads().first)
        #expect(listed["state"] as? String == "finished")
        #expect(listed["percent"] as? Int == 100)
        #expect(listed["transactionID"] as? String == (try transactionID(buy.stdout)))
        let table = try cli.run(["downloads"])
        #expect(table.stdout.contains("finished") && table.stdout.contains("100%"))
    }

    @Test func aProcessKilledMidDownloadResumesFromItsLastDurableOffset() throws {
        let killed = try cli.run(["buy", Self.forest], environment: ["STOREFRONT_FAULT": "mid-download"])
        #expect(killed.signaled && killed.status == 9, "the process must die by SIGKILL at mid-download")
        let id = try transactionID(killed.stdout)
        var listed = try #require(try downloads().first)
        #expect(listed["id"] as? String == id)
        #expect(listed["state"] as? String == "waiting")
        #expect(listed["bytesWritten"] as? Int == 1_048_576, "the first checkpoint is durable")
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("Content/\(Self.forest)").path))

        // Killed again at its first checkpoint after resuming: that checkpoint lies 1 MiB into
        // the second file, so the resume did not start from zero.
        let again = try cli.run(["downloads", "resume", id], environment: ["STOREFRONT_FAULT": "mid-download"])
        #expect(again.signaled && again.status == 9)
        listed = try #require(try downloads().first)
        #expect(listed["bytesWritten"] as? Int == 1_500_000 + 1_048_576)

        let resumed = try cli.run(["downloads", "resume", id])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(resumed.stdout.contains("Installed Forest Level Pack 2.1"))
        #expect(try installedIntact())
        #expect(try downloads().first?["state"] as? String == "finished")
        let history = try cli.run(["history", "--json"])
        #expect(history.stdout.components(separatedBy: "\"transactionID\": \"\(id)\"").count == 2, "delivered once")
    }

    @Test func aFailedDownloadKeepsThePurchaseAndResumesOnceTheStoreStopsFailing() throws {
        #expect(try cli.run(["store", "set", "fail-downloads-at", "50"]).status == 0)
        let buy = try cli.run(["buy", Self.forest])
        #expect(buy.status == 1)
        #expect(buy.stdout.contains("The download of Forest Level Pack failed at 50%"))
        #expect(buy.stderr.contains("was not installed (failed); the purchase is kept"))
        let id = try transactionID(buy.stdout)
        #expect(try downloads().first?["state"] as? String == "failed")
        #expect(try cli.run(["history"]).stdout.contains(Self.forest), "the purchase is owned")

        #expect(try cli.run(["store", "set", "fail-downloads-at", "off"]).status == 0)
        let resumed = try cli.run(["downloads", "resume", Self.forest])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try installedIntact())
        #expect(try downloads().first { $0["id"] as? String == id }?["state"] as? String == "finished")
    }

    @Test func pauseAndCancelReachADownloadRunningInAnotherProcess() throws {
        #expect(try cli.run(["store", "set", "bandwidth", "200000"]).status == 0)
        let buy = try cli.start(["buy", Self.forest])
        // Wait (on the pipe, not the clock) until the download reports progress.
        let seen = buy.waitForStandardOutput { $0.contains("Downloading Forest Level Pack: 1") } ?? buy.wait().stdout
        let id = try transactionID(seen)

        let pause = try cli.run(["downloads", "pause", id])
        #expect(pause.status == 0, "\(pause.stderr)")
        #expect(pause.stdout.contains("Paused Forest Level Pack at"))
        let rest = buy.wait()
        #expect(rest.status == 0, "\(rest.stderr)")
        #expect(rest.stdout.contains("Paused Forest Level Pack at"))
        let paused = try #require(try downloads().first)
        #expect(paused["state"] as? String == "paused")
        let written = try #require(paused["bytesWritten"] as? Int)
        #expect(written > 0 && written < 3_000_000)

        let cancel = try cli.run(["downloads", "cancel", id])
        #expect(cancel.status == 0)
        #expect(cancel.stdout.contains("Cancelled the download of Forest Level Pack"))
        #expect(try downloads().first?["state"] as? String == "cancelled")
        #expect(!FileManager.default.fileExists(atPath: data.appendingPathComponent("Downloads/partial/\(id)").path))

        #expect(try cli.run(["store", "set", "bandwidth", "0"]).status == 0)
        #expect(try cli.run(["downloads", "resume", id]).status == 0)
        #expect(try installedIntact())
    }

    @Test func restoreDownloadsTheContentOfRestoredProductsOnANewDevice() throws {
        #expect(try cli.run(["buy", Self.forest]).status == 0)
        // A new device: the app's own state is gone, the store's account remains.
        for name in try FileManager.default.contentsOfDirectory(atPath: data.path) where name != "store" {
            try FileManager.default.removeItem(at: data.appendingPathComponent(name))
        }
        let restore = try cli.run(["restore"])
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(restore.stdout.contains("Restored 1 purchase"))
        #expect(restore.stdout.contains("Installed Forest Level Pack 2.1"))
        #expect(try installedIntact())
    }

    @Test func aSidecarThatDoesNotMatchItsFilesIsRejectedWhenTheCatalogLoads() throws {
        let file = content.appendingPathComponent("pack.json")
        var bytes = try Data(contentsOf: file)
        bytes[100] ^= 0x20
        try bytes.write(to: file)
        let result = try cli.run(["products"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(content.path)/manifest.json: $.files[2].sha256: is "))
        #expect(result.stderr.contains("pack.json has SHA-256"))
    }

    @Test func anotherProductsDamagedContentDoesNotStopASaleButItsOwnDoes() throws {
        let file = content.appendingPathComponent("pack.json")
        let original = try Data(contentsOf: file)
        var bytes = original
        bytes[100] ^= 0x20
        try bytes.write(to: file)
        // Coins have no content: only the files of what is sold are checked.
        let coins = try cli.object(["buy", "com.storefront.demo.coins.100"])
        #expect(coins["state"] as? String == "purchased")
        #expect((coins["transaction"] as? [String: Any])?["productID"] as? String == "com.storefront.demo.coins.100")
        // The forest's own file is damaged: the sale stops at the catalog's load, before any charge.
        let forest = try cli.run(["buy", Self.forest])
        #expect(forest.status == 1)
        #expect(forest.stderr.contains("\(content.path)/manifest.json: $.files[2].sha256: is "))
        #expect(forest.stderr.contains("pack.json has SHA-256"))
        try original.write(to: file)
        let transactions = try #require(try cli.object(["history"])["transactions"] as? [[String: Any]])
        #expect(transactions.compactMap { $0["productID"] as? String } == ["com.storefront.demo.coins.100"])
    }
}
