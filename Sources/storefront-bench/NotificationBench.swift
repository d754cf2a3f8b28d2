import AppStoreServer
import Catalog
import Foundation
import LocalAppStore
import Receipts
import StoreCore

/// `make bench notifications`: App Store Server Notifications delivered to a local receiver
/// (libmicrohttpd, answering 200 at once): a backlog of purchases' notifications drained by the
/// sender, beside a bare loop of HTTP POSTs of the same bodies to the same receiver; then the
/// latency from each purchase's journal write (the notification's `createdDate`) to its arrival,
/// in process and through `storefront serve` hearing other processes (`ServeLatency`).
struct NotificationBench: BenchSection {
    let name = "notifications"
    let summary =
        "notifications delivered per second and event-to-delivery latency, beside bare POSTs of the same bodies"

    static let backlog = 500
    static let latencySamples = 200

    func run(_ report: BenchReport) throws {
        let r = try Blocking.await { try await Self.measure() }
        report.line(
            "notifications delivered", String(format: "%.0f /s", r.delivered),
            "\(Self.backlog) queued purchases' notifications, signed, POSTed, each attempt journaled")
        report.line(
            "bare POSTs of the same bodies", String(format: "%.0f /s", r.bare),
            "\(BenchReport.ratio(r.delivered / r.bare)) of the bare loop")
        report.line("body size", "\(r.bodySize) B", "signedPayload with the signed transaction inside")
        report.line(
            "event → delivery p50", BenchReport.duration(r.p50),
            "\(r.samples) purchases one at a time, the sender woken in process")
        report.line(
            "event → delivery p99", BenchReport.duration(r.p99), "the sender woken in process (wake())")
        guard let binary = UIBench.storefrontBinary else {
            report.note("serve across processes: " + UIBench.noStorefront)
            return
        }
        let served = try Blocking.await {
            try await ServeLatency(binary: binary, samples: Self.latencySamples).measure()
        }
        report.line(
            "serve: event in another process → delivery p50", BenchReport.duration(served.p50),
            "\(served.samples) `storefront buy` processes one at a time; serve hears the journal's file-change "
                + "notification (inotify), no polling")
        report.line(
            "serve: event in another process → delivery p99", BenchReport.duration(served.p99), "goal ≤ 5 ms")
        if !served.slow.isEmpty {
            let median = { (values: [Double]) in values.sorted()[values.count / 2] }
            report.line(
                "serve: deliveries over 5 ms", "\(served.slow.count) of \(served.samples)",
                "in them, from the buy's start to the arrival, serve's threads ran "
                    + BenchReport.duration(median(served.slow.map(\.cpu))) + " and waited runnable for a CPU "
                    + BenchReport.duration(median(served.slow.map(\.waiting))) + " (medians; schedstat), the latency "
                    + BenchReport.duration(median(served.slow.map(\.latency))))
        }
        report.line(
            "serve idle: CPU and wakeups", String(format: "%.0f µs · %d", served.idleCPU * 1e6, served.idleWakeups),
            String(
                format: "all its threads over %.0f s with nothing happening (schedstat, context switches)",
                served.idleSeconds))
    }

    /// What one run measured.
    struct Result: Sendable {
        var delivered: Double
        var bare: Double
        var bodySize: Int
        var p50: Double
        var p99: Double
        var samples: Int
    }

    /// Counts what arrives, keeping each body and its arrival time.
    final class Receiver: @unchecked Sendable {
        private let lock = NSLock()
        private(set) var bodies: [Data] = []
        private var arrivals: [String: Date] = [:]
        private var waiters: [(id: Int, count: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        private var nextWaiter = 0
        var daemon: MicroHTTPDaemon?

        func record(_ body: Data) {
            let uuid = Self.uuid(of: body)
            lock.lock()
            bodies.append(body)
            if let uuid, arrivals[uuid] == nil { arrivals[uuid] = Date() }
            let count = bodies.count
            let ready = waiters.filter { $0.count <= count }
            waiters.removeAll { $0.count <= count }
            lock.unlock()
            for waiter in ready { waiter.continuation.resume(returning: true) }
        }

        /// Returns once `count` POSTs arrived in all.
        func waitFor(_ count: Int) async {
            _ = await waitFor(count, seconds: nil)
        }

        /// Returns whether `count` POSTs arrived in all, waiting at most `seconds` (nil: for ever).
        func waitFor(_ count: Int, seconds: Double?) async -> Bool {
            await withCheckedContinuation { continuation in
                lock.lock()
                guard bodies.count < count else {
                    lock.unlock()
                    continuation.resume(returning: true)
                    return
                }
                let id = nextWaiter
                nextWaiter += 1
                waiters.append((id, count, continuation))
                lock.unlock()
                guard let seconds else { return }
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
                    lock.lock()
                    let waiter = waiters.firstIndex { $0.id == id }.map { waiters.remove(at: $0) }
                    lock.unlock()
                    waiter?.continuation.resume(returning: false)
                }
            }
        }

        func arrival(of uuid: String) -> Date? {
            lock.lock()
            defer { lock.unlock() }
            return arrivals[uuid]
        }

        static func uuid(of body: Data) -> String? {
            guard let wrapper = try? JSONDecoder().decode(ResponseBodyV2.self, from: body),
                let part = wrapper.signedPayload?.split(separator: ".").dropFirst().first,
                let bytes = Base64URL.decode(part),
                let payload = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
            else { return nil }
            return payload["notificationUUID"] as? String
        }
    }

    static func measure() async throws -> Result {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "notificationbench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let receiver = Receiver()
        let daemon = try MicroHTTPDaemon(configuration: .init(threads: 2)) { request in
            receiver.record(request.body)
            return .empty(200)
        }
        receiver.daemon = daemon
        let url = "http://127.0.0.1:\(daemon.port)/notifications"
        let catalog = StoreKitConfiguration(
            file: "bench.storekit",
            products: [
                StoreKitConfiguration.Product(
                    id: "bench.coins", referenceName: "coins", kind: .consumable, price: Decimal(string: "0.99") ?? 1)
            ])
        let store = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: catalog, stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: root),
                initialLatencyMilliseconds: 0))
        try await store.settings.set(name: "notification-url", value: url)
        var events = await store.events().makeAsyncIterator()

        /// Buys one consumable and returns once the store journaled its charge (and notification).
        func purchase() async throws {
            let queued = try await store.add(Payment(productID: "bench.coins"))
            while let event = await events.next() {
                if case .transactionsUpdated(let updated) = event,
                    updated.contains(where: { $0.transactionID == queued.transactionID && $0.state == .purchased })
                {
                    try await store.finish(transactionID: queued.transactionID)
                    return
                }
            }
        }

        // A backlog, journaled while no sender runs, then drained.
        for _ in 0..<backlog { try await purchase() }
        let sender = NotificationSender(store: store, configuration: .init(watcher: nil))
        let drainStart = DispatchTime.now()
        await sender.start()
        sender.wake()
        await receiver.waitFor(backlog)
        let drained = Double(backlog) / Self.seconds(since: drainStart)

        // The same bodies, POSTed one after the other by the same client code.
        let bodies = receiver.bodies
        let delivery = NotificationDelivery()
        let target = try URL(string: url).unwrapped("receiver URL")
        let bareStart = DispatchTime.now()
        for body in bodies { _ = await delivery.post(body, to: target, timeout: .seconds(5)) }
        let bare = Double(bodies.count) / Self.seconds(since: bareStart)

        // Latency: one purchase at a time, from the journal write to the receiver.
        var latencies: [Double] = []
        for _ in 0..<latencySamples {
            let before = receiver.bodies.count
            try await purchase()
            sender.wake()
            await receiver.waitFor(before + 1)
            guard let newest = try await store.notifications.page(newest: 1).page.last?.notification,
                let arrived = receiver.arrival(of: newest.notificationUUID)
            else { continue }
            latencies.append(arrived.timeIntervalSince(newest.createdDate))
        }
        latencies.sort()
        let p50 = latencies.isEmpty ? 0 : latencies[latencies.count / 2]
        let p99 = latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))]
        await sender.stop()
        await daemon.stop()
        return Result(
            delivered: drained, bare: bare, bodySize: bodies.first?.count ?? 0, p50: p50, p99: p99,
            samples: latencies.count)
    }
}

extension NotificationBench {
    /// Seconds since `start`.
    static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}

extension Optional {
    /// The value, or a bench failure naming `what`.
    func unwrapped(_ what: String) throws -> Wrapped {
        guard let value = self else { throw Blocking.Failure(description: "no \(what)") }
        return value
    }
}
