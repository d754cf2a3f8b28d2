import Foundation
package import SystemIO

/// The right to send a store's notifications: an exclusive `flock` on
/// `STATE/notifications.lock`, held by one sender for its life. Two servers (or two senders in
/// one process) on one data directory therefore never make the same attempt; the kernel drops
/// the lock when its holder dies, so a killed sender's successor takes over at once.
public final class NotificationSenderLease: Sendable {
    private let lease: FileLease

    /// Takes the lease of the store in `stateDirectory`.
    /// - Returns: nil while another sender holds it.
    /// - Throws: `LocalAppStoreError.io` when the lock file cannot be opened.
    package static func take(
        stateDirectory: URL, fileSystem: any FileSystem = POSIXFileSystem()
    ) throws(LocalAppStoreError) -> NotificationSenderLease? {
        let path = stateDirectory.appendingPathComponent("notifications.lock").path
        do throws(SystemCallError) {
            return try FileLease.take(path, fileSystem: fileSystem).map(NotificationSenderLease.init)
        } catch {
            throw .io(path: error.path, reason: "\(error.operation) failed: \(error.errno)")
        }
    }

    private init(lease: FileLease) {
        self.lease = lease
    }

    /// Gives the lease up (a stopped sender).
    public func release() { lease.release() }
}
