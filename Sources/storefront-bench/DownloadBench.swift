import Catalog
import Crypto
import Foundation
import LocalAppStore
import StoreCore
import SystemIO

/// Hosted-content downloads from the local App Store at unlimited bandwidth, timed from
/// `resume` to installed (the purchase's own durable writes are not the download's), beside
/// `cp` + `sync` of the same file, `openssl dgst -sha256` of it (the SHA-256 every verified
/// download must compute: on a loaded machine it alone can take longer than `cp` + `sync`) and
/// two bare loops on the same disk in the same run: one `fdatasync` per 1 MiB written (the
/// floor of checkpoints that each wait for the disk) and one `fdatasync` after all of it (the
/// floor of any durable copy). The 256 MiB download and its peers alternate three times (the
/// machine is shared: ratios within the run count), with the CPU seconds each used. Peak
/// memory is read as the content grows from 1 MiB to 256 MiB (it must stay flat).
struct DownloadBench: BenchSection {
    let name = "downloads"
    let summary = "hosted content: resume → download (SHA-256, 1 MiB checkpoints) → atomic install, bandwidth 0"

    static let sizesMiB = [1, 16, 64, 256]
    static let rounds = 3

    func run(_ report: BenchReport) throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("downloadbench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let catalogURL = try Self.makeCatalog(in: root)
        let catalog = try StoreKitConfiguration.load(contentsOf: catalogURL)
        guard let largest = Self.sizesMiB.last else { return }
        let source = root.appendingPathComponent("Bench.content/bench.\(largest)/content.bin").path
        let copy = root.appendingPathComponent("cp-copy.bin").path
        var serial = 0
        func download(_ size: Int, checkpoint: Int64 = 1 << 20) throws -> (seconds: Double, peak: Int, cpu: Double) {
            serial += 1
            let data = root.appendingPathComponent("data-\(serial)")
            defer { try? FileManager.default.removeItem(at: data) }
            return try Blocking.await {
                try await Self.download(
                    productID: "bench.\(size)", catalog: catalog, data: data, checkpoint: checkpoint)
            }
        }

        var results: [(size: Int, seconds: Double, peak: Int)] = []
        for size in Self.sizesMiB.dropLast() {
            let measured = try download(size)
            results.append((size, measured.seconds, measured.peak))
        }
        // The 256 MiB download, cp + sync of the same file and its SHA-256 alone alternate, so
        // load hits them alike.
        var ours: [Double] = []
        var synced: [Double] = []
        var hashed: [Double] = []
        var ourCPU: [Double] = []
        var syncedCPU: [Double] = []
        var hashedCPU: [Double] = []
        func child(_ script: String) throws -> (seconds: Double, cpu: Double) {
            let before = CPUTime.ofChildren()
            let seconds = try Timing.measure(runs: 1) { try ChildProcess.run("sh", ["-c", script, source, copy]) }
                .minimum
            return (seconds, CPUTime.ofChildren() - before)
        }
        for round in 0..<Self.rounds {
            let measured = try download(largest)
            if round == 0 { results.append((largest, measured.seconds, measured.peak)) }
            ours.append(measured.seconds)
            ourCPU.append(measured.cpu)
            try? FileManager.default.removeItem(atPath: copy)
            let cpSync = try child("cp \"$0\" \"$1\" && sync \"$1\"")
            synced.append(cpSync.seconds)
            syncedCPU.append(cpSync.cpu)
            let digest = try child("openssl dgst -sha256 \"$0\" > /dev/null")
            hashed.append(digest.seconds)
            hashedCPU.append(digest.cpu)
        }
        let cp = try Timing.measure(runs: 3) {
            try? FileManager.default.removeItem(atPath: copy)
            try ChildProcess.run("cp", [source, copy])
        }
        try? FileManager.default.removeItem(atPath: copy)
        let perCheckpoint = try Self.bareLoop(copy, mebibytes: largest, syncEvery: 1)
        let once = try Self.bareLoop(copy, mebibytes: largest, syncEvery: largest)
        try? FileManager.default.removeItem(atPath: copy)
        let coarse = try download(largest, checkpoint: 16 << 20)

        let bytes = Double(largest) * 1_048_576
        let mine = Timing(runs: ours.sorted())
        let peer = Timing(runs: synced.sorted())
        let hash = Timing(runs: hashed.sorted())
        func cpu(_ seconds: [Double]) -> String { String(format: "%.2f s CPU", seconds.sorted()[seconds.count / 2]) }
        func rate(_ seconds: Double) -> String { String(format: "%.0f MB/s", bytes / seconds / 1e6) }
        report.line(
            "download \(largest) MiB, 1 MiB checkpoints", rate(mine.minimum),
            "\(mine.summary); \(BenchReport.ratio(cp.minimum / mine.minimum)) of cp")
        report.line("cp + sync of the file (peer, durable)", rate(peer.minimum), peer.summary)
        report.line(
            "download / cp + sync, same rounds", BenchReport.ratio(peer.minimum / mine.minimum),
            "min over min; median over median \(BenchReport.ratio(peer.median / mine.median)); goal ≥ 0.8×")
        report.line("SHA-256 alone of the file (openssl dgst, peer)", rate(hash.minimum), hash.summary)
        report.line(
            "SHA-256 alone / cp + sync, same rounds", BenchReport.ratio(min(1, peer.minimum / hash.minimum)),
            "cp + sync over dgst (capped at 1×): no verified copy on one thread beats this")
        report.line(
            "CPU a run (median): download / cp + sync / dgst", cpu(ourCPU),
            "\(cpu(syncedCPU)) / \(cpu(hashedCPU)) (user + system; the download's includes serving)")
        report.line(
            "download \(largest) MiB, 16 MiB checkpoints", rate(coarse.seconds),
            "\(BenchReport.duration(coarse.seconds)); \(BenchReport.ratio(peer.minimum / coarse.seconds)) of cp+sync")
        report.line(
            "cp of the same file, same disk (peer)", rate(cp.minimum),
            "\(cp.summary) (into the page cache: no hash, no fsync)")
        report.line(
            "bare pwrite 1 MiB + fdatasync loop", rate(perCheckpoint),
            String(
                format: "%.1f ms a sync: the floor of checkpoints that each wait for the disk",
                perCheckpoint / Double(largest) * 1000))
        report.line("bare pwrite \(largest) MiB + one fdatasync", rate(once), "the floor of any durable copy")
        for result in results {
            report.line(
                "peak memory growth, \(result.size) MiB content", BenchReport.bytes(result.peak),
                String(format: "%.1f MB/s", Double(result.size) * 1_048_576 / result.seconds / 1e6))
        }
        if let small = results.first, let large = results.last {
            let growth = Double(large.peak - small.peak) / 1_048_576
            report.line(
                "memory \(largest) MiB vs 1 MiB content", String(format: "%+.1f MiB", growth),
                String(
                    format: "for %dx the content; 0 = flat (VmHWM − VmRSS before, peak reset per run)",
                    large.size / max(1, small.size)))
        }
    }

    /// Seconds to write `mebibytes` MiB to a new file at `path` in 1 MiB `pwrite`s with an
    /// `fdatasync` after every `syncEvery` of them (and after the last).
    static func bareLoop(_ path: String, mebibytes: Int, syncEvery: Int) throws -> Double {
        let fs = POSIXFileSystem()
        try? fs.removeFile(path)
        let file = try fs.open(path, [.write, .create, .truncate], mode: 0o600)
        defer { fs.close(file) }
        let block = [UInt8](repeating: 0x5A, count: 1 << 20)
        return try Timing.measure(runs: 1) {
            for index in 0..<mebibytes {
                try fs.write(file, block, at: UInt64(index) << 20)
                if (index + 1) % syncEvery == 0 || index == mebibytes - 1 { try fs.synchronize(file, .data) }
            }
        }.minimum
    }

    /// Buys `productID` on a fresh store and engine over `data` (downloads wait to be asked
    /// for), then resumes its download and waits for it; returns the time from `resume` to
    /// installed and the peak RSS growth meanwhile.
    static func download(
        productID: String, catalog: StoreKitConfiguration, data: URL, checkpoint: Int64 = 1 << 20
    ) async throws -> (seconds: Double, peak: Int, cpu: Double) {
        let backend = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: catalog, stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: data),
                initialLatencyMilliseconds: 0))
        try await backend.settings.set(name: "bandwidth", value: "0")
        let store = Store(
            backend: backend, ledger: try FileLedger(path: data.appendingPathComponent("ledger.jsonl").path),
            configuration: StoreConfiguration(
                downloads: DownloadConfiguration(
                    dataDirectory: data, checkpointBytes: checkpoint, startsAutomatically: false)))
        await store.start()
        guard let manager = store.downloads else { throw Blocking.Failure(description: "downloads are off") }
        let result = await store.purchase(productID)
        guard let id = result.transaction?.transactionID else {
            throw Blocking.Failure(description: "the purchase failed: \(result)")
        }
        let before = ProcessMemory.resident() ?? 0
        _ = ProcessMemory.resetPeak()
        let clock = ContinuousClock()
        let cpuBefore = CPUTime.ofSelf()
        let start = clock.now
        try await manager.resume(id)
        let download = try await manager.waitUntilSettled(id)
        let elapsed = start.duration(to: clock.now)
        let cpu = CPUTime.ofSelf() - cpuBefore
        let peak = (ProcessMemory.peak() ?? 0) - before
        guard download.state == .finished else {
            throw Blocking.Failure(
                description: "the download ended \(download.state): \(String(describing: download.error))")
        }
        await store.stop()
        return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, max(0, peak), cpu)
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
        try Data(#"{ "products": [\#(products.joined(separator: ","))], "version": { "major": 4, "minor": 0 } }"#.utf8)
            .write(to: catalog)
        var block = [UInt8](repeating: 0, count: 1 << 20)
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        for i in block.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
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
            let manifest =
                #"{"version": 1, "contentVersion": "1", "files": [{"path": "content.bin", "size": \#(size << 20), "sha256": "\#(try digest.finalize().hexString)"}]}"#
            try Data(manifest.utf8).write(to: directory.appendingPathComponent("manifest.json"))
        }
        return catalog
    }
}
