import Foundation
import SystemIO
import TestSupport
import Testing

/// The recorder logs what the real file system was asked, keeps its model equal to the disk,
/// and refuses a recording that something wrote around.
@Suite struct RecordingFileSystemTests {
    @Test func anAtomicReplaceIsRecordedCallByCall() throws {
        let directory = try TemporaryDirectory()
        try Data("old".utf8).write(to: directory.url("f"))
        let recorder = try RecordingFileSystem(root: directory.path)
        try recorder.replaceAtomically(directory.path("f"), with: Array("new".utf8))
        let file = try recorder.open(directory.path("log"), [.write, .create, .append])
        try recorder.write(file, Array("one\n".utf8))
        try recorder.write(file, Array("two\n".utf8))
        try recorder.synchronize(file, .data)
        recorder.close(file)
        recorder.mark("done")
        let recording = try recorder.finish()
        let expected: [RecordedOperation] = [
            .create(path: "f.tmp", inode: 2, mode: 0o600),
            .setFileMode(inode: 2, mode: 0o600),
            .write(inode: 2, offset: 0, bytes: Array("new".utf8)),
            .synchronize(inode: 2),
            .rename(from: "f.tmp", to: "f"),
            .synchronizeDirectory(path: ""),
            .create(path: "log", inode: 3, mode: 0o600),
            .write(inode: 3, offset: 0, bytes: Array("one\n".utf8)),
            .write(inode: 3, offset: 4, bytes: Array("two\n".utf8)),
            .synchronize(inode: 3),
            .mark("done"),
        ]
        #expect(recording.operations == expected)
        #expect(recording.final.contents == (try DiskImage.capture(directory.path)).contents)
    }

    @Test func aWriteAroundTheRecorderIsCaught() throws {
        let directory = try TemporaryDirectory()
        let recorder = try RecordingFileSystem(root: directory.path)
        try recorder.replaceAtomically(directory.path("f"), with: Array("new".utf8))
        try Data("sneaked in".utf8).write(to: directory.url("g"))
        #expect(throws: CrashStateError.self) { try recorder.finish() }
    }

    @Test func aRenamedDirectoryTakesItsFilesAlong() throws {
        let directory = try TemporaryDirectory()
        let recorder = try RecordingFileSystem(root: directory.path)
        try recorder.createDirectories(directory.path("partial/1"))
        try recorder.replaceAtomically(directory.path("partial/1/a"), with: Array("a".utf8))
        try recorder.makeDirectory(directory.path("Content"), mode: 0o700)
        try recorder.rename(directory.path("partial/1"), to: directory.path("Content/1"))
        try recorder.synchronizeDirectory(directory.path("Content"))
        let recording = try recorder.finish()
        #expect(recording.final.contents["Content/1/a"] == .file(bytes: Array("a".utf8), mode: 0o600))
        #expect(recording.final.contents["partial/1"] == nil)
    }
}
