import Foundation
import StoreCore

/// Settling purchases: a `.purchasing` transaction is decided after the latency by this
/// instance (its owner) or adopted by another when its owner is gone; a deferred one is
/// completed by the Transaction Manager. The decisions are `ChargingRules`'; this file
/// journals them, fires the fault points and tells listeners.
extension LocalAppStore {
    /// How many of this instance's purchases wait for their latency before being settled.
    var scheduledSettleCount: Int { scheduled.count }

    /// The `latency` setting as a duration.
    var latency: Duration { .milliseconds(journal.state.settings.latencyMilliseconds) }

    /// Waits one step of latency on the store's clock.
    func pause() async {
        let delay = latency
        guard delay > .zero else { return }
        try? await configuration.clock.sleep(for: delay)
    }

    /// Settles this instance's new purchase `id` after one step of latency on the store's clock.
    func scheduleSettlement(of id: String) {
        let clock = configuration.clock
        let delay = latency
        scheduled.insert(id)
        Task { [weak self] in
            try? await clock.sleep(for: delay)
            await self?.settle(id)
        }
    }

    /// Decides a `.purchasing` transaction as the settings say: failed, deferred, or charged.
    func settle(_ id: String) {
        configuration.faultHook(.beforeCharge)
        let account = configuration.account.id
        let rules = chargingRules(at: configuration.clock.now)
        let result: (result: Bool, changed: [QueueEntry])
        do {
            result = try journal.transact { state throws(LocalAppStoreError) in
                let (records, charged) = rules.settle(id, accountID: account, state: state)
                return (records, charged)
            }
        } catch {
            scheduled.remove(id)
            decline(id, because: error)
            return
        }
        scheduled.remove(id)
        if result.result { configuration.faultHook(.afterCharge) }
        announce(result.changed)
        if result.changed.contains(where: { $0.transaction.productType == .autoRenewable }) { subscriptionsChanged() }
    }

    /// Declines a purchase whose charge the journal could not take (a full or failing disk)
    /// rather than leave its buyer waiting for ever: nothing is charged, and the error names the
    /// file. The decline is journaled when the journal takes it; when it takes nothing either,
    /// only this instance's listeners hear it, and the transaction, still `.purchasing` on disk,
    /// is settled again once its owner is gone (the next start).
    func decline(_ id: String, because error: LocalAppStoreError) {
        let failure = StoreError.systemError("the charge could not be recorded: \(error.description)")
        let declined = try? journal.transact { state throws(LocalAppStoreError) in
            guard var entry = state.entries[id], !entry.finished, entry.transaction.state == .purchasing else {
                return ([JournalRecord](), ())
            }
            entry.owner = nil
            entry.transaction.state = .failed
            entry.transaction.error = failure
            return ([JournalRecord.make(entry)], ())
        }
        if let declined {
            announce(declined.changed)
        } else if var entry = journal.state.entries[id], entry.transaction.state == .purchasing {
            declinedUnwritten.insert(id)
            entry.transaction.state = .failed
            entry.transaction.error = .systemError(
                "the charge could not be recorded: \(error.description); the purchase is settled again at the next start"
            )
            announce([entry])
        }
    }

    /// Charges a deferred purchase that waits for `reason`, and marks it purchased.
    /// - Throws: `.unknownTransaction`, or `.notPending` when it does not wait for `reason`.
    func complete(_ id: String, waitingFor reason: PendingReason) throws(LocalAppStoreError) -> StoreCore.Transaction {
        let account = configuration.account.id
        let rules = chargingRules(at: configuration.clock.now)
        let (entry, changed) = try journal.transact { state throws(LocalAppStoreError) in
            let (entry, records) = try rules.complete(id, accountID: account, waitingFor: reason, state: state)
            return (records, entry)
        }
        if entry.charged { configuration.faultHook(.afterCharge) }
        announce(changed)
        if changed.contains(where: { $0.transaction.productType == .autoRenewable }) { subscriptionsChanged() }
        return signed([entry.transaction])[0]
    }

    /// Settles `.purchasing` transactions whose owner (a process or instance) is gone, and
    /// this instance's own whose settling failed.
    func adoptAbandoned() {
        let account = configuration.account.id
        let directory = configuration.stateDirectory.path
        guard let mine = lease?.token else { return }
        let orphans = journal.state.unfinishedEntries.filter { entry in
            guard entry.accountID == account, entry.transaction.state == .purchasing else { return false }
            guard let owner = entry.owner else { return true }
            if owner == mine { return !scheduled.contains(entry.id) && !declinedUnwritten.contains(entry.id) }
            return OwnerLease.isAbandoned(token: owner, directory: directory, fileSystem: configuration.fileSystem)
        }
        for orphan in orphans { settle(orphan.id) }
    }
}
