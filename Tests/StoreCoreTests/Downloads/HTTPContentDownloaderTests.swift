import Crypto
import Foundation
import StoreTesting
import TestSupport
import Testing

@testable import StoreCore

/// Self-hosted content: `HTTPContentDownloader` against a real HTTP server on 127.0.0.1 that
/// supports byte ranges.
@Suite(.timeLimit(.minutes(10)))
struct HTTPContentDownloaderTests {
    static let product = Product(
        id: "remote", type: .nonConsumable, displayName: "Remote Pack", description: "Self-hosted",
        price: 2.99, displayPrice: "$2.99", currencyCode: "USD", hasDownloads: true)

    let dir: TemporaryDirectory
    let clip = patternBytes(200_000, seed: 11)
    let notes = Array("self-hosted notes\n".utf8)

    init() throws {
        dir = try TemporaryDirectory()
        let www = dir.url.appendingPathComponent("www/remote")
        try FileManager.default.createDirectory(
            at: www.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data(clip).write(to: www.appendingPathComponent("clip.bin"))
        try Data(notes).write(to: www.appendingPathComponent("sub/notes.txt"))
        let files = try [("clip.bin", clip), ("sub/notes.txt", notes)].map { path, bytes in
            #"{"path": "\#(path)", "size": \#(bytes.count), "sha256": "\#(try Digest.hash(.sha256, bytes).hexString)"}"#
        }
        let manifest = #"{"version": 1, "contentVersion": "5", "files": [\#(files.joined(separator: ", "))]}"#
        try Data(manifest.utf8).write(to: www.appendingPathComponent("manifest.json"))
    }

    func makeStore(_ server: RangeServer, product: String = "remote") async throws -> (Store, QueueBackend) {
        let backend = QueueBackend(products: [Self.product])
        let downloader = HTTPContentDownloader(
            baseURLs: ["remote": server.url("\(product)/")], timeout: 10, chunkBytes: 65_536)
        let store = Store(
            backend: backend, ledger: try FileLedger(path: dir.path("ledger.jsonl")),
            configuration: StoreConfiguration(
                clock: ManualClock(),
                downloads: DownloadConfiguration(
                    dataDirectory: dir.url.appendingPathComponent("data"), checkpointBytes: 65_536,
                    contentDownloader: downloader)))
        await store.start()
        return (store, backend)
    }

    func installed(_ path: String) -> Data? {
        FileManager.default.contents(atPath: dir.url.appendingPathComponent("data/Content/remote/5/\(path)").path)
    }

    @Test func selfHostedContentDownloadsThroughRangeRequests() async throws {
        let server = try RangeServer(root: dir.url.appendingPathComponent("www"))
        defer { server.stop() }
        let (store, backend) = try await makeStore(server)
        let t = try #require(await store.purchase("remote").transaction)
        let done = try await #require(store.downloads).waitUntilSettled(t.transactionID)
        #expect(done.state == .finished, "\(String(describing: done.error))")
        #expect(installed("clip.bin") == Data(clip))
        #expect(installed("sub/notes.txt") == Data(notes))
        #expect(await backend.finished == [t.transactionID])
        let requests = try await server.requests()
        #expect(requests.first?.path == "/remote/manifest.json")
        #expect(
            requests.filter { $0.path == "/remote/clip.bin" }.map(\.range) == [
                "bytes=0-65535", "bytes=65536-131071", "bytes=131072-196607", "bytes=196608-199999",
            ])
        #expect(requests.last?.path == "/remote/sub/notes.txt")
    }

    @Test func aFailedRequestLeavesItRetryableAndTheRetryResumesWithARange() async throws {
        // Request 4 is the third chunk of clip.bin (after the manifest and two chunks).
        let server = try RangeServer(root: dir.url.appendingPathComponent("www"), failRequest: 4)
        defer { server.stop() }
        let (store, backend) = try await makeStore(server)
        let manager = try #require(store.downloads)
        let t = try #require(await store.purchase("remote").transaction)
        let failed = try await manager.waitUntilSettled(t.transactionID)
        #expect(failed.state == .failed)
        #expect(
            failed.error
                == .transferFailed(
                    "GET \(server.url("remote/clip.bin").absoluteString) bytes 131072-196607 answered HTTP 500"))
        #expect(await backend.finished.isEmpty)

        try await manager.resume(t.transactionID)
        let done = try await manager.waitUntilSettled(t.transactionID)
        #expect(done.state == .finished)
        #expect(installed("clip.bin") == Data(clip))
        let ranges = try await server.requests().filter { $0.path == "/remote/clip.bin" }.map(\.range)
        #expect(
            ranges == [
                "bytes=0-65535", "bytes=65536-131071", "bytes=131072-196607", "bytes=131072-196607",
                "bytes=196608-199999",
            ])
        #expect(await backend.finished == [t.transactionID])
    }

    @Test func aMissingManifestFailsTheDownloadClearlyAndARetryFetchesIt() async throws {
        let server = try RangeServer(root: dir.url.appendingPathComponent("www"))
        defer { server.stop() }
        let (store, backend) = try await makeStore(server, product: "later")
        let manager = try #require(store.downloads)
        let t = try #require(await store.purchase("remote").transaction)
        let failed = try #require(await manager.download(id: t.transactionID))
        #expect(failed.state == .failed)
        #expect(
            failed.error == .transferFailed("GET \(server.url("later/manifest.json").absoluteString) answered HTTP 404")
        )
        #expect(await backend.finished.isEmpty, "the transaction stays unfinished, to retry")
        #expect(try await store.isPurchased("remote"))

        // The content appears on the server; the retry asks for the manifest again.
        try FileManager.default.copyItem(
            at: dir.url.appendingPathComponent("www/remote"), to: dir.url.appendingPathComponent("www/later"))
        try await manager.resume(t.transactionID)
        let done = try await manager.waitUntilSettled(t.transactionID)
        #expect(done.state == .finished, "\(String(describing: done.error))")
        #expect(done.contentVersion == "5" && done.totalBytes == Int64(clip.count + notes.count))
        #expect(installed("clip.bin") == Data(clip))
        #expect(await backend.finished == [t.transactionID])
    }
}
