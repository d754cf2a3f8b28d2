import Foundation
import SystemIO
import TestSupport
import Testing

@testable import LocalAppStore

/// `PublishedSnapshot` answers the state it was given while the journal file is unchanged,
/// lets go of it when withdrawn (before the store changes its own), and numbers each new state
/// once: a withdrawn state published again for the same file keeps its number.
@Suite struct PublishedSnapshotTests {
    @Test func withdrawingLetsGoOfTheStateAndKeepsTheNumbering() throws {
        let dir = try TemporaryDirectory(prefix: "published")
        let path = dir.path("journal.jsonl")
        try Data("one\n".utf8).write(to: URL(fileURLWithPath: path))
        let fs = POSIXFileSystem()
        let inode = try #require(try fs.status(atPath: path, followingLinks: true)).inode
        let published = PublishedSnapshot(journalPath: path, fileSystem: fs)
        #expect(published.current() == nil, "nothing published yet")

        var state = JournalState(settings: LocalStoreSettings())
        let first = published.publish(state, inode: inode, length: 4)
        #expect(first == 1 && published.current()?.number == 1)
        published.withdraw()
        #expect(published.current() == nil, "a withdrawn state is not answered")
        #expect(
            published.publish(state, inode: inode, length: 4) == 1,
            "the same file as long: the same state, the same number")
        #expect(published.current()?.number == 1)

        _ = state.allocateTransactionID()
        try Data("one\ntwo\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect(published.current() == nil, "the file grew")
        published.withdraw()
        #expect(
            published.publish(state, inode: inode, length: 8) == 2,
            "a new state after a withdrawal gets the next number")
        #expect(published.current()?.state.nextTransactionID == state.nextTransactionID)
    }
}
