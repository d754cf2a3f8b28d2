import Foundation
import Synchronization
import TestSupport
import Testing

@testable import StoreCore

@Suite(.timeLimit(.minutes(10)))
struct StorePurchaseTests {
    let dir: TemporaryDirectory
    let backend = QueueBackend()
    let ledger: FileLedger

    init() throws {
        dir = try TemporaryDirectory()
        ledger = try FileLedger(path: dir.path("ledger.jsonl"))
    }

    func makeStore(_ configuration: StoreConfiguration = StoreConfiguration()) async -> Store {
        let store = Store(backend: backend, ledger: ledger, configuration: configuration)
        await store.start()
        return store
    }

    @Test func purchaseRecordsDeliversAndFinishes() async throws {
        let center = NotificationCenter()
        let store = await makeStore(StoreConfiguration(notificationCenter: center))
        let observer = RecordingObserver()
        store.addObserver(observer)
        let posted = Mutex<[Notification.Name]>([])
        let token = center.addObserver(forName: nil, object: nil, queue: nil) { n in
            if Notification.Name.allStoreNotifications.contains(n.name) { posted.withLock { $0.append(n.name) } }
        }
        defer { center.removeObserver(token) }
        var events = store.events().makeAsyncIterator()

        let result = await store.purchase("coins", quantity: 3, orderData: ["myProductId": "order-7"])

        let t = try #require(result.transaction)
        #expect(result.state == "purchased")
        #expect(t.payment.orderData["myProductId"] == "order-7")
        #expect(try await store.count(of: "coins") == 3)
        #expect(await backend.finished == [t.transactionID])
        #expect(observer.log.contains("finished:\(t.transactionID)"))
        #expect(posted.withLock { $0 }.contains(.storePaymentTransactionFinished))
        var sawFinished = false
        while let event = await events.next() {
            if case .paymentFinished(let e) = event, e.transactionID == t.transactionID {
                sawFinished = true
                break
            }
        }
        #expect(sawFinished)
    }

    @Test func twoPurchasesOfOneConsumableEachGetTheirOwnResult() async throws {
        let store = await makeStore()
        async let a = store.purchase("coins", orderData: ["n": "a"])
        async let b = store.purchase("coins", orderData: ["n": "b"])
        let (ra, rb) = await (a, b)
        let ta = try #require(ra.transaction)
        let tb = try #require(rb.transaction)
        #expect(ta.transactionID != tb.transactionID)
        #expect(ta.payment.orderData["n"] == "a")
        #expect(tb.payment.orderData["n"] == "b")
        #expect(try await store.count(of: "coins") == 2)
    }

    @Test func unknownProductFailsWithoutAPayment() async {
        let store = await makeStore()
        let result = await store.purchase("nope")
        #expect(result == .failed(.productNotAvailable(productID: "nope"), nil))
        #expect(await backend.queue.isEmpty)
    }

    @Test func quantityAboveOneOnlyForConsumables() async {
        let store = await makeStore()
        let result = await store.purchase("pro", quantity: 2)
        guard case .failed(.paymentInvalid, nil) = result else {
            Issue.record("expected paymentInvalid, got \(result)")
            return
        }
    }

    @Test func productsAreCachedUnlessTheCallerOptsOut() async throws {
        let store = await makeStore()
        let first = try await store.requestProducts(["coins", "pro", "ghost"])
        #expect(first.products.map(\.id).sorted() == ["coins", "pro"])
        #expect(first.invalidProductIdentifiers == ["ghost"])
        _ = try await store.requestProducts(["coins"])
        #expect(await backend.productRequests == 1)
        _ = try await store.requestProducts(["coins"], useCache: false)
        #expect(await backend.productRequests == 2)
    }

    @Test func buyingAnUncachedProductFetchesItFirst() async {
        let store = await makeStore()
        #expect(await store.cachedProduct("pro") == nil)
        _ = await store.purchase("pro")
        #expect(await store.cachedProduct("pro")?.displayName == "Pro")
        #expect(await backend.productRequests == 1)
    }

    @Test func deferredIsPendingThenApprovalArrivesOnTheUpdateStreamOnce() async throws {
        await backend.setOutcome(.deferred, for: "pro")
        let store = await makeStore()
        var updates = store.transactionUpdates().makeAsyncIterator()
        let result = await store.purchase("pro")
        guard case .pending(let t) = result else {
            Issue.record("expected pending, got \(result)")
            return
        }
        #expect(await backend.finished.isEmpty)
        await backend.approve(t.transactionID)
        let delivered = await updates.next()
        #expect(delivered?.transactionID == t.transactionID)
        #expect(try await store.isPurchased("pro"))
    }

    /// What `transactionUpdates()` promises: a transaction ID comes again when the transaction
    /// changes (an approval, then its refund; a subscription whose expiry moved), as StoreKit 2's
    /// `Transaction.updates` does, and not when it comes back unchanged.
    @Test func anIDArrivesAgainOnTheUpdateStreamWhenItsTransactionChanges() async throws {
        await backend.setOutcome(.deferred, for: "pro")
        let store = await makeStore()
        var updates = store.transactionUpdates().makeAsyncIterator()
        let pending = try #require(await store.purchase("pro").transaction)
        await backend.approve(pending.transactionID)
        let approved = try #require(await updates.next())
        #expect(approved.transactionID == pending.transactionID && approved.revocationDate == nil)
        var refunded = approved
        refunded.revocationDate = Date(timeIntervalSince1970: 5_000)
        await backend.inject(refunded)
        let again = try #require(await updates.next())
        #expect(again.transactionID == pending.transactionID && again.revocationDate != nil)

        let month = Date(timeIntervalSince1970: 2_600_000)
        var monthly = Transaction(
            transactionID: "50", productID: "plus", productType: .autoRenewable, payment: Payment(productID: "plus"),
            state: .purchased, purchaseDate: Date(timeIntervalSince1970: 0), expiresDate: month,
            subscriptionGroupID: "G")
        await backend.inject(monthly)
        #expect(await updates.next()?.expiresDate == month)
        monthly.expiresDate = month.addingTimeInterval(86_400)
        await backend.inject(monthly)
        #expect(await updates.next()?.expiresDate == monthly.expiresDate, "the same ID, its expiry moved")
        await backend.inject(monthly)
        await backend.inject(
            Transaction(
                transactionID: "51", productID: "coins", productType: .consumable, payment: Payment(productID: "coins"),
                state: .purchased, purchaseDate: Date(timeIntervalSince1970: 0)))
        #expect(await updates.next()?.transactionID == "51", "unchanged, 50 does not come again")
    }

    /// An Ask to Buy purchase declined later (in another process, say) is reported as failed,
    /// though the same transaction was reported as deferred before: a new state is news.
    @Test func aDeferredPurchaseDeclinedLaterIsReportedAsFailed() async throws {
        await backend.setOutcome(.deferred, for: "pro")
        let store = await makeStore()
        var events = store.events().makeAsyncIterator()
        guard case .pending(let t) = await store.purchase("pro") else {
            Issue.record("expected pending")
            return
        }
        await backend.decline(t.transactionID)
        // Events are handled in order: the storefront's change comes after the decline's report.
        await backend.move(to: Storefront(code: "JPN", name: "Japan", currencyCode: "JPY", locale: "ja_JP"))
        var seen: [StoreEvent] = []
        while let event = await events.next() {
            if case .storefrontChanged = event { break }
            seen.append(event)
        }
        #expect(
            seen.contains { event in
                if case .paymentFailed(let failed, .paymentCancelled) = event {
                    failed.transactionID == t.transactionID
                } else {
                    false
                }
            }, "\(seen)")
    }

    @Test func cancelledFallsBackToFailureWhenNoCancelClosure() async {
        await backend.setOutcome(.fail(.paymentCancelled), for: "pro")
        let store = await makeStore()
        let (stream, continuation) = AsyncStream<String>.makeStream()
        store.purchase(
            "pro", success: { _ in continuation.yield("success") },
            failure: { _, error in continuation.yield("failure:\(error == .paymentCancelled)") })
        var it = stream.makeAsyncIterator()
        #expect(await it.next() == "failure:true")
        #expect(await backend.queue.isEmpty, "a failed transaction is finished")

        store.purchase(
            "pro", success: { _ in continuation.yield("success") },
            failure: { _, _ in continuation.yield("failure") },
            cancelled: { _ in continuation.yield("cancelled") })
        #expect(await it.next() == "cancelled")
    }

    @Test func asyncCancelledResult() async {
        await backend.setOutcome(.fail(.paymentCancelled), for: "coins")
        let store = await makeStore()
        guard case .cancelled(let t?) = await store.purchase("coins") else {
            Issue.record("expected cancelled with a transaction")
            return
        }
        #expect(t.state == .failed)
    }

    @Test func manualFinishingLeavesTheTransactionUntilTheAppFinishesIt() async throws {
        let store = await makeStore(StoreConfiguration(finishesTransactionsAutomatically: false))
        let t = try #require(await store.purchase("pro").transaction)
        #expect(try await store.unfinishedTransactions().map(\.transactionID) == [t.transactionID])
        try await store.finish(t)
        #expect(try await store.unfinishedTransactions().isEmpty)
    }

    @Test func restoreReturnsRestoredTransactionsAndFallsBackInClosures() async throws {
        let store = await makeStore()
        let bought = try #require(await store.purchase("pro").transaction)
        _ = await store.purchase("coins")
        let observer = RecordingObserver()
        store.addObserver(observer)
        let restored = try await store.restoreTransactions()
        #expect(restored.map(\.productID) == ["pro"])
        #expect(restored.first?.originalTransactionID == bought.transactionID)
        #expect(restored.first?.state == .restored)
        #expect(observer.log.last == "restored:1")
        #expect(await backend.queue.isEmpty, "restored transactions are finished")
    }

    @Test func applicationUsernameIsTheSHA256OfTheAccountName() {
        #expect(ApplicationUsername.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
