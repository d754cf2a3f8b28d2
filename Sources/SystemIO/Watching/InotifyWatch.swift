#if os(Linux)
    import Dispatch
    import Glibc

    /// Linux's inotify, the kernel's file-change notification, as a `FileWatcher` stream: one
    /// inotify instance a watch, one watch descriptor a directory, read by a Dispatch read source
    /// when the kernel has events, so nothing runs while nothing changes.
    ///
    /// Directories are watched rather than files, so a file replaced by a rename (a compacted
    /// journal) is still seen, under its name. The kernel's own notices — events lost to a full
    /// queue (`IN_Q_OVERFLOW`), the directory removed or moved — count as a change: the consumer
    /// looks again and finds out.
    public enum InotifyWatch {
        /// Starts watching `entries` with a new inotify instance.
        /// - Parameter entries: what to watch.
        /// - Returns: the coalesced stream of their changes (see `FileWatcher`).
        /// - Throws: `SystemCallError` when the kernel refuses: `inotify_init1` (too many instances,
        ///   `EMFILE`) or `inotify_add_watch` (no such directory, too many watches `ENOSPC`).
        public static func start(_ entries: [WatchedEntries]) throws(SystemCallError) -> AsyncStream<Void> {
            let descriptor = try Syscall.retrying("inotify_init1", path: "") {
                inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            }
            var byDirectory: [Int32: [WatchedEntries]] = [:]
            do {
                for (directory, group) in Dictionary(grouping: entries, by: \.directory) {
                    let mask = group.reduce(alwaysReported) { $0 | Self.mask(for: $1.changes) }
                    let watch = try Syscall.retrying("inotify_add_watch", path: directory) {
                        inotify_add_watch(descriptor, directory, mask)
                    }
                    byDirectory[watch, default: []] += group
                }
            } catch {
                close(descriptor)
                throw error
            }
            let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let reader = Reader(descriptor: descriptor, table: byDirectory, continuation: continuation)
            continuation.onTermination = { _ in reader.cancel() }
            reader.resume()
            return stream
        }

        /// One watch's inotify instance and the Dispatch source reading it. Its buffer is used on
        /// the source's serial queue only; the descriptor is closed by the source's cancellation.
        private final class Reader: @unchecked Sendable {
            private let descriptor: Int32
            private let table: [Int32: [WatchedEntries]]
            private let continuation: AsyncStream<Void>.Continuation
            private let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 8)
            private let source: any DispatchSourceRead

            init(descriptor: Int32, table: [Int32: [WatchedEntries]], continuation: AsyncStream<Void>.Continuation) {
                self.descriptor = descriptor
                self.table = table
                self.continuation = continuation
                source = DispatchSource.makeReadSource(
                    fileDescriptor: descriptor, queue: DispatchQueue(label: "storefront.inotify"))
            }

            func resume() {
                source.setEventHandler { [self] in
                    if drain() { continuation.yield() }
                }
                source.setCancelHandler { [self] in
                    close(descriptor)
                    buffer.deallocate()
                }
                source.resume()
            }

            func cancel() { source.cancel() }

            /// Reads every queued event; returns whether any of them counts.
            private func drain() -> Bool {
                var counted = false
                while true {
                    let length = read(descriptor, buffer.baseAddress, buffer.count)
                    if length < 0 && errno == EINTR { continue }
                    // EAGAIN: the queue is empty. Any other failure leaves the source to report again.
                    guard length > 0 else { return counted }
                    counted =
                        InotifyWatch.counts(UnsafeRawBufferPointer(rebasing: buffer[..<length]), table: table)
                        || counted
                }
            }
        }

        /// The events a directory watch always reports, whatever it asked for.
        private static let alwaysReported = UInt32(IN_DELETE_SELF | IN_MOVE_SELF)

        /// The inotify events that stand for `changes`.
        static func mask(for changes: Set<WatchedEntries.Change>) -> UInt32 {
            var mask: UInt32 = 0
            if changes.contains(.written) {
                mask |= UInt32(IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO)
            }
            if changes.contains(.closedByWriter) { mask |= UInt32(IN_CLOSE_WRITE) }
            return mask
        }

        /// The changes an event's mask stands for.
        static func changes(in mask: UInt32) -> Set<WatchedEntries.Change> {
            var changes: Set<WatchedEntries.Change> = []
            if mask & self.mask(for: [.written]) != 0 { changes.insert(.written) }
            if mask & UInt32(IN_CLOSE_WRITE) != 0 { changes.insert(.closedByWriter) }
            return changes
        }

        /// Whether any event in `events` (whole `struct inotify_event`s, as `read` returns them)
        /// counts for the entries watched.
        static func counts(_ events: UnsafeRawBufferPointer, table: [Int32: [WatchedEntries]]) -> Bool {
            let header = MemoryLayout<inotify_event>.size
            let notices = UInt32(IN_Q_OVERFLOW | IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF | IN_UNMOUNT)
            var offset = 0
            var counted = false
            while offset + header <= events.count {
                let watch = events.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = events.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let nameLength = Int(events.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                let nameBytes = events[(offset + header)..<min(events.count, offset + header + nameLength)]
                offset += header + nameLength
                if mask & notices != 0 {
                    counted = true
                    continue
                }
                // The name is NUL-padded to the record's length.
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                let changes = Self.changes(in: mask)
                if let groups = table[watch], !name.isEmpty,
                    groups.contains(where: { !$0.changes.isDisjoint(with: changes) && $0.matches(name) })
                {
                    counted = true
                }
            }
            return counted
        }
    }
#endif
