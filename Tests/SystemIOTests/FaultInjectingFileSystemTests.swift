import Foundation
import StoreTesting
import SystemIO
import TestSupport
import Testing

@Suite struct FaultInjectingFileSystemTests {
    @Test func theNthCallFailsOnceOrFromThenOn() throws {
        let scratch = try TemporaryDirectory()
        let fs = FaultInjectingFileSystem()
        let file = try fs.open(scratch.path("f"), [.readWrite, .create])
        defer { fs.close(file) }
        fs.fail(.write, onCall: 2, with: .noSpace)
        try fs.write(file, [1], at: 0)
        #expect(throws: SystemCallError("pwrite", path: scratch.path("f"), errno: .noSpace)) {
            try fs.write(file, [2], at: 1)
        }
        try fs.write(file, [3], at: 1)
        #expect(scratch.contents("f") == [1, 3])

        fs.fail(.synchronize, onCall: 1, with: .ioError, repeating: true)
        for _ in 0..<3 {
            #expect(throws: SystemCallError("fdatasync", path: scratch.path("f"), errno: .ioError)) {
                try fs.synchronize(file, .data)
            }
        }
        #expect(fs.calls(of: .synchronize) == 3)
        fs.heal()
        try fs.synchronize(file, .all)

        fs.fail(.rename, with: .quotaExceeded)
        #expect(throws: SystemCallError("rename", path: scratch.path("g"), errno: .quotaExceeded)) {
            try fs.rename(scratch.path("f"), to: scratch.path("g"))
        }
        try fs.rename(scratch.path("f"), to: scratch.path("g"))
        #expect(fs.calls(of: .rename) == 2)
    }

    @Test func aFullDiskRefusesTheWriteThatDoesNotFitAndWritesNothingOfIt() throws {
        let scratch = try TemporaryDirectory()
        let fs = FaultInjectingFileSystem()
        fs.setFreeSpace(10)
        let file = try fs.open(scratch.path("f"), [.readWrite, .create])
        defer { fs.close(file) }
        try fs.write(file, [UInt8](repeating: 7, count: 6), at: 0)
        #expect(throws: SystemCallError("pwrite", path: scratch.path("f"), errno: .noSpace)) {
            try fs.write(file, [UInt8](repeating: 8, count: 5), at: 6)
        }
        #expect(scratch.contents("f")?.count == 6)
        // The replacement of another file fails the same way, and leaves no temporary behind.
        #expect(throws: SystemCallError("pwrite", path: scratch.path("g.tmp"), errno: .noSpace)) {
            try fs.replaceAtomically(scratch.path("g"), with: [UInt8](repeating: 1, count: 5))
        }
        #expect(try fs.contentsOfDirectory(scratch.path) == ["f"])
        fs.setFreeSpace(nil)
        try fs.replaceAtomically(scratch.path("g"), with: [UInt8](repeating: 1, count: 5))
        #expect(scratch.contents("g")?.count == 5)
    }

    @Test func aFailedSyncOrRenameLeavesTheOldFileWholeAndNoTemporary() throws {
        let scratch = try TemporaryDirectory()
        let fs = FaultInjectingFileSystem()
        try fs.replaceAtomically(scratch.path("state"), with: Array("old".utf8))
        for operation in [FaultInjectingFileSystem.Operation.synchronize, .rename] {
            fs.fail(operation, with: .ioError)
            #expect(throws: SystemCallError.self) {
                try fs.replaceAtomically(scratch.path("state"), with: Array("new".utf8))
            }
            #expect(scratch.contents("state") == Array("old".utf8))
            #expect(try fs.contentsOfDirectory(scratch.path) == ["state"])
        }
        // After the rename, only the directory sync is left: its failure is reported too.
        let syncs = fs.calls(of: .synchronizeDirectory)
        fs.fail(.synchronizeDirectory, with: .ioError)
        #expect(throws: SystemCallError("fsync", path: scratch.path, errno: .ioError)) {
            try fs.replaceAtomically(scratch.path("state"), with: Array("new".utf8))
        }
        #expect(fs.calls(of: .synchronizeDirectory) == syncs + 1)
        #expect(scratch.contents("state") == Array("new".utf8))
    }

    @Test func anUnwritableDirectoryRefusesChangesButNotReads() throws {
        let scratch = try TemporaryDirectory()
        let fs = FaultInjectingFileSystem()
        try fs.createDirectories(scratch.path("locked"))
        try fs.replaceAtomically(scratch.path("locked/kept"), with: [1])
        fs.denyWrites(under: scratch.path("locked"))
        #expect(throws: SystemCallError("open", path: scratch.path("locked/new.tmp"), errno: .accessDenied)) {
            try fs.replaceAtomically(scratch.path("locked/new"), with: [2])
        }
        #expect(throws: SystemCallError("mkdir", path: scratch.path("locked/sub"), errno: .accessDenied)) {
            try fs.createDirectories(scratch.path("locked/sub"))
        }
        #expect(throws: SystemCallError("rename", path: scratch.path("out"), errno: .accessDenied)) {
            try fs.rename(scratch.path("locked/kept"), to: scratch.path("out"))
        }
        #expect(try fs.readFile(scratch.path("locked/kept")) == [1])
        try fs.replaceAtomically(scratch.path("elsewhere"), with: [3])
        fs.denyWrites(under: nil)
        try fs.replaceAtomically(scratch.path("locked/new"), with: [2])
    }

    @Test func itCanClaimToBeAnotherUser() {
        let fs = FaultInjectingFileSystem()
        #expect(fs.currentUser() == CurrentProcess.effectiveUserID)
        fs.reportedUser = 4242
        #expect(fs.currentUser() == 4242)
    }
}
