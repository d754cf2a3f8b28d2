import Foundation
import StoreTesting
import SystemIO
import Testing

@testable import StoreCore

@Suite(.timeLimit(.minutes(10)))
struct DownloadDiskFaultTests {
    /// Installs the sticker set first, so each test can check that nothing installed is lost.
    func installStickers(_ f: DownloadFixture, _ store: Store) async throws {
        let t = try #require(await store.purchase("stickers").transaction)
        #expect(try await f.settle(store, t.transactionID).state == .finished)
    }

    func stickersIntact(_ f: DownloadFixture) -> Bool {
        f.installed("stickers/cat.svg", product: "stickers", version: "3")
            == Data(f.otherContent.files["stickers/cat.svg"] ?? [])
    }

    @Test func aFullDiskFailsClearlyLosesNothingInstalledAndResumesOnceSpaceIsFree() async throws {
        let f = try await DownloadFixture()
        let disk = FaultInjectingFileSystem()
        let store = try await f.makeStore(f.configuration(fileSystem: disk))
        try await installStickers(f, store)

        disk.setFreeSpace(60_000)
        let t = try #require(await store.purchase("levels").transaction)
        let failed = try await f.settle(store, t.transactionID)
        #expect(failed.state == .failed)
        guard case .diskFull(let path)? = failed.error else {
            Issue.record("expected diskFull, got \(String(describing: failed.error))")
            return
        }
        #expect(path.hasPrefix(f.dataDirectory.appendingPathComponent("Downloads").path))
        #expect(failed.error?.description.contains("The disk is full") == true)
        #expect(stickersIntact(f))
        #expect(f.installed("README.txt") == nil)
        #expect(try await store.isPurchased("levels"))
        #expect(try await store.unfinishedTransactions().map(\.transactionID) == [t.transactionID])

        disk.setFreeSpace(nil)
        try await store.downloads?.resume(t.transactionID)
        let done = try await f.settle(store, t.transactionID, reaching: .finished)
        #expect(done.state == .finished)
        #expect(try #require(await f.backend.contentRequests.last { $0.path == "levels/001.json" }).offset > 0)
        #expect(f.installed("levels/001.json") == Data(f.content.files["levels/001.json"] ?? []))
        #expect(stickersIntact(f))
    }

    @Test func anUnwritableContentDirectoryFailsClearlyAndLosesNothingInstalled() async throws {
        let f = try await DownloadFixture()
        let disk = FaultInjectingFileSystem()
        let store = try await f.makeStore(f.configuration(fileSystem: disk))
        try await installStickers(f, store)

        let content = f.dataDirectory.appendingPathComponent("Content").path
        disk.denyWrites(under: content)
        let t = try #require(await store.purchase("levels").transaction)
        let failed = try await f.settle(store, t.transactionID)
        #expect(failed.state == .failed)
        guard case .notWritable(let path, let reason)? = failed.error else {
            Issue.record("expected notWritable, got \(String(describing: failed.error))")
            return
        }
        #expect(path.hasPrefix(content))
        #expect(reason == "Permission denied")
        #expect(stickersIntact(f))
        #expect(f.installed("README.txt") == nil)
        #expect(await f.backend.finished.count == 1)

        disk.denyWrites(under: nil)
        let requests = await f.backend.contentRequests.count
        try await store.downloads?.resume(t.transactionID)
        #expect(try await f.settle(store, t.transactionID, reaching: .finished).state == .finished)
        // Every byte was already verified: only the install step was repeated.
        #expect(await f.backend.contentRequests.count == requests)
        #expect(f.installed("levels/002.json") == Data(f.content.files["levels/002.json"] ?? []))
    }

    @Test func aDataDirectoryThatIsNotADirectoryFailsWithARealError() async throws {
        let f = try await DownloadFixture()
        try FileManager.default.createDirectory(at: f.dataDirectory, withIntermediateDirectories: true)
        // A regular file where the downloads directory belongs: root cannot write through it either.
        try Data("not a directory".utf8).write(to: f.dataDirectory.appendingPathComponent("Downloads"))
        let store = try await f.makeStore(f.configuration())
        let t = try #require(await store.purchase("levels").transaction)
        let d = try await f.settle(store, t.transactionID, reaching: .failed)
        guard case .notWritable(let path, _)? = d.error else {
            Issue.record("expected notWritable, got \(String(describing: d.error))")
            return
        }
        #expect(path == f.dataDirectory.appendingPathComponent("Downloads").path)
        #expect(await f.backend.finished.isEmpty)
    }
}
