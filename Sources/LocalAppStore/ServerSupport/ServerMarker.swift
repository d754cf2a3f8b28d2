import Foundation
import Synchronization

/// The "a server is running" marker of a data directory: `DATA/server.json` (its URL, process
/// and start) beside `DATA/server.lock`, on which the running server holds an exclusive
/// `flock` for its life. The kernel drops the lock when the process dies, so a marker whose
/// lock can be taken is a dead server's and is ignored (and removed by the next server).
public final class ServerMarker: Sendable {
    /// What a running server's marker says.
    public struct Running: Codable, Hashable, Sendable {
        /// Its base URL, e.g. `http://127.0.0.1:8080`.
        public var url: String
        /// Its process ID.
        public var pid: Int32
        /// When it started.
        public var startedAt: Date

        /// Creates a marker's content.
        public init(url: String, pid: Int32, startedAt: Date) {
            self.url = url
            self.pid = pid
            self.startedAt = startedAt
        }
    }

    /// What the marker says.
    public let running: Running
    private let markerPath: String
    private let fd: Int32
    private let released = Mutex(false)

    /// Claims the data directory for a server: takes the lock and writes the marker.
    /// - Returns: nil when another live server holds it (read it with `running(in:)`).
    /// - Throws: `LocalAppStoreError.io` when the files cannot be made.
    public static func claim(dataDirectory: URL, running: Running) throws(LocalAppStoreError) -> ServerMarker? {
        let lockPath = dataDirectory.appendingPathComponent("server.lock").path
        let markerPath = dataDirectory.appendingPathComponent("server.json").path
        do {
            let fd = try Platform.openReadWrite(lockPath)
            guard try Platform.tryLockExclusive(fd, path: lockPath) else {
                Platform.closeDescriptor(fd)
                return nil
            }
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let bytes = try Array(encoder.encode(running)) + [UInt8(ascii: "\n")]
            let temporary = markerPath + ".tmp-\(running.pid)"
            let out = try Platform.openReadWrite(temporary)
            defer { Platform.closeDescriptor(out) }
            try Platform.writeAll(out, bytes, path: temporary)
            try Platform.renameItem(temporary, markerPath)
            return ServerMarker(running: running, markerPath: markerPath, fd: fd)
        } catch let error as Platform.PlatformError {
            throw .io(path: error.path, reason: "\(error.call) failed: \(error.reason)")
        } catch {
            throw .io(path: markerPath, reason: "\(error)")
        }
    }

    private init(running: Running, markerPath: String, fd: Int32) {
        self.running = running
        self.markerPath = markerPath
        self.fd = fd
    }

    deinit { release() }

    /// Removes the marker and drops the lock (a stopped server).
    public func release() {
        guard !released.withLock({ done in defer { done = true }; return done }) else { return }
        Platform.removeFile(markerPath)
        Platform.closeDescriptor(fd)
    }

    /// The server running on this data directory, if one is: nil when there is no marker, or
    /// its server died (the lock is free).
    public static func running(in dataDirectory: URL) -> Running? {
        let lockPath = dataDirectory.appendingPathComponent("server.lock").path
        guard let fd = try? Platform.openReadOnly(lockPath) else { return nil }
        defer { Platform.closeDescriptor(fd) }
        // Taking the lock (and dropping it at once) proves nobody holds it.
        if (try? Platform.tryLockExclusive(fd, path: lockPath)) ?? true { return nil }
        guard let data = FileManager.default.contents(atPath: dataDirectory.appendingPathComponent("server.json").path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(Running.self, from: data)
    }
}
