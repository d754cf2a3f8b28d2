import Foundation
import StoreCore
import Synchronization
import Testing

@testable import LocalAppStore

/// What the store's streams are told when entries change, and that every stream hears it.
@Suite(.timeLimit(.minutes(10))) struct EventFanOutTests {
    static func entry(
        _ id: String, _ state: TransactionState, account: String = "me", finished: Bool = false
    ) -> QueueEntry {
        QueueEntry(
            transaction: StoreCore.Transaction(
                transactionID: id, productID: "p", productType: .consumable, payment: Payment(productID: "p"),
                state: state, purchaseDate: Date(timeIntervalSince1970: 0)),
            accountID: account, charged: false, finished: finished, pending: nil, owner: nil)
    }

    @Test func finishedEntriesAreRemovedOthersUpdatedPurchasingAndOtherAccountsNeverSent() {
        let changed = [
            Self.entry("1", .purchased),
            Self.entry("2", .purchasing),
            Self.entry("3", .purchased, finished: true),
            Self.entry("4", .deferred, account: "someone-else"),
            Self.entry("5", .failed),
            Self.entry("6", .restored, account: "someone-else", finished: true),
        ]
        let (updated, removed) = EventFanOut.announcement(of: changed, accountID: "me")
        #expect(updated.map(\.transactionID) == ["1", "5"])
        #expect(removed == ["3"])
        #expect(EventFanOut.revisions(in: changed, accountID: "me").map(\.transactionID) == ["3"])
    }

    @Test func everyStreamHearsEveryEventInOrder() async {
        var fanOut = EventFanOut()
        #expect(fanOut.isEmpty)
        let (first, _) = fanOut.makeStream { _ in }
        let (second, _) = fanOut.makeStream { _ in }
        #expect(!fanOut.isEmpty)
        let updated = [Self.entry("1", .purchased).transaction]
        fanOut.send(updated: updated, removed: ["2"])
        fanOut.send(updated: [], removed: [])  // nothing to say: nothing sent
        fanOut.send(.subscriptionsChanged)
        fanOut.finishAll()

        for stream in [first, second] {
            var events: [String] = []
            for await event in stream {
                switch event {
                case .transactionsUpdated(let transactions):
                    events.append("updated \(transactions.map(\.transactionID))")
                case .transactionsRemoved(let ids): events.append("removed \(ids)")
                case .subscriptionsChanged: events.append("subscriptions")
                case .storePaymentRequested: events.append("store payment")
                case .refundRequestDecided(let decision): events.append("refund \(decision.requestID)")
                case .storefrontChanged(let storefront): events.append("storefront \(storefront.code)")
                }
            }
            #expect(events == [#"updated ["1"]"#, #"removed ["2"]"#, "subscriptions"])
        }
    }

    @Test func aStreamWhoseReaderWentAwayNamesItselfAndIsRemoved() async {
        var fanOut = EventFanOut()
        let terminated = Mutex<[UUID]>([])
        let (kept, keptContinuation) = fanOut.makeStream { id in terminated.withLock { $0.append(id) } }
        let (_, goneContinuation) = fanOut.makeStream { id in terminated.withLock { $0.append(id) } }
        goneContinuation.finish()  // as when its reader goes away
        let gone = terminated.withLock { $0 }
        #expect(gone.count == 1)
        for id in gone { fanOut.remove(id) }
        #expect(!fanOut.isEmpty, "only that stream is removed")

        fanOut.send(.subscriptionsChanged)
        keptContinuation.finish()
        var heard = 0
        for await _ in kept { heard += 1 }
        #expect(heard == 1)
        for id in terminated.withLock({ $0 }) where !gone.contains(id) { fanOut.remove(id) }
        #expect(fanOut.isEmpty)
    }
}
