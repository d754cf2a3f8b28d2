import Foundation
import StoreTesting
import TestSupport
import Testing

@testable import SystemIO

@Suite struct POSIXFileSystemTests {
    let fs = POSIXFileSystem()

    @Test func interruptedCallsAreRetriedAndNeverReported() throws {
        var calls = 0
        let result = try Syscall.retrying("flock", path: "/x") { () -> Int32 in
            calls += 1
            if calls < 4 {
                Errno.current = .interrupted
                return -1
            }
            return 0
        }
        #expect(result == 0)
        #expect(calls == 4)
        // Any other errno is reported at once, naming the call and the path.
        calls = 0
        #expect(throws: SystemCallError("flock", path: "/x", errno: .badDescriptor)) {
            try Syscall.retrying("flock", path: "/x") { () -> Int32 in
                calls += 1
                Errno.current = .badDescriptor
                return -1
            }
        }
        #expect(calls == 1)
    }

    @Test func failuresNameTheCallThePathAndTheErrno() throws {
        let scratch = try TemporaryDirectory()
        let missing = scratch.path("missing/file")
        #expect(throws: SystemCallError("open", path: missing, errno: .noSuchFile)) {
            try fs.open(missing, .read)
        }
        #expect(throws: SystemCallError("mkdir", path: scratch.path, errno: .fileExists)) {
            try fs.makeDirectory(scratch.path, mode: 0o700)
        }
        let file = try fs.open(scratch.path("a"), [.readWrite, .create])
        fs.close(file)
        #expect(throws: SystemCallError("rename", path: missing, errno: .noSuchFile)) {
            try fs.rename(scratch.path("a"), to: missing)
        }
        do {
            try fs.removeFile(missing)
            Issue.record("unlink of a missing file succeeded")
        } catch {
            #expect(
                error.description
                    == "unlink failed on \(missing): No such file or directory (errno \(Errno.noSuchFile.rawValue))")
        }
        #expect(try fs.status(atPath: missing, followingLinks: true) == nil)
    }

    @Test func openingWithoutFollowingLinksRefusesASymbolicLink() throws {
        let scratch = try TemporaryDirectory()
        let target = scratch.path("target")
        let link = scratch.path("link")
        try fs.replaceAtomically(target, with: Array("secret".utf8))
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(throws: SystemCallError("open", path: link, errno: .symbolicLink)) {
            try fs.open(link, [.readWrite, .noFollow])
        }
        // Followed when allowed, and lstat sees the link itself.
        let followed = try fs.open(link, .read)
        defer { fs.close(followed) }
        #expect(try fs.read(followed, count: 100, at: 0) == Array("secret".utf8))
        #expect(try fs.status(atPath: link, followingLinks: false)?.isSymbolicLink == true)
        #expect(try fs.status(atPath: link, followingLinks: true)?.isRegularFile == true)
        // A replacement never writes through a link planted at its temporary's name.
        try FileManager.default.createSymbolicLink(atPath: scratch.path("other.tmp"), withDestinationPath: target)
        #expect(throws: SystemCallError("open", path: scratch.path("other.tmp"), errno: .symbolicLink)) {
            try fs.replaceAtomically(scratch.path("other"), with: Array("x".utf8))
        }
        #expect(scratch.contents("target") == Array("secret".utf8))
    }

    @Test func atomicReplaceSwapsWholeFilesWithExactModeAndNoTemporaryLeft() throws {
        let scratch = try TemporaryDirectory()
        let path = scratch.path("state")
        try fs.replaceAtomically(path, with: Array("old".utf8))
        let reader = try fs.open(path, .read)
        defer { fs.close(reader) }
        // 0666 is wider than any usual umask lets open(2) create: the mode is set exactly.
        try fs.replaceAtomically(path, with: Array("new content".utf8), mode: 0o666)
        #expect(scratch.contents("state") == Array("new content".utf8))
        // A reader that opened the old file still reads it whole: the file was swapped, not rewritten.
        #expect(try fs.read(reader, count: 100, at: 0) == Array("old".utf8))
        #expect(try fs.status(atPath: path, followingLinks: false)?.mode == 0o100666)
        #expect(!fs.exists(path + ".tmp"))
        #expect(try fs.contentsOfDirectory(scratch.path) == ["state"])
    }

    @Test func directorySyncOpensTheDirectoryAndReportsWhatIsWrong() throws {
        let scratch = try TemporaryDirectory()
        try fs.synchronizeDirectory(scratch.path)
        try fs.replaceAtomically(scratch.path("file"), with: [1])
        #expect(throws: SystemCallError("open", path: scratch.path("file"), errno: .notADirectory)) {
            try fs.synchronizeDirectory(scratch.path("file"))
        }
        #expect(throws: SystemCallError("open", path: scratch.path("gone"), errno: .noSuchFile)) {
            try fs.synchronizeDirectory(scratch.path("gone"))
        }
    }

    @Test func directoriesAreCreatedWithTheirParentsAndRemovedWithTheirContents() throws {
        let scratch = try TemporaryDirectory()
        let deep = scratch.path("a/b/c")
        try fs.createDirectories(deep, mode: 0o700, enforcingMode: true)
        try fs.createDirectories(deep)
        #expect(try fs.status(atPath: deep, followingLinks: false)?.mode == 0o040700)
        try fs.replaceAtomically(deep + "/f", with: [1, 2, 3])
        #expect(fs.regularFileSize(atPath: deep + "/f") == 3)
        // A file in the way is named, not a path below it.
        #expect(throws: SystemCallError("mkdir", path: deep + "/f", errno: .notADirectory)) {
            try fs.createDirectories(deep + "/f/g")
        }
        try fs.removeTree(scratch.path("a"))
        #expect(!fs.exists(scratch.path("a")))
        try fs.removeTree(scratch.path("a"))
        #expect(try fs.readFile(scratch.path("a")) == nil)
    }

    @Test func anExistingDirectoryKeepsThePermissionsItsOwnerGaveIt() throws {
        let scratch = try TemporaryDirectory()
        let directory = scratch.path("mine")
        try fs.makeDirectory(directory, mode: 0o700)
        try fs.setPermissions(atPath: directory, to: 0o550)
        try fs.createDirectories(directory, mode: 0o700, enforcingMode: true)
        #expect(try fs.status(atPath: directory, followingLinks: false)?.mode == 0o040550)
        // A directory made by the call gets the mode asked for.
        let made = scratch.path("mine2/deeper")
        try fs.createDirectories(made, mode: 0o750, enforcingMode: true)
        #expect(try fs.status(atPath: made, followingLinks: false)?.mode == 0o040750)
        try fs.setPermissions(atPath: directory, to: 0o700)
    }

    @Test func checkWritableSaysWhatThePermissionBitsSayForThisUser() throws {
        let scratch = try TemporaryDirectory()
        let directory = scratch.path("dir")
        try fs.makeDirectory(directory, mode: 0o700)
        try fs.checkWritable(directory)
        try fs.setPermissions(atPath: directory, to: 0o500)
        defer { try? fs.setPermissions(atPath: directory, to: 0o700) }
        if CurrentProcess.effectiveUserID == 0 {
            // Root may write whatever the bits say: faccessat says so too.
            try fs.checkWritable(directory)
        } else {
            #expect(throws: SystemCallError("faccessat", path: directory, errno: .accessDenied)) {
                try fs.checkWritable(directory)
            }
        }
        #expect(throws: SystemCallError("faccessat", path: scratch.path("gone"), errno: .noSuchFile)) {
            try fs.checkWritable(scratch.path("gone"))
        }
    }

    @Test func writesAtAnOffsetAndAtTheEndAndReadsBackExactly() throws {
        let scratch = try TemporaryDirectory()
        let file = try fs.open(scratch.path("log"), [.readWrite, .create, .append])
        defer { fs.close(file) }
        try fs.write(file, Array("abc".utf8))
        try fs.write(file, Array("def".utf8))
        try fs.synchronize(file, .data)
        #expect(try fs.readToEnd(file, from: 1) == Array("bcdef".utf8))
        try fs.truncate(file, to: 2)
        try fs.synchronize(file, .all)
        #expect(try fs.status(of: file).size == 2)
        let other = try fs.open(scratch.path("blocks"), [.readWrite, .create])
        defer { fs.close(other) }
        let big = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try fs.write(other, big, at: 10)
        #expect(try fs.read(other, count: 300_000, at: 0) == [UInt8](repeating: 0, count: 10) + big)
    }

    /// Reading into a caller's buffer reads what `read(_:count:at:)` reads, short only at the
    /// end of the file; a wrapper without its own (`FaultInjectingFileSystem`) counts the read
    /// and can fail it, since the default goes through `read(_:count:at:)`.
    @Test func readingIntoABufferReadsTheSameBytesAndWrappersStillSeeIt() throws {
        let scratch = try TemporaryDirectory()
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let writer = try fs.open(scratch.path("f"), [.readWrite, .create])
        try fs.write(writer, bytes, at: 0)
        fs.close(writer)
        let faulty = FaultInjectingFileSystem()
        for system in [fs, faulty] as [any FileSystem] {
            let file = try system.open(scratch.path("f"), .read)
            defer { system.close(file) }
            var buffer = [UInt8](repeating: 0, count: 70_000)
            let first = try buffer.withUnsafeMutableBytes { try system.read(file, into: $0, at: 0) }
            #expect(first == 70_000 && buffer == Array(bytes.prefix(70_000)))
            let rest = try buffer.withUnsafeMutableBytes { try system.read(file, into: $0, at: 70_000) }
            #expect(rest == 30_000 && Array(buffer.prefix(rest)) == Array(bytes.suffix(30_000)))
        }
        #expect(faulty.calls(of: .read) == 2)
        faulty.fail(.read, onCall: 1, with: .ioError)
        let file = try faulty.open(scratch.path("f"), .read)
        defer { faulty.close(file) }
        var buffer = [UInt8](repeating: 0, count: 10)
        #expect(throws: SystemCallError("pread", path: scratch.path("f"), errno: .ioError)) {
            _ = try buffer.withUnsafeMutableBytes { try faulty.read(file, into: $0, at: 0) }
        }
    }
}
