import Foundation

/// A scratch directory on a memory file system when there is one (`/dev/shm`): crash states
/// are written by the thousand and their syncs need not reach a disk. Removed on deinit unless kept.
final class FastDirectory: @unchecked Sendable {
    let url: URL
    private let lock = NSLock()
    private var kept = false

    init(prefix: String) throws {
        let base = FileManager.default.isWritableFile(atPath: "/dev/shm")
            ? URL(fileURLWithPath: "/dev/shm") : FileManager.default.temporaryDirectory
        url = base.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    deinit {
        if !lock.withLock({ kept }) { try? FileManager.default.removeItem(at: url) }
    }

    /// Leaves the directory in place, and says where.
    func keep() {
        lock.withLock { kept = true }
        FileHandle.standardError.write(Data("kept for inspection: \(url.path)\n".utf8))
    }
}
