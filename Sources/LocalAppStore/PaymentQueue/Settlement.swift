import Foundation
import StoreCore

/// Settling purchases: a `.purchasing` transaction is decided after the latency by this
/// instance (its owner) or adopted by another when its owner is gone; a deferred one is
/// completed by the Transaction Manager. The decisions are `ChargingRules`'; these functions
/// journal them, fire the fault points and tell listeners.
extension PaymentQueue {
    /// Settles this instance's new purchase `id` after one step of latency on the store's clock.
    static func scheduleSettlement(of id: String, in store: isolated LocalAppStore) {
        let clock = store.configuration.clock
        let delay = store.state.settings.latency
        store.settlements.scheduled.insert(id)
        guard delay > .zero else {
            // No latency: a task on the store's own executor, which settles once `add` has
            // returned, rather than one of the global pool that sleeps no time and hops back.
            Task {
                _ = store
                settle(id, in: store)
            }
            return
        }
        Task { [weak store] in
            try? await clock.sleep(for: delay)
            guard let store else { return }
            await settle(id, in: store)
        }
    }

    /// Decides a `.purchasing` transaction as the settings say: failed, deferred, or charged.
    static func settle(_ id: String, in store: isolated LocalAppStore) {
        let configuration = store.configuration
        configuration.faultHook(.beforeCharge)
        let account = store.accountID
        let rules = ChargingRules(localizer: store.localizer, now: configuration.clock.now)
        let result: (result: Bool, changed: [QueueEntry])
        do {
            result = try store.transact { state throws(LocalAppStoreError) in
                let (records, charged) = rules.settle(id, accountID: account, state: state)
                return (records, charged)
            }
        } catch {
            store.settlements.scheduled.remove(id)
            decline(id, because: error, in: store)
            return
        }
        store.settlements.scheduled.remove(id)
        if result.result { configuration.faultHook(.afterCharge) }
        store.announce(result.changed)
        if result.changed.contains(where: { $0.transaction.productType == .autoRenewable }) {
            Subscriptions.changed(in: store)
        }
    }

    /// Declines a purchase whose charge the journal could not take (a full or failing disk)
    /// rather than leave its buyer waiting for ever: nothing is charged, and the error names the
    /// file. The decline is journaled when the journal takes it; when it takes nothing either,
    /// only this instance's listeners hear it, and the transaction, still `.purchasing` on disk,
    /// is settled again once its owner is gone (the next start).
    static func decline(_ id: String, because error: LocalAppStoreError, in store: isolated LocalAppStore) {
        let failure = StoreError.systemError("the charge could not be recorded: \(error.description)")
        let declined = try? store.transact { state throws(LocalAppStoreError) in
            guard var entry = state.entries[id], !entry.finished, entry.transaction.state == .purchasing else {
                return ([JournalRecord](), ())
            }
            entry.owner = nil
            entry.transaction.state = .failed
            entry.transaction.error = failure
            return ([JournalRecord.make(entry)], ())
        }
        if let declined {
            store.announce(declined.changed)
        } else if var entry = store.state.entries[id], entry.transaction.state == .purchasing {
            store.settlements.declinedUnwritten.insert(id)
            entry.transaction.state = .failed
            entry.transaction.error = .systemError(
                "the charge could not be recorded: \(error.description); the purchase is settled again at the next start"
            )
            store.announce([entry])
        }
    }

    /// Charges a deferred purchase that waits for `reason`, and marks it purchased.
    /// - Throws: `.unknownTransaction`, or `.notPending` when it does not wait for `reason`.
    static func complete(
        _ id: String, waitingFor reason: PendingReason, in store: isolated LocalAppStore
    ) throws(LocalAppStoreError) -> StoreCore.Transaction {
        let account = store.accountID
        let rules = ChargingRules(localizer: store.localizer, now: store.configuration.clock.now)
        let (entry, changed) = try store.transact { state throws(LocalAppStoreError) in
            let (entry, records) = try rules.complete(id, accountID: account, waitingFor: reason, state: state)
            return (records, entry)
        }
        if entry.charged { store.configuration.faultHook(.afterCharge) }
        store.announce(changed)
        if changed.contains(where: { $0.transaction.productType == .autoRenewable }) {
            Subscriptions.changed(in: store)
        }
        return store.signed([entry.transaction])[0]
    }

    /// Settles `.purchasing` transactions whose owner (a process or instance) is gone, and
    /// this instance's own whose settling failed.
    static func adoptAbandoned(in store: isolated LocalAppStore) {
        let account = store.accountID
        let configuration = store.configuration
        let directory = configuration.stateDirectory.path
        guard let mine = store.ownerToken else { return }
        let settlements = store.settlements
        let orphans = store.state.unfinishedEntries.filter { entry in
            guard entry.accountID == account, entry.transaction.state == .purchasing else { return false }
            guard let owner = entry.owner else { return true }
            if owner == mine { return !settlements.isSettling(entry.id) }
            return OwnerLease.isAbandoned(token: owner, directory: directory, fileSystem: configuration.fileSystem)
        }
        for orphan in orphans { settle(orphan.id, in: store) }
    }
}
