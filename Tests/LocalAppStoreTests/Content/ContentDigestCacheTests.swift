import Foundation
import StoreTesting
import Synchronization
import SystemIO
import TestSupport
import Testing

@testable import LocalAppStore

/// Content digests kept between launches: an unchanged file is not read again, a changed one
/// is, a file changed just before it was read is not recorded, a damaged cache is ignored, and
/// the file reads back every field it was written with.
@Suite struct ContentDigestCacheTests {
    /// Counts the files actually read.
    final class CountingDigest: Sendable {
        let reads = Mutex(0)
        func digest(_ path: String) throws -> String {
            reads.withLock { $0 += 1 }
            return try ContentDigest.sha256(path)
        }
    }

    let directory: TemporaryDirectory
    let file: URL
    let counter = CountingDigest()

    init() throws {
        directory = try TemporaryDirectory(prefix: "sf-digest-cache")
        try FileManager.default.createDirectory(
            at: directory.url.appendingPathComponent("data"), withIntermediateDirectories: true)
        file = directory.url.appendingPathComponent("level.json")
        try Data(repeating: 7, count: 100_000).write(to: file)
    }

    /// A cache whose clock reads `seconds` after the file's last change.
    func cache(secondsAfterChange seconds: TimeInterval) throws -> ContentDigestCache {
        let changed = try #require(try POSIXFileSystem().status(atPath: file.path, followingLinks: true)).changed
        let clock = ManualClock(start: Date(timeIntervalSince1970: Double(changed) / 1e9 + seconds))
        let counter = self.counter
        return ContentDigestCache(
            dataDirectory: directory.url.appendingPathComponent("data").path, clock: clock,
            digest: { try counter.digest($0) })
    }

    @Test func anUnchangedFileIsReadOnceAcrossLaunches() throws {
        let first = try cache(secondsAfterChange: 60)
        let digest = try first.digester(file.path)
        first.save()
        let second = try cache(secondsAfterChange: 60)
        #expect(try second.digester(file.path) == digest)
        #expect(counter.reads.withLock { $0 } == 1)
        #expect(digest == (try ContentDigest.sha256(file.path)))
    }

    @Test func aChangedFileIsReadAgainEvenAtTheSameSize() throws {
        let first = try cache(secondsAfterChange: 60)
        let before = try first.digester(file.path)
        first.save()
        try Data(repeating: 8, count: 100_000).write(to: file)
        let second = try cache(secondsAfterChange: 60)
        let after = try second.digester(file.path)
        let actual = try ContentDigest.sha256(file.path)
        #expect(after != before && after == actual)
        #expect(counter.reads.withLock { $0 } == 2)
    }

    @Test func aFileChangedJustBeforeItWasReadIsNotRecorded() throws {
        let first = try cache(secondsAfterChange: 0.5)
        _ = try first.digester(file.path)
        first.save()
        let second = try cache(secondsAfterChange: 60)
        _ = try second.digester(file.path)
        #expect(counter.reads.withLock { $0 } == 2)
    }

    @Test func aDamagedCacheIsIgnoredAndReplaced() throws {
        let first = try cache(secondsAfterChange: 60)
        try FileManager.default.createDirectory(
            at: URL(fileURLWithPath: first.path).deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: first.path))
        let damaged = try cache(secondsAfterChange: 60)
        let digest = try damaged.digester(file.path)
        damaged.save()
        #expect(try cache(secondsAfterChange: 60).digester(file.path) == digest)
        #expect(counter.reads.withLock { $0 } == 1)
    }

    @Test func theCacheFileReadsBackEveryFieldAsItWasWritten() throws {
        var contents = ContentDigestCache.Contents()
        contents.files["/data/Contënt/pack 1/\"quoted\"\\level.json"] = .init(
            device: .max, inode: 42, size: 0, modified: -1_000_000_001, changed: .max,
            sha256: String(repeating: "ab", count: 32))
        contents.files["/b"] = .init(device: 0, inode: 1, size: 7, modified: 2, changed: 3, sha256: "")
        let bytes = Array(try ContentDigestCache.encoded(contents))
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""\/b":"#) == false)
        let read = try #require(ContentDigestCache.contents(of: bytes))
        #expect(read.files == contents.files)
        #expect(read.version == 1)
        // A cache written before, with every slash escaped, reads the same.
        #expect(try ContentDigestCache.contents(of: Array(JSONEncoder().encode(contents)))?.files == contents.files)

        contents.version = 2
        #expect(ContentDigestCache.contents(of: Array(try JSONEncoder().encode(contents))) == nil)
        let missingField = String(decoding: bytes, as: UTF8.self).replacingOccurrences(
            of: "\"inode\"", with: "\"inodes\"")
        #expect(ContentDigestCache.contents(of: Array(missingField.utf8)) == nil)
        #expect(ContentDigestCache.contents(of: Array("[1]".utf8)) == nil)
    }
}
