import AppStoreServer
import Catalog
import Foundation
import LocalAppStore
import SystemIO

/// `storefront serve` as people run it: the built server over a data directory, each event made
/// by another process (`storefront buy`) and delivered to a local receiver. Measures the latency
/// from the buy's journal write (the notification's `createdDate`) to its arrival, which the
/// server hears only through the store's file-change notification, and what the server does
/// while nothing happens (CPU time and wakeups of all its threads).
struct ServeLatency {
    /// What one run measured.
    struct Result {
        var p50: Double
        var p99: Double
        var samples: Int
        /// Seconds on a CPU of all the server's threads over `idleSeconds` with nothing happening.
        var idleCPU: Double
        /// Context switches of all its threads over the same time.
        var idleWakeups: Int
        var idleSeconds: Double
        /// The samples slower than the goal (5 ms), each with what the server's threads did
        /// from the buy's start to the arrival: seconds on a CPU and seconds runnable but
        /// waiting for one (schedstat), which no code of ours can shorten.
        var slow: [(latency: Double, cpu: Double, waiting: Double)]
    }

    /// The built `storefront`.
    let binary: String
    /// How many purchases, one at a time.
    let samples: Int
    /// How long the server is watched idle, in seconds.
    let idleSeconds = 3.0

    func measure() async throws -> Result {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("servebench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let receiver = NotificationBench.Receiver()
        let daemon = try MicroHTTPDaemon(configuration: .init(threads: 2)) { request in
            receiver.record(request.body)
            return .empty(200)
        }
        do {
            let result = try await measure(in: root, receiver: receiver, port: daemon.port)
            await daemon.stop()
            return result
        } catch {
            await daemon.stop()
            throw error
        }
    }

    private func measure(in root: URL, receiver: NotificationBench.Receiver, port: UInt16) async throws -> Result {
        let catalog = URL(fileURLWithPath: "Catalogs/Demo.storekit").standardizedFileURL
        let global = ["--catalog", catalog.path, "--data-dir", root.path]
        let storefront = { (arguments: [String]) throws in try ChildProcess.run(binary, global + arguments) }
        try storefront(["store", "set", "latency", "0"])
        try storefront(["store", "set", "notification-url", "http://127.0.0.1:\(port)/notifications"])
        // The store as the journal holds it, read-only, for each notification's createdDate.
        let store = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: try StoreKitConfiguration.load(contentsOf: catalog),
                stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: root), readOnly: true))
        let server = try ServerChild(binary: binary, arguments: global)
        defer { server.stop() }
        var latencies: [Double] = []
        var slow: [(latency: Double, cpu: Double, waiting: Double)] = []
        for _ in 0..<samples {
            let before = receiver.bodies.count
            let activity = ProcessActivity.of(server.pid)
            try storefront(["buy", "com.storefront.demo.coins.100"])
            guard await receiver.waitFor(before + 1, seconds: 30) else {
                throw BenchFailure(description: "serve did not deliver a purchase's notification within 30 s")
            }
            guard let newest = try await store.notifications.page(newest: 1).page.last?.notification,
                let arrived = receiver.arrival(of: newest.notificationUUID)
            else { continue }
            let latency = arrived.timeIntervalSince(newest.createdDate)
            latencies.append(latency)
            if latency > 0.005 {
                let served = ProcessActivity.of(server.pid).since(activity)
                slow.append((latency, Double(served.cpuNanoseconds) / 1e9, Double(served.waitingNanoseconds) / 1e9))
            }
        }
        latencies.sort()
        let start = ProcessActivity.of(server.pid)
        try await Task.sleep(for: .seconds(idleSeconds))
        let idle = ProcessActivity.of(server.pid).since(start)
        return Result(
            p50: latencies.isEmpty ? 0 : latencies[latencies.count / 2],
            p99: latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))],
            samples: latencies.count, idleCPU: Double(idle.cpuNanoseconds) / 1e9,
            idleWakeups: idle.contextSwitches, idleSeconds: idleSeconds, slow: slow)
    }

    /// `storefront serve --port 0` running until `stop()`: started once it printed its URL.
    private final class ServerChild {
        private let child: SpawnedChild
        var pid: Int32 { child.pid }

        init(binary: String, arguments: [String]) throws {
            child = try SpawnedChild(binary, arguments + ["serve", "--port", "0"], output: .pipe)
            guard let output = child.output else { throw BenchFailure(description: "storefront serve has no output") }
            // Its first line is its URL, printed once it listens and watches.
            var seen: [UInt8] = []
            while !seen.contains(UInt8(ascii: "\n")) {
                let chunk = (try? PipeReader.read(descriptor: output.fileDescriptor)) ?? []
                if chunk.isEmpty { throw BenchFailure(description: "storefront serve ended before printing its URL") }
                seen.append(contentsOf: chunk)
            }
            // The rest of its log (a line a request and an attempt) is left to the pipe's buffer
            // and then to a reader that discards it, so the server never blocks on it.
            DispatchQueue.global().async {
                _ = SpawnedChild.readToEnd(output)
            }
        }

        func stop() {
            kill(pid, SIGTERM)
            child.wait()
        }
    }
}
