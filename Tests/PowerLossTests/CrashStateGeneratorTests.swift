import Foundation
import SystemIO
import TestSupport
import Testing

/// The crash-state rules on small recordings made by hand: what each mode may and may not lose.
@Suite struct CrashStateGeneratorTests {
    /// A tree with one file `f` holding `old` (inode 1).
    static func initial() throws -> DiskImage {
        let directory = try TemporaryDirectory()
        try Data("old".utf8).write(to: directory.url("f"))
        return try DiskImage.capture(directory.path)
    }

    static func contents(
        _ states: [CrashState], _ recording: Recording, at path: String, from crashPoint: Int = 0
    ) -> Set<String?> {
        Set(
            states.filter { $0.crashPoint >= crashPoint }.map { state -> String? in
                guard case .file(let bytes, _)? = state.image(of: recording).contents[path] else { return nil }
                return String(decoding: bytes, as: UTF8.self)
            })
    }

    @Test func syncedWritesSurviveAndUnsyncedOnesAreLostOrTorn() throws {
        let recording = Recording(
            initial: try Self.initial(),
            operations: [
                .write(inode: 1, offset: 3, bytes: Array("new".utf8)),
                .synchronize(inode: 1),
                .write(inode: 1, offset: 6, bytes: Array("more".utf8)),
            ])
        let states = CrashStateGenerator(recording).states(.ordered)
        #expect(
            Self.contents(states, recording, at: "f") == [
                "old", "oldn", "oldne", "oldnew", "oldnewm", "oldnewmo", "oldnewmor", "oldnewmore",
            ])
        #expect(
            Self.contents(states, recording, at: "f", from: 2) == [
                "oldnew", "oldnewm", "oldnewmo", "oldnewmor", "oldnewmore",
            ],
            "after the fsync nothing before it may be lost")
    }

    @Test func aRenameSurvivesOnlyOnceItsDirectoryIsSynced() throws {
        let recording = Recording(
            initial: try Self.initial(),
            operations: [
                .create(path: "f.tmp", inode: 2, mode: 0o600),
                .write(inode: 2, offset: 0, bytes: Array("x".utf8)),
                .synchronize(inode: 2),
                .rename(from: "f.tmp", to: "f"),
                .synchronizeDirectory(path: ""),
            ])
        let states = CrashStateGenerator(recording).states(.ordered)
        #expect(
            Self.contents(states, recording, at: "f", from: 4) == ["old", "x"],
            "before the directory sync the rename may be lost")
        #expect(Self.contents(states, recording, at: "f", from: 5) == ["x"])
        #expect(
            !Self.contents(states, recording, at: "f").contains(""),
            "synced before the rename, the new file is never empty")
        #expect(Self.contents(states, recording, at: "f.tmp").contains("x"))
    }

    @Test func aRenameWithoutSyncingTheFileFirstCanLeaveItEmpty() throws {
        let recording = Recording(
            initial: try Self.initial(),
            operations: [
                .create(path: "f.tmp", inode: 2, mode: 0o600),
                .write(inode: 2, offset: 0, bytes: Array("x".utf8)),
                .rename(from: "f.tmp", to: "f"),
                .synchronizeDirectory(path: ""),
            ])
        let states = CrashStateGenerator(recording).states(.ordered)
        #expect(
            Self.contents(states, recording, at: "f", from: 4).contains(""),
            "the classic bug: the name is durable, the data is not")
    }

    @Test func journalOrderKeepsEarlierEntryChangesBeforeASyncedOne() throws {
        let recording = Recording(
            initial: DiskImage(),
            operations: [
                .makeDirectory(path: "a", mode: 0o700),
                .makeDirectory(path: "b", mode: 0o700),
                .create(path: "b/f", inode: 1, mode: 0o600),
                .synchronizeDirectory(path: "b"),
            ])
        let ordered = CrashStateGenerator(recording).states(.ordered).filter { $0.crashPoint == 4 }
        #expect(ordered.allSatisfy { Set($0.image(of: recording).entries.keys) == ["a", "b", "b/f"] })
        let reordering = CrashStateGenerator(recording).states(.reordering).filter { $0.crashPoint == 4 }
        #expect(
            reordering.contains { $0.image(of: recording).entries["a"] == nil },
            "reordered, only the synced directory's own entries are forced")
    }

    @Test func reorderingNeverPersistsARenameWithoutWhatMadeItsSource() throws {
        let recording = Recording(
            initial: DiskImage(),
            operations: [
                .makeDirectory(path: "partial", mode: 0o700),
                .makeDirectory(path: "partial/1", mode: 0o700),
                .create(path: "partial/1/a", inode: 1, mode: 0o600),
                .makeDirectory(path: "Content", mode: 0o700),
                .rename(from: "partial/1", to: "Content/1"),
                .synchronizeDirectory(path: "Content"),
                .synchronizeDirectory(path: ""),
            ])
        let states = CrashStateGenerator(recording).states(.reordering)
        for state in states where state.persisted.contains(4) {
            #expect(Set([0, 1, 3]).isSubset(of: state.persisted), "\(state.summary(of: recording))")
        }
        #expect(
            states.filter { $0.crashPoint == 6 }.allSatisfy { $0.image(of: recording).entries["Content/1"] != nil },
            "synced, the install is never lost")
    }

    @Test func reorderingPersistsALaterAppendWithoutAnEarlierOne() throws {
        let recording = Recording(
            initial: try Self.initial(),
            operations: [
                .write(inode: 1, offset: 3, bytes: Array("aaa".utf8)),
                .write(inode: 1, offset: 6, bytes: Array("bbb".utf8)),
                .synchronize(inode: 1),
            ])
        let hole = "old\0\0\0bbb"
        #expect(!Self.contents(CrashStateGenerator(recording).states(.ordered), recording, at: "f").contains(hole))
        let reordering = Self.contents(CrashStateGenerator(recording).states(.reordering), recording, at: "f")
        #expect(reordering.contains(hole))
        #expect(reordering.contains("oldaaa\0\0\0"), "an append may reach the disk as its size without its data")
        #expect(
            Self.contents(CrashStateGenerator(recording).states(.reordering), recording, at: "f", from: 3) == [
                "oldaaabbb"
            ])
    }

    @Test func tearPointsAreEveryByteOfShortWritesAndASampleOfLongOnes() {
        #expect(CrashStateGenerator.tearPoints(length: 10, seed: 1) == Array(1..<10))
        let long = CrashStateGenerator.tearPoints(length: 10_000, seed: 7)
        #expect(long.count <= 40 && long.count >= 25)
        #expect(long.allSatisfy { $0 > 0 && $0 < 10_000 })
        #expect(long.contains(52) && long.contains(9_999) && long.contains(512))
        #expect(
            long == CrashStateGenerator.tearPoints(length: 10_000, seed: 7), "the same recording gives the same states")
    }

    @Test func everyStateIsListedOnce() throws {
        let recording = Recording(
            initial: try Self.initial(),
            operations: [
                .write(inode: 1, offset: 0, bytes: Array(repeating: 1, count: 4000)),
                .synchronize(inode: 1),
                .write(inode: 1, offset: 4000, bytes: Array(repeating: 2, count: 100)),
            ])
        for mode in CrashStateGenerator.Mode.allCases {
            let states = CrashStateGenerator(recording).states(mode)
            #expect(Set(states).count == states.count)
        }
    }
}
