import Foundation
import StoreCore

/// The commands that show what the app owns (`history`, `entitlements`) first compare the
/// vault with the store: purchases the store says this app finished but the vault lacks (it
/// was deleted, truncated or replaced by an older copy) are never shown silently as fewer
/// purchases. What a restore can give back is restored; lost consumables are named.
enum LedgerCheck {
    /// Audits `session`'s vault, restoring what it can.
    /// - Returns: the problem to report (the command then exits 1), or nil when the vault is whole.
    static func reconcile(_ session: StoreSession) async -> String? {
        let audit: LedgerAudit
        do {
            guard let found = try await session.store.auditLedger() else { return nil }
            audit = found
        } catch {
            return "cannot compare the purchase vault with the store: \(error)"
        }
        guard !audit.isComplete else { return nil }
        let vault = SignedInAccount.vaultDirectory(
            of: session.backend.configuration.account.id, in: session.dataDirectory
        ).appendingPathComponent("vault.sfv").path
        var text =
            "the purchase vault \(vault) lacks \(count(audit.missing.count, "transaction")) the store says this app "
            + "finished (was it deleted, truncated or replaced by an older copy?)"
        if !audit.restorable.isEmpty, session.readOnly {
            text +=
                "; the data directory is read-only, so nothing was restored (run `storefront restore` once it is writable)"
        } else if !audit.restorable.isEmpty {
            do {
                let restored = try await session.store.recoverLostPurchases(audit)
                let products = Set(restored.map(\.productID)).sorted()
                text += "; restored from the store: \(products.isEmpty ? "nothing" : products.joined(separator: ", "))"
            } catch {
                text +=
                    "; the restore of \(Set(audit.restorable.map(\.productID)).sorted().joined(separator: ", ")) failed: \(error)"
            }
        }
        if !audit.lostConsumables.isEmpty {
            let units = audit.lostUnits.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }
            text +=
                "; consumables the store cannot give back, missing from the balances: \(units.joined(separator: ", "))"
                + " (transactions \(audit.lostConsumables.map(\.transactionID).joined(separator: ", ")))"
        }
        return text + "."
    }

    private static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
}
