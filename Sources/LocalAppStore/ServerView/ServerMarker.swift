import Foundation
package import SystemIO

/// The "a server is running" marker of a data directory: `DATA/server.json` (its URL, process
/// and start) beside `DATA/server.lock`, on which the running server holds an exclusive
/// `flock` for its life. The kernel drops the lock when the process dies, so a marker whose
/// lock can be taken is a dead server's and is ignored (and removed by the next server).
package final class ServerMarker: Sendable {
    /// What a running server's marker says.
    package struct Running: Codable, Hashable, Sendable {
        /// Its base URL, e.g. `http://127.0.0.1:8080`.
        package var url: String
        /// Its process ID.
        package var pid: Int32
        /// When it started.
        package var startedAt: Date
    }

    /// What the marker says.
    package let running: Running
    private let markerPath: String
    private let lease: FileLease
    private let fileSystem: any FileSystem

    /// Claims the data directory for this process's server, started now, at `url`: takes the
    /// lock and writes the marker.
    /// - Parameter fileSystem: where the files live (the real one by default).
    /// - Returns: nil when another live server holds it (read it with `running(in:)`).
    /// - Throws: `LocalAppStoreError.io` when the files cannot be made.
    package static func claim(
        dataDirectory: URL, url: String, fileSystem: any FileSystem = POSIXFileSystem()
    ) throws(LocalAppStoreError) -> ServerMarker? {
        let running = Running(url: url, pid: ProcessInfo.processInfo.processIdentifier, startedAt: Date())
        let lockPath = dataDirectory.appendingPathComponent("server.lock").path
        let markerPath = dataDirectory.appendingPathComponent("server.json").path
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let bytes = try? Array(encoder.encode(running)) + [UInt8(ascii: "\n")] else {
            throw .io(path: markerPath, reason: "the marker cannot be encoded")
        }
        do throws(SystemCallError) {
            guard let lease = try FileLease.take(lockPath, fileSystem: fileSystem) else { return nil }
            do {
                // Not made durable: a marker only says something while its lease is held.
                try fileSystem.replaceAtomically(
                    markerPath, with: bytes, temporaryPath: markerPath + ".tmp-\(running.pid)", fileSync: nil,
                    syncsDirectory: false)
            } catch {
                lease.release()
                throw error
            }
            return ServerMarker(running: running, markerPath: markerPath, lease: lease, fileSystem: fileSystem)
        } catch {
            throw .io(path: error.path, reason: "\(error.operation) failed: \(error.errno)")
        }
    }

    private init(running: Running, markerPath: String, lease: FileLease, fileSystem: any FileSystem) {
        self.running = running
        self.markerPath = markerPath
        self.lease = lease
        self.fileSystem = fileSystem
    }

    deinit { release() }

    /// Removes the marker and drops the lock (a stopped server).
    package func release() {
        lease.release { try? fileSystem.removeFile(markerPath) }
    }

    /// The server running on this data directory, if one is: nil when there is no marker, or
    /// its server died (the lock is free).
    package static func running(in dataDirectory: URL, fileSystem: any FileSystem = POSIXFileSystem()) -> Running? {
        let lockPath = dataDirectory.appendingPathComponent("server.lock").path
        guard fileSystem.exists(lockPath) else { return nil }
        // Taking the lease (and dropping it at once) proves nobody holds it.
        switch Result(catching: { () throws(SystemCallError) in try FileLease.take(lockPath, fileSystem: fileSystem) })
        {
        case .success(let free?):
            free.release()
            return nil
        case .success(nil):
            break
        case .failure:
            return nil
        }
        guard
            let bytes = try? fileSystem.readFile(
                dataDirectory.appendingPathComponent("server.json").path, limit: 64 << 10)
        else {
            return nil
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(Running.self, from: Data(bytes))
    }
}
