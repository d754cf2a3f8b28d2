import Foundation
import StoreCore

/// The server's view of the store, for the local App Store Server only (`package`): a
/// snapshot of the journal to answer from (taken on the store's actor, or off it while no
/// process has written since), what the server signs (`ServerView+Signing.swift`), and the
/// changes Apple's API makes — consumption information, app account tokens
/// (`AppAccountTokens`), renewal-date extensions (`RenewalDateExtensions`) — each one durable
/// journal write. Reach it as `store.server`.
package struct ServerView: Sendable {
    let store: LocalAppStore

    /// The store as it is now (other processes' changes read first).
    /// - Throws: `LocalAppStoreError.io` or `.corrupt` when the journal cannot be read.
    package func snapshot() async throws(LocalAppStoreError) -> StoreSnapshot {
        try await store.perform { store throws(LocalAppStoreError) in
            try store.refresh()
            let number = store.publishState()
            return StoreSnapshot(
                state: store.state, accountID: store.accountID, now: store.configuration.clock.now,
                publication: number)
        }
    }

    /// The store as it is now, taken on the caller's thread without waiting for the actor:
    /// the state the last `snapshot()` read, when no process (this one included) has written
    /// the journal since (one `stat`). Nil otherwise: then `snapshot()` reads the news.
    package func currentSnapshot() -> StoreSnapshot? {
        guard let (state, number) = store.published.current() else { return nil }
        return StoreSnapshot(
            state: state, accountID: store.accountID, now: store.configuration.clock.now, publication: number)
    }

    /// Finishes one of the account's purchases for the App Store Server API's Finish
    /// Transaction as `PaymentQueue.finishedForServer` says, in one durable write (the
    /// server's answer promises it), and tells the app it left the queue.
    /// - Returns: false when the account has no such purchase (nothing is written); true when
    ///   it is finished, now or before.
    /// - Throws: `LocalAppStoreError` when the journal cannot be written.
    package func finish(transactionID: String) async throws(LocalAppStoreError) -> Bool {
        try await store.perform { store throws(LocalAppStoreError) in
            let account = store.accountID
            return try store.transactAndAnnounce { state throws(LocalAppStoreError) in
                guard let records = PaymentQueue.finishedForServer(transactionID, accountID: account, in: state)
                else { return ([], false) }
                return (records, true)
            }.result
        }
    }

    /// Records consumption information for one of the account's transactions.
    /// - Returns: false when the account has no such transaction (nothing is written).
    /// - Throws: `LocalAppStoreError` when the journal cannot be written.
    @discardableResult
    package func recordConsumption(_ record: ConsumptionRecord) async throws(LocalAppStoreError) -> Bool {
        try await store.perform { store throws(LocalAppStoreError) in
            let account = store.accountID
            return try store.transact { state throws(LocalAppStoreError) in
                guard let records = record.records(accountID: account, in: state) else { return ([], false) }
                return (records, true)
            }.result
        }
    }

    /// Sets the app account token of a purchase (by its original transaction ID), as
    /// `AppAccountTokens.records` says, in one durable write, and tells the app of the
    /// transactions it changed.
    /// - Returns: false when the account has no such original transaction (nothing is written).
    /// - Throws: `LocalAppStoreError` when the journal cannot be written.
    @discardableResult
    package func setAppAccountToken(
        _ token: UUID, originalTransactionID: String
    ) async throws(LocalAppStoreError) -> Bool {
        try await store.perform { store throws(LocalAppStoreError) in
            let account = store.accountID
            let (known, changed) = try store.transact { state throws(LocalAppStoreError) in
                guard
                    let records = AppAccountTokens.records(
                        setting: token, originalTransactionID: originalTransactionID, accountID: account, in: state)
                else { return ([], false) }
                return (records, true)
            }
            store.announceRevisions(changed)
            return known
        }
    }

    /// Extends an active subscription's current period by `days` (at the store's time rate),
    /// as `RenewalDateExtensions.extend` says, in one durable write; the app hears of the new
    /// expiry.
    /// - Parameters:
    ///   - originalTransactionID: the subscription's original transaction ID.
    ///   - days: 1…90 (the caller checks the range).
    ///   - reasonCode: Apple's `extendReasonCode`.
    ///   - requestIdentifier: the caller's identifier; the same identifier again returns the
    ///     first answer without extending twice.
    /// - Throws: `LocalAppStoreError` when the journal cannot be written.
    package func extendRenewalDate(
        originalTransactionID: String, days: Int, reasonCode: Int, requestIdentifier: String
    ) async throws(LocalAppStoreError) -> ExtensionOutcome {
        try await store.perform { store throws(LocalAppStoreError) in
            let account = store.accountID
            let now = store.configuration.clock.now
            let catalog = store.configuration.catalog
            let (outcome, changed) = try store.transact { state throws(LocalAppStoreError) in
                RenewalDateExtensions.extend(
                    originalTransactionID, days: days, reasonCode: reasonCode, requestIdentifier: requestIdentifier,
                    account: account, now: now, catalog: catalog, state: &state)
            }
            store.announce(changed)
            if case .extended = outcome { Subscriptions.changed(in: store) }
            return outcome
        }
    }

    /// Extends every active subscription of `productID` (optionally only in `storefronts`)
    /// by `days`, as `RenewalDateExtensions.extendAll` says, and records the request for its
    /// status, in one durable write.
    /// - Returns: the record, with how many were extended and how many could not be.
    /// - Throws: `LocalAppStoreError` when the journal cannot be written.
    package func extendRenewalDates(
        productID: String, days: Int, reasonCode: Int, requestIdentifier: String, storefronts: [String]
    ) async throws(LocalAppStoreError) -> MassRenewalExtension {
        try await store.perform { store throws(LocalAppStoreError) in
            let now = store.configuration.clock.now
            let catalog = store.configuration.catalog
            let (result, changed) = try store.transact { state throws(LocalAppStoreError) in
                RenewalDateExtensions.extendAll(
                    productID: productID, days: days, reasonCode: reasonCode, requestIdentifier: requestIdentifier,
                    storefronts: storefronts, now: now, catalog: catalog, state: &state)
            }
            store.announce(changed)
            Subscriptions.changed(in: store)
            return result
        }
    }
}

extension LocalAppStore {
    /// The server's view of the store: snapshots, signing, and the changes Apple's API makes.
    package nonisolated var server: ServerView { ServerView(store: self) }
}
