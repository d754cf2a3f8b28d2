import Catalog
import Crypto
import Foundation
import LocalAppStore
import StoreCore

/// Hosted-content downloads from the local App Store at unlimited bandwidth: throughput beside
/// `cp` of the same file on the same disk in the same run, and peak memory as the content grows
/// from 1 MiB to 256 MiB (it must stay flat: content is streamed, never held whole).
struct DownloadBench: BenchSection {
    let name = "downloads"
    let summary = "hosted content: buy → download (SHA-256, 1 MiB fsync checkpoints) → atomic install, bandwidth 0"

    static let sizesMiB = [1, 16, 64, 256]

    func run(_ report: BenchReport) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("downloadbench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let catalogURL = try Self.makeCatalog(in: root)
        let catalog = try StoreKitConfiguration.load(contentsOf: catalogURL)

        var results: [(size: Int, seconds: Double, peak: Int)] = []
        for size in Self.sizesMiB {
            let data = root.appendingPathComponent("data-\(size)")
            let measured = try Blocking.await { try await Self.download(productID: "bench.\(size)", catalog: catalog, data: data) }
            results.append((size, measured.seconds, measured.peak))
            try? FileManager.default.removeItem(at: data)
        }

        // The peer: cp of the same content file to the same disk, right after.
        guard let largest = Self.sizesMiB.last, let ours = results.last else { return }
        let source = root.appendingPathComponent("Bench.content/bench.\(largest)/content.bin").path
        let copy = root.appendingPathComponent("cp-copy.bin").path
        let cp = try Timing.measure(runs: 3) {
            try? FileManager.default.removeItem(atPath: copy)
            try ChildProcess.run("cp", [source, copy])
        }
        let durableCopy = try Timing.measure(runs: 3) {
            try? FileManager.default.removeItem(atPath: copy)
            try ChildProcess.run("sh", ["-c", "cp \"$0\" \"$1\" && sync \"$1\"", source, copy])
        }
        let coarse = try Blocking.await {
            try await Self.download(productID: "bench.\(largest)", catalog: catalog, data: root.appendingPathComponent("data-coarse"), checkpoint: 16 << 20)
        }
        let bytes = Double(largest) * 1_048_576
        let ourRate = bytes / ours.seconds
        let coarseRate = bytes / coarse.seconds
        let cpRate = bytes / cp.minimum
        let syncedRate = bytes / durableCopy.minimum
        report.line("download \(largest) MiB, 1 MiB checkpoints", String(format: "%.0f MB/s", ourRate / 1e6),
                    "\(BenchReport.duration(ours.seconds)); \(BenchReport.ratio(ourRate / cpRate)) of cp, \(BenchReport.ratio(ourRate / syncedRate)) of cp+sync")
        report.line("download \(largest) MiB, 16 MiB checkpoints", String(format: "%.0f MB/s", coarseRate / 1e6),
                    "\(BenchReport.duration(coarse.seconds)); \(BenchReport.ratio(coarseRate / cpRate)) of cp, \(BenchReport.ratio(coarseRate / syncedRate)) of cp+sync")
        report.line("cp of the same file, same disk (peer)", String(format: "%.0f MB/s", cpRate / 1e6),
                    "\(cp.summary) (into the page cache: no hash, no fsync)")
        report.line("cp + sync of the file (peer, durable)", String(format: "%.0f MB/s", syncedRate / 1e6),
                    durableCopy.summary)
        for result in results {
            report.line("peak memory growth, \(result.size) MiB content", BenchReport.bytes(result.peak),
                        String(format: "%.1f MB/s", Double(result.size) * 1_048_576 / result.seconds / 1e6))
        }
        if let small = results.first, let large = results.last {
            let growth = Double(large.peak - small.peak) / 1_048_576
            report.line("memory 256 MiB vs 1 MiB content", String(format: "%+.1f MiB", growth),
                        String(format: "for %dx the content; 0 = flat (VmHWM − VmRSS before, peak reset per run)", large.size / max(1, small.size)))
        }
    }

    /// Buys `productID` on a fresh store and engine over `data` and waits for its content;
    /// returns the time from purchase to installed and the peak RSS growth meanwhile.
    static func download(
        productID: String, catalog: StoreKitConfiguration, data: URL, checkpoint: Int64 = 1 << 20
    ) async throws -> (seconds: Double, peak: Int) {
        let backend = try LocalAppStore(configuration: LocalAppStoreConfiguration(
            catalog: catalog, stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: data),
            initialLatencyMilliseconds: 0))
        try await backend.set(name: "bandwidth", value: "0")
        let store = Store(
            backend: backend, ledger: try FileLedger(path: data.appendingPathComponent("ledger.jsonl").path),
            configuration: StoreConfiguration(downloads: DownloadConfiguration(dataDirectory: data, checkpointBytes: checkpoint)))
        await store.start()
        guard let manager = store.downloads else { throw Blocking.Failure(description: "downloads are off") }
        let before = ProcessMemory.resident() ?? 0
        _ = ProcessMemory.resetPeak()
        let clock = ContinuousClock()
        let start = clock.now
        let result = await store.purchase(productID)
        guard let id = result.transaction?.transactionID else { throw Blocking.Failure(description: "the purchase failed: \(result)") }
        let download = try await manager.waitUntilSettled(id)
        let elapsed = start.duration(to: clock.now)
        let peak = (ProcessMemory.peak() ?? 0) - before
        guard download.state == .finished else {
            throw Blocking.Failure(description: "the download ended \(download.state): \(String(describing: download.error))")
        }
        await store.stop()
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, max(0, peak))
    }

    /// A catalog `Bench.storekit` with one non-consumable per size, each with one content file
    /// of that size (written in 1 MiB blocks, never held whole).
    static func makeCatalog(in root: URL) throws -> URL {
        let products = sizesMiB.map { size in
            """
            { "displayPrice": "0.99", "familyShareable": false, "internalID": "\(size)",
              "localizations": [ { "description": "\(size) MiB", "displayName": "Bench \(size)", "locale": "en_US" } ],
              "productID": "bench.\(size)", "referenceName": "bench \(size)", "type": "NonConsumable" }
            """
        }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let catalog = root.appendingPathComponent("Bench.storekit")
        try Data(#"{ "products": [\#(products.joined(separator: ","))], "version": { "major": 4, "minor": 0 } }"#.utf8).write(to: catalog)
        var block = [UInt8](repeating: 0, count: 1 << 20)
        var state: UInt64 = 0x2545F4914F6CDD1D
        for i in block.indices {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            block[i] = UInt8(truncatingIfNeeded: state >> 33)
        }
        for size in sizesMiB {
            let directory = root.appendingPathComponent("Bench.content/bench.\(size)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let path = directory.appendingPathComponent("content.bin")
            _ = FileManager.default.createFile(atPath: path.path, contents: nil)
            let handle = try FileHandle(forWritingTo: path)
            var digest = try Crypto.Digest(.sha256)
            for index in 0..<size {
                block[0] = UInt8(truncatingIfNeeded: index)
                try handle.write(contentsOf: block)
                try block.withUnsafeBytes { try digest.update($0) }
            }
            try handle.close()
            let manifest = #"{"version": 1, "contentVersion": "1", "files": [{"path": "content.bin", "size": \#(size << 20), "sha256": "\#(try digest.finalize().hexString)"}]}"#
            try Data(manifest.utf8).write(to: directory.appendingPathComponent("manifest.json"))
        }
        return catalog
    }
}
