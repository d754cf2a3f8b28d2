import Foundation
import SystemIO
import TestSupport
import Testing

/// `flock` leases between this process and real child processes (python3's `fcntl.flock`
/// takes the same kernel lock).
@Suite(.waitsOnProcesses, .serialized) struct LeaseTests {
    /// A child holding (or trying) an exclusive `flock` on a file.
    final class LockChild {
        let child: ChildProcess

        /// `hold`: takes the lock, prints "locked", keeps it until its input closes.
        /// `try`: prints "free" or "busy" for a non-blocking attempt, and exits.
        init(_ mode: String, _ path: String) throws {
            child = try ChildProcess(
                .tool("python3"),
                [
                    "-c",
                    """
                    import fcntl, sys
                    f = open(sys.argv[1], 'a')
                    if sys.argv[2] == 'hold':
                        fcntl.flock(f, fcntl.LOCK_EX)
                        print('locked', flush=True)
                        sys.stdin.read()
                    else:
                        try:
                            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
                            print('free', flush=True)
                        except BlockingIOError:
                            print('busy', flush=True)
                    """, path, mode,
                ], tiedToThisProcess: true)
        }

        /// The child's first line (blocks until it is written).
        func line() -> String {
            let output = child.waitForStandardOutput { $0.contains("\n") } ?? ""
            return String(output.prefix { $0 != "\n" })
        }

        func finish() {
            child.closeStandardInput()
            _ = child.wait()
        }
    }

    /// A file in a fresh directory whose lease a child holds: the child says so, and this
    /// process is refused it.
    struct HeldElsewhere {
        let scratch: TemporaryDirectory
        let fs = POSIXFileSystem()
        let path: String
        let child: LockChild

        init(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
            scratch = try TemporaryDirectory()
            path = scratch.path(name)
            child = try LockChild("hold", path)
            #expect(child.line() == "locked", sourceLocation: sourceLocation)
            #expect(try fs.tryLease(path) == nil, sourceLocation: sourceLocation)
        }
    }

    @Test func aLeaseHeldByAnotherProcessIsRefusedUntilItIsReleased() throws {
        let held = try HeldElsewhere("run.lock")
        let (fs, path) = (held.fs, held.path)
        held.child.finish()
        let lease = try #require(try fs.tryLease(path))
        // And the other way round: while we hold it, a child cannot take it.
        let probe = try LockChild("try", path)
        #expect(probe.line() == "busy")
        probe.finish()
        fs.release(lease)
        let again = try LockChild("try", path)
        #expect(again.line() == "free")
        again.finish()
    }

    @Test func theKernelDropsTheLeaseOfAKilledProcess() throws {
        let held = try HeldElsewhere("owner.lock")
        let child = held.child
        try CurrentProcess.send(.kill, to: child.child.processIdentifier)
        let end = child.child.wait()
        #expect(end.signaled && end.status == SIGKILL)
        let lease = try #require(try held.fs.tryLease(held.path))
        held.fs.release(lease)
    }

    @Test func twoLeasesInOneProcessExcludeEachOther() throws {
        let scratch = try TemporaryDirectory()
        let fs = POSIXFileSystem()
        let path = scratch.path("one.lock")
        let first = try #require(try fs.tryLease(path))
        #expect(try fs.tryLease(path) == nil)
        fs.release(first)
        let second = try #require(try fs.tryLease(path))
        fs.release(second)
    }
}
