import Crypto
import Foundation
import StoreTesting
import Synchronization

@testable import StoreCore

/// One product's hosted content held by `QueueBackend`: the manifest it announces and the
/// bytes it serves (which a test may make differ from the manifest).
struct HostedContent: Sendable {
    var manifest: ContentManifest
    var files: [String: [UInt8]]

    /// Content whose manifest matches `files` exactly.
    init(productID: String, version: String = "1.0", files: [(String, [UInt8])]) throws {
        self.files = Dictionary(uniqueKeysWithValues: files)
        manifest = ContentManifest(
            productID: productID, version: version,
            files: try files.map { path, bytes in
                ContentFile(path: path, size: Int64(bytes.count), sha256: try Digest.hash(.sha256, bytes).hexString)
            })
    }
}

/// A content request the backend received.
struct ContentRequest: Hashable, Sendable {
    let path: String
    let offset: Int64
}

/// Deterministic bytes that do not repeat in short cycles (a corrupted byte is always noticed).
func patternBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var state = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
    return (0..<count).map { _ in
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt8(truncatingIfNeeded: state >> 33)
    }
}

private final class Position: Sendable {
    let value: Mutex<Int64>
    init(_ start: Int64) { value = Mutex(start) }
}

extension QueueBackend {
    static let chunkSize = 4096

    func setContent(_ content: HostedContent) { hostedContent[content.manifest.productID] = content }
    func setContentGate(_ clock: ManualClock?) { contentGate = clock }
    func setContentFailsAt(_ offset: Int64?) { contentFailsAt = offset }
    func corruptServedFile(_ productID: String, _ path: String) {
        hostedContent[productID]?.files[path]?[0] ^= 0xff
    }

    func contentManifest(productID: String) async throws(StoreError) -> ContentManifest? {
        hostedContent[productID]?.manifest
    }

    nonisolated func contentBytes(
        productID: String, version: String, path: String, offset: Int64
    ) -> AsyncThrowingStream<[UInt8], any Error> {
        let position = Position(offset)
        return AsyncThrowingStream(unfolding: {
            let start = position.value.withLock { $0 }
            let chunk = try await self.chunk(productID, path, start, first: start == offset)
            if let chunk { position.value.withLock { $0 += Int64(chunk.count) } }
            return chunk
        })
    }

    private func chunk(_ productID: String, _ path: String, _ offset: Int64, first: Bool) async throws -> [UInt8]? {
        if first { contentRequests.append(ContentRequest(path: path, offset: offset)) }
        guard let bytes = hostedContent[productID]?.files[path] else {
            throw DownloadError.noContent(productID: productID)
        }
        if let gate = contentGate { try await gate.sleep(for: .seconds(1)) }
        if let failsAt = contentFailsAt, offset >= failsAt { throw DownloadError.transferFailed("simulated failure") }
        guard offset < Int64(bytes.count) else { return nil }
        let end = min(bytes.count, Int(offset) + Self.chunkSize)
        return Array(bytes[Int(offset)..<end])
    }
}
