import Catalog
import Foundation
import LocalAppStore

/// What a CLI command costs as the notifications ever made grow: data directories with
/// `notification-url` set and 100 or 10,000 delivered notifications (made through the library
/// as the server's sender leaves them: a test notification requested, signed, and its
/// successful attempt recorded, fsync off), then the same commands run as whole processes.
/// Printed as the ratio of the largest to the smallest. Goal: ≤ 1.2× for every command but
/// `store notifications`, whose output lists them all.
struct OutboxBench: BenchSection {
    let name = "outbox"
    let summary = "CLI commands as whole processes at 100 and 10,000 delivered notifications (goal: ≤ 1.2× but the listing)"
    /// Notifications to seed; `STOREFRONT_BENCH_OUTBOX=100,100000` picks others. 10,000 by
    /// default while the outbox lives in the compacted snapshot: seeding is then quadratic
    /// (30 s for 10,000 on 2 cores, so about 50 minutes for 100,000).
    var sizes: [Int] = ProcessInfo.processInfo.environment["STOREFRONT_BENCH_OUTBOX"]
        .map { $0.split(separator: ",").compactMap { Int($0) } } ?? [100, 10_000]
    var runs = 5

    static let commands: [(name: String, arguments: [String])] = [
        ("store settings", ["store", "settings"]),
        ("buy", ["buy", "com.storefront.demo.coins.100"]),
        ("store notifications", ["store", "notifications"]),
    ]

    func run(_ report: BenchReport) throws {
        guard let binary = UIBench.storefrontBinary else { return report.note(UIBench.noStorefront) }
        let catalogURL = URL(fileURLWithPath: "Catalogs/Demo.storekit").standardizedFileURL
        let catalog = try StoreKitConfiguration.load(contentsOf: catalogURL)
        try ScratchDirectory.with("outbox") { root in
            let scaling = try ScalingRun.seeding(
                report, binary: binary, global: ["--catalog", catalogURL.path], sizes: sizes, runs: runs, root: root,
                what: "notifications", how: "requested, signed, delivered attempt recorded, through the library (fsync off)"
            ) { count, directory in try await Self.seed(count: count, catalog: catalog, in: directory) }
            for command in Self.commands {
                let grows = command.name == "store notifications" ? "its output lists every notification" : nil
                try scaling.time(report, command.name, command.arguments, grows: grows)
            }
        }
    }

    /// `count` delivered test notifications in `dataDirectory` (created), with
    /// `notification-url` set.
    static func seed(count: Int, catalog: StoreKitConfiguration, in dataDirectory: URL) async throws {
        try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
        let store = try LocalAppStore(configuration: LocalAppStoreConfiguration(
            catalog: catalog, stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: dataDirectory),
            initialLatencyMilliseconds: 0, syncsWrites: false))
        try await store.set(name: "notification-url", value: "http://127.0.0.1:9/notifications")
        for _ in 0..<count {
            _ = try await store.requestTestNotification()
            guard let n = try await store.dueNotifications(by: .distantFuture).due.first else {
                throw BenchFailure(description: "the test notification is not due")
            }
            try await store.recordAttempt(
                n.notificationUUID, SendAttemptItem(attemptDate: Date(), sendAttemptResult: .success),
                signedPayload: try await store.signedPayload(of: n))
        }
    }
}
