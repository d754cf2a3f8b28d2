import Catalog
import Foundation
import LocalAppStore

/// What a CLI command costs as the notifications ever made grow: data directories with
/// `notification-url` set and 100 or 100,000 delivered notifications (made through the library
/// as the server's sender leaves them: a test notification requested, signed, and its
/// successful attempt recorded, fsync off), then the same commands run as whole processes.
/// Printed as the ratio of the largest to the smallest. Goal: ≤ 1.2× for every command; `store
/// notifications` prints one page (the newest 50), so it is held to it too.
struct OutboxBench: BenchSection {
    let name = "outbox"
    let summary = "CLI commands as whole processes at 100 and 100,000 delivered notifications (goal: ≤ 1.2×)"
    /// Notifications to seed; `STOREFRONT_BENCH_OUTBOX=100,10000` picks others. Settled
    /// notifications leave the journal's snapshot for the outbox archive at each compaction, so
    /// seeding is no longer quadratic; its cost a notification still rises slowly (each
    /// compaction that moves notifications writes the whole outbox index anew).
    var sizes: [Int] =
        ProcessInfo.processInfo.environment["STOREFRONT_BENCH_OUTBOX"]
        .map { $0.split(separator: ",").compactMap { Int($0) } } ?? [100, 100_000]
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
                what: "notifications",
                how: "requested, signed, delivered attempt recorded, through the library (fsync off)"
            ) { count, directory in try await Self.seed(count: count, catalog: catalog, in: directory) }
            for command in Self.commands {
                _ = try scaling.time(report, command.name, command.arguments)
            }
        }
    }

    /// `count` delivered test notifications in `dataDirectory` (created), with
    /// `notification-url` set.
    static func seed(count: Int, catalog: StoreKitConfiguration, in dataDirectory: URL) async throws {
        let store = try BenchStore.seeding(catalog, in: dataDirectory)
        try await store.settings.set(name: "notification-url", value: "http://127.0.0.1:9/notifications")
        for _ in 0..<count {
            _ = try await store.notifications.requestTest()
            guard let n = try await store.notifications.due(by: .distantFuture).due.first else {
                throw BenchFailure(description: "the test notification is not due")
            }
            try await store.notifications.recordAttempt(
                n.notificationUUID, SendAttemptItem(attemptDate: Date(), sendAttemptResult: .success),
                signedPayload: try await store.notifications.signedPayload(of: n))
        }
    }
}
