import Foundation
import LocalAppStore
import SystemIO

/// Which account a data directory's app is signed in to: `--account ID` for one command, else
/// the one `store family sign-in ID` (or the storefront's account menu) chose, kept in
/// `DATA/account` (the ID, one line), else `local-tester`. Each account's purchases are its
/// own in the store and in its vault: `local-tester`'s is `DATA/vault.sfv`, another account's
/// `DATA/accounts/ID/vault.sfv`.
enum SignedInAccount {
    /// The file that keeps the data directory's choice.
    static func file(in dataDirectory: URL) -> String { dataDirectory.appendingPathComponent("account").path }

    /// The account ID the command is signed in to.
    /// - Throws: `CLIError.runtime` naming `DATA/account` when it cannot be read or holds no
    ///   valid ID; `.usage` for an invalid `--account`.
    static func id(
        option: String?, dataDirectory: URL, fileSystem: any FileSystem
    ) throws(CLIError) -> String {
        if let option {
            guard FamilySharing.isValidAccountID(option) else {
                throw .usage(FamilyError.invalidAccountID(option).description)
            }
            return option
        }
        let path = file(in: dataDirectory)
        let bytes: [UInt8]?
        do {
            bytes = try fileSystem.readFile(path, limit: 4096)
        } catch {
            throw .runtime("cannot read the signed-in account in \(path): \(error)")
        }
        guard let bytes else { return StoreAccount.localTester.id }
        let id = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard FamilySharing.isValidAccountID(id) else {
            throw .runtime(
                "\(path): \(FamilyError.invalidAccountID(id).description) Sign in again with 'storefront store family sign-in ID'."
            )
        }
        return id
    }

    /// Keeps `id` as the data directory's account (atomically, synced).
    /// - Throws: `CLIError.runtime` naming the file when it cannot be written.
    static func save(_ id: String, dataDirectory: URL, fileSystem: any FileSystem) throws(CLIError) {
        let path = file(in: dataDirectory)
        do {
            try fileSystem.replaceAtomically(path, with: Array((id + "\n").utf8))
        } catch {
            throw .runtime("cannot write the signed-in account to \(path): \(DataDirectory.explain(error))")
        }
    }

    /// Where the account's app keeps its vault: the data directory for `local-tester`,
    /// `DATA/accounts/ID` for another.
    static func vaultDirectory(of id: String, in dataDirectory: URL) -> URL {
        guard id != StoreAccount.localTester.id else { return dataDirectory }
        return dataDirectory.appendingPathComponent("accounts", isDirectory: true)
            .appendingPathComponent(id, isDirectory: true)
    }
}
