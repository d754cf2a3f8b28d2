import Foundation
import Synchronization
internal import SystemIO

/// The journal state the store last read, published for readers off the store's actor (the
/// App Store Server answering on its HTTP threads): with it, the journal file it was read up
/// to, by identity (inode) and length. The journal only grows by appending whole lines and a
/// compaction renames a new file over it, while the store keeps the file it read open (so its
/// inode cannot be reused): when `stat` still shows that inode and that length, no process
/// has written since, and the state is the store as it is now.
///
/// Each publication of a new state gets a new number (`StoreSnapshot.publication`): what was
/// computed from a snapshot may be kept under its number, and stays true while
/// `current()` answers that number.
final class PublishedSnapshot: Sendable {
    private struct Published: Sendable {
        /// Nil once withdrawn (`withdraw()`).
        var state: JournalState?
        let inode: UInt64
        let length: UInt64
        let number: UInt64
    }

    private let journalPath: String
    private let fs: any FileSystem
    private let published = Mutex<Published?>(nil)

    /// Publishes nothing until `publish` is called.
    init(journalPath: String, fileSystem: any FileSystem) {
        self.journalPath = journalPath
        self.fs = fileSystem
    }

    /// Publishes `state`, read from the journal file `inode` up to `length` bytes.
    /// - Returns: its publication number: the last one's when the file is the same and as
    ///   long (then so is the state), a new one otherwise.
    func publish(_ state: JournalState, inode: UInt64, length: Int64) -> UInt64 {
        let length = UInt64(max(length, 0))
        return published.withLock { published in
            if let last = published, last.inode == inode, last.length == length {
                // The same file as long: the same state (withdrawn or not), the same number.
                if last.state == nil { published?.state = state }
                return last.number
            }
            let number = (published?.number ?? 0) + 1
            published = Published(state: state, inode: inode, length: length, number: number)
            return number
        }
    }

    /// Lets go of the published state before the store changes its own: the two share their
    /// collections (copy-on-write), so a change made while this one holds them would copy every
    /// one it touches, whatever the history's length. The journal is changed by then (a change
    /// is applied once written or read), so `current()` would answer nil anyway; the next
    /// `publish` continues the numbering.
    func withdraw() {
        published.withLock { $0?.state = nil }
    }

    /// The published state and its number when the journal is still what it was read from;
    /// nil when any process wrote since (or it cannot be checked, or nothing was published yet).
    func current() -> (state: JournalState, number: UInt64)? {
        guard let last = published.withLock({ $0 }), let state = last.state,
            let status = try? fs.status(atPath: journalPath, followingLinks: true),
            status.inode == last.inode, status.size == last.length
        else { return nil }
        return (state, last.number)
    }
}
