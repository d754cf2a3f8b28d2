import Foundation
import StoreTesting
import SystemIO
import TestSupport
import Testing

@testable import StoreCore

/// A backend selling a product with hosted content, a data directory, and helpers that move
/// the download along by advancing a manual clock (never the wall clock).
struct DownloadFixture {
    static let product = Product(
        id: "levels", type: .nonConsumable, displayName: "Level Pack", description: "Twenty levels",
        price: 1.99, displayPrice: "$1.99", currencyCode: "USD", hasDownloads: true)
    static let other = Product(
        id: "stickers", type: .nonConsumable, displayName: "Stickers", description: "Stickers",
        price: 0.99, displayPrice: "$0.99", currencyCode: "USD", hasDownloads: true)

    let dir: TemporaryDirectory
    let backend: QueueBackend
    let clock = ManualClock()
    let content: HostedContent
    let otherContent: HostedContent

    init() async throws {
        dir = try TemporaryDirectory()
        backend = QueueBackend(products: QueueBackend.demoProducts + [Self.product, Self.other])
        content = try HostedContent(
            productID: "levels", version: "1.2",
            files: [
                ("levels/001.json", patternBytes(150_000, seed: 1)),
                ("levels/002.json", patternBytes(70_001, seed: 2)),
                ("README.txt", Array("Twenty levels.\n".utf8)),
                ("empty.dat", []),
            ])
        otherContent = try HostedContent(
            productID: "stickers", version: "3",
            files: [
                ("stickers/cat.svg", patternBytes(9_000, seed: 3))
            ])
        await backend.setContent(content)
        await backend.setContent(otherContent)
    }

    var dataDirectory: URL { dir.url.appendingPathComponent("data") }

    func configuration(
        data: URL? = nil, fileSystem: any FileSystem = POSIXFileSystem(),
        checkpoint: Int64 = 16_384, center: NotificationCenter = NotificationCenter()
    ) -> StoreConfiguration {
        StoreConfiguration(
            notificationCenter: center, clock: clock,
            downloads: DownloadConfiguration(
                dataDirectory: data ?? dataDirectory, checkpointBytes: checkpoint, fileSystem: fileSystem))
    }

    func makeStore(_ configuration: StoreConfiguration, ledger name: String = "ledger.jsonl") async throws -> Store {
        let ledger = try FileLedger(path: dir.path(name))
        let store = Store(backend: backend, ledger: ledger, configuration: configuration)
        await store.start()
        return store
    }

    /// Advances the clock one second whenever something sleeps on it, until `condition` holds.
    func drive(until condition: () async -> Bool) async {
        for _ in 0..<2_000_000 {
            if await condition() { return }
            if clock.sleeperCount > 0 { clock.advance(by: 1) } else { await Task.yield() }
        }
        Issue.record("the condition never held")
    }

    /// Drives until download `id` has written `bytes` bytes or more.
    func drive(_ store: Store, _ id: String, toBytes bytes: Int64) async throws {
        let manager = try #require(store.downloads)
        await drive { (await manager.download(id: id)?.bytesWritten ?? 0) >= bytes }
    }

    /// Buys `levels` on `store` and drives until its download has written `bytes` bytes or more:
    /// the transaction's ID.
    func buyLevels(_ store: Store, drivenTo bytes: Int64) async throws -> String {
        let id = try #require(await store.purchase("levels").transaction).transactionID
        try await drive(store, id, toBytes: bytes)
        return id
    }

    /// Drives until download `id` is no longer waiting or active, and returns it.
    func settle(_ store: Store, _ id: String) async throws -> Download {
        let manager = try #require(store.downloads)
        await drive {
            guard let state = await manager.download(id: id)?.state else { return false }
            return state != .waiting && state != .active
        }
        return try #require(await manager.download(id: id))
    }

    /// Drives until download `id` is in `state` (after a restart, where it may first still
    /// show its state from before), and returns it.
    func settle(_ store: Store, _ id: String, reaching state: DownloadState) async throws -> Download {
        let manager = try #require(store.downloads)
        await drive { await manager.download(id: id)?.state == state }
        return try #require(await manager.download(id: id))
    }

    /// Buys "levels" with the content gated on a clock of its own, lets the transfer take `steps`
    /// one-second steps of that clock, and returns the store and the purchase's transaction ID.
    func buyLevelsAndTransfer(steps: Int) async throws -> (store: Store, id: String) {
        let gate = ManualClock()
        await backend.setContentGate(gate)
        let store = try await makeStore(configuration())
        let id = try #require(await store.purchase("levels").transaction).transactionID
        await gate.step(steps, by: 1)
        return (store, id)
    }

    /// The process "dies": its downloads stop where they are, without a last checkpoint or any
    /// clean-up, and the store is never used again.
    func die(_ store: Store) async {
        await store.downloads?.simulateProcessDeath()
        await backend.detach()
        await store.stop()
    }

    func installed(_ path: String, product: String = "levels", version: String = "1.2", data: URL? = nil) -> Data? {
        FileManager.default.contents(
            atPath: (data ?? dataDirectory).appendingPathComponent("Content/\(product)/\(version)/\(path)").path)
    }

    func partialPath(_ id: String, _ path: String) -> String {
        dataDirectory.appendingPathComponent("Downloads/partial/\(id)/\(path)").path
    }
}
