import Foundation
import SystemIO

/// Everything that can go wrong with a vault, each case saying what to do about it.
public enum VaultError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `add` found an item with the same service and account.
    case duplicateItem(VaultItem.ID)
    /// `update` or `delete` found no such item.
    case itemNotFound(VaultItem.ID)
    /// The item cannot be stored (a field too long, too many attributes, …).
    case invalidItem(VaultItem.ID, reason: String)
    /// The key or passphrase does not unlock this vault.
    case authenticationFailed(path: String)
    /// The file is damaged or was tampered with; `detail` says where and how.
    case integrity(path: String, offset: UInt64, detail: String)
    /// The file is not a vault at all.
    case notAVault(path: String, detail: String)
    /// The file was written by a newer format version this build does not understand.
    case unsupportedVersion(path: String, major: UInt16, minor: UInt16)
    /// The KDF parameters in the file are outside the accepted limits; nothing was derived.
    case kdfParametersRejected(path: String, detail: String)
    /// The vault needs a different kind of key than the one given.
    case keyKindMismatch(path: String, needs: String)
    /// The vault exists but its key file does not.
    case keyFileMissing(path: String, vault: String)
    /// The key file is not a valid key file.
    case keyFileInvalid(path: String, detail: String)
    /// No passphrase could be obtained.
    case passphraseUnavailable(detail: String)
    /// A file or directory is a symbolic link; the vault never follows them.
    case symbolicLink(path: String)
    /// A file or directory belongs to another user.
    case wrongOwner(path: String, owner: UInt32)
    /// A file or directory is open to other users.
    case insecurePermissions(path: String, mode: UInt32, fix: String)
    /// A system call failed.
    case io(path: String, operation: String, errno: Int32)
    /// Data may not have reached the disk (fsync or write failed); the write did not happen
    /// as far as the caller is concerned.
    case notDurable(path: String, operation: String, errno: Int32)
    /// This handle saw a failure it cannot recover from safely; open the vault again.
    case handleUnusable(path: String, cause: String)

    /// A message a person can act on.
    public var description: String {
        switch self {
        case .duplicateItem(let id):
            "An item for \(id) already exists; use update or upsert to change it."
        case .itemNotFound(let id):
            "No item for \(id); use add or upsert to create it."
        case .invalidItem(let id, let reason):
            "Cannot store the item for \(id): \(reason)."
        case .authenticationFailed(let path):
            "Cannot unlock the vault \(path): wrong key or passphrase. Check STOREFRONT_PASSPHRASE or the key file beside the vault."
        case .integrity(let path, let offset, let detail):
            "The vault \(path) failed its integrity check at byte \(offset): \(detail). It is damaged or was altered; restore it from a backup. Nothing was changed."
        case .notAVault(let path, let detail):
            "\(path) is not a storefront vault (\(detail)). Point storefront at the right file, or move this one aside."
        case .unsupportedVersion(let path, let major, let minor):
            "The vault \(path) declares format version \(major).\(minor); this build reads \(VaultFormat.major).\(VaultFormat.minor). If a newer storefront wrote it, upgrade storefront; otherwise its header is damaged. The file was left unchanged."
        case .kdfParametersRejected(let path, let detail):
            "The vault \(path) asks for key-derivation parameters outside the accepted limits (\(detail)); nothing was derived. The file may be hostile or damaged."
        case .keyKindMismatch(let path, let needs):
            "The vault \(path) is locked with \(needs); supply that instead."
        case .keyFileMissing(let path, let vault):
            "The vault \(vault) exists but its key file \(path) does not; restore the key file from a backup. Without it the vault cannot be read."
        case .keyFileInvalid(let path, let detail):
            "The key file \(path) is invalid (\(detail)); restore it from a backup."
        case .passphraseUnavailable(let detail):
            "No passphrase: \(detail). Set STOREFRONT_PASSPHRASE or run on a terminal."
        case .symbolicLink(let path):
            "\(path) is a symbolic link; the vault refuses to follow links. Replace it with the real file or directory."
        case .wrongOwner(let path, let owner):
            "\(path) belongs to user \(owner), not to you (\(CurrentProcess.effectiveUserID)); the vault will not use it. Fix the owner (chown) or use another data directory."
        case .insecurePermissions(let path, let mode, let fix):
            "\(path) is open to other users (mode \(String(mode & 0o7777, radix: 8))); run `\(fix)` and try again."
        case .io(let path, let operation, let code):
            "\(operation) failed on \(path): \(Errno(rawValue: code)) (errno \(code))."
        case .notDurable(let path, let operation, let code):
            "\(operation) failed on \(path): \(Errno(rawValue: code)) (errno \(code)). The write was not made durable and was not acknowledged; check the disk, then open the vault again."
        case .handleUnusable(let path, let cause):
            "This handle on \(path) stopped after an earlier failure (\(cause)); open the vault again."
        }
    }
}

extension VaultError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
