import Catalog
import Foundation
import StoreCore
import StoreTesting
import Synchronization
import TestSupport
import Testing

@testable import LocalAppStore

/// The monthly plan of the Demo's Pro (Yearly), bought through each of StoreCore's faces (async,
/// closures, the observer protocol, `NotificationCenter`) over the real local store: every face
/// hands the app the product's pricing terms, the transaction's plan and place in its
/// commitment, and the renewal info's commitment renewal terms, with the same values.
@Suite(.timeLimit(.minutes(10)))
struct CommitmentFacesTests {
    let demo: DemoEngine
    let center = NotificationCenter()
    static let monthly = PurchaseOptions(billingPlanType: .monthly)

    init() throws { demo = try DemoEngine() }

    /// The engine over a local store renewing every 10 seconds: the commitment's year is 120 seconds.
    func launch() async throws -> Store {
        let backend = try makeStore(demo.directory, catalog: demo.catalog, clock: demo.clock)
        try await backend.settings.set(name: "time-rate", value: "every-10-seconds")
        return Store(
            backend: backend, ledger: try FileLedger(path: demo.directory.path("ledger.jsonl")),
            configuration: StoreConfiguration(
                verifier: AcceptingVerifier(), notificationCenter: center, clock: demo.clock))
    }

    /// When a commitment bought now ends: twelve monthly payments, 10 seconds each.
    var commitmentEnd: Date { demo.clock.now.addingTimeInterval(120) }

    // MARK: - What every face must carry

    /// Pro (Yearly)'s plans: $79.99 a year up front, or $7.99 a month for 12 months ($95.88)
    /// with a free week that belongs to the monthly plan alone.
    func expectPricingTerms(of products: [Product], sourceLocation: SourceLocation = #_sourceLocation) {
        let terms = products.first { $0.id == DemoCatalog.proYearly }?.subscription?.pricingTerms ?? []
        #expect(terms.map(\.billingPlanType) == [.billedUpfront, .monthly], sourceLocation: sourceLocation)
        guard terms.count == 2 else { return }
        let upfront = terms[0]
        let monthly = terms[1]
        #expect(upfront.billingPrice == Decimal(string: "79.99"), sourceLocation: sourceLocation)
        #expect(upfront.billingDisplayPrice == "$79.99", sourceLocation: sourceLocation)
        #expect(upfront.billingPeriod == SubscriptionPeriod(value: 1, unit: .year), sourceLocation: sourceLocation)
        #expect(upfront.commitmentInfo == nil, sourceLocation: sourceLocation)
        #expect(upfront.subscriptionOffers.isEmpty, sourceLocation: sourceLocation)
        #expect(monthly.billingPrice == Decimal(string: "7.99"), sourceLocation: sourceLocation)
        #expect(monthly.billingDisplayPrice == "$7.99", sourceLocation: sourceLocation)
        #expect(monthly.billingPeriod == SubscriptionPeriod(value: 1, unit: .month), sourceLocation: sourceLocation)
        #expect(
            monthly.commitmentInfo
                == PricingTerms.CommitmentInfo(
                    price: Decimal(string: "95.88")!, displayPrice: "$95.88",
                    period: SubscriptionPeriod(value: 1, unit: .year)),
            sourceLocation: sourceLocation)
        #expect(monthly.subscriptionOffers.map(\.kind) == [.introductory], sourceLocation: sourceLocation)
        #expect(monthly.subscriptionOffers.first?.paymentMode == .freeTrial, sourceLocation: sourceLocation)
    }

    /// The first payment: the monthly plan, payment 1 of 12 of a $95.88 commitment ending `end`,
    /// taken in the free week.
    func expectFirstPayment(
        _ transaction: StoreCore.Transaction?, ends end: Date, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(transaction?.productID == DemoCatalog.proYearly, sourceLocation: sourceLocation)
        #expect(transaction?.state == .purchased, sourceLocation: sourceLocation)
        #expect(transaction?.billingPlanType == .monthly, sourceLocation: sourceLocation)
        #expect(
            transaction?.commitmentInfo
                == Transaction.CommitmentInfo(
                    billingPeriodNumber: 1, totalBillingPeriods: 12, price: Decimal(string: "95.88")!,
                    expirationDate: end),
            sourceLocation: sourceLocation)
        #expect(transaction?.offerType == .introductory && transaction?.price == 0, sourceLocation: sourceLocation)
    }

    /// The subscription's status after the first payment: subscribed, its record in the
    /// commitment, and the renewal info's terms for the commitment's end (a new commitment
    /// of the same product, $7.99 a month).
    func expectStatus(
        _ status: SubscriptionStatus?, of first: StoreCore.Transaction?, ends end: Date,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(status?.state == .subscribed, sourceLocation: sourceLocation)
        #expect(status?.transaction.transactionID == first?.transactionID, sourceLocation: sourceLocation)
        #expect(status?.transaction.commitmentInfo == first?.commitmentInfo, sourceLocation: sourceLocation)
        let info = status?.renewalInfo
        #expect(info?.originalTransactionID == first?.transactionID, sourceLocation: sourceLocation)
        #expect(info?.willAutoRenew == true, sourceLocation: sourceLocation)
        #expect(info?.renewalBillingPlanType == .monthly, sourceLocation: sourceLocation)
        #expect(
            info?.commitmentInfo
                == RenewalInfo.CommitmentInfo(
                    willAutoRenew: true, autoRenewPreference: DemoCatalog.proYearly, renewalBillingPlanType: .monthly,
                    renewalDate: end, renewalPrice: Decimal(string: "7.99")),
            sourceLocation: sourceLocation)
    }

    /// The group's status with the engine's subscribed Pro (Yearly), when it has one.
    func proStatus(_ statuses: [SubscriptionStatus]) -> SubscriptionStatus? {
        statuses.first { $0.transaction.productID == DemoCatalog.proYearly }
    }

    // MARK: - The faces

    @Test func asyncAwait() async throws {
        let store = try await launch()
        await store.start()
        let end = commitmentEnd
        expectPricingTerms(of: try await store.requestProducts([DemoCatalog.proYearly]).products)
        let result = await store.purchase(DemoCatalog.proYearly, options: Self.monthly)
        expectFirstPayment(result.transaction, ends: end)
        expectStatus(proStatus(try await store.subscriptionStatuses()), of: result.transaction, ends: end)
        let entitlement = try await store.currentEntitlements().first { $0.productID == DemoCatalog.proYearly }
        #expect(entitlement?.transactionID == result.transaction?.transactionID)
    }

    @Test func closures() async throws {
        let store = try await launch()
        let end = commitmentEnd
        let products = await withCheckedContinuation {
            (done: CheckedContinuation<Result<[Product], StoreError>, Never>) in
            store.requestProducts(
                [DemoCatalog.proYearly], success: { done.resume(returning: .success($0.products)) },
                failure: { done.resume(returning: .failure($0)) })
        }
        expectPricingTerms(of: try products.get())
        let bought = await withCheckedContinuation {
            (done: CheckedContinuation<Result<StoreCore.Transaction, StoreError>, Never>) in
            store.purchase(
                DemoCatalog.proYearly, options: Self.monthly, success: { done.resume(returning: .success($0)) },
                failure: { _, error in done.resume(returning: .failure(error)) })
        }
        let first = try bought.get()
        expectFirstPayment(first, ends: end)
        let statuses = await withCheckedContinuation {
            (done: CheckedContinuation<Result<[SubscriptionStatus], StoreError>, Never>) in
            store.subscriptionStatuses(
                success: { done.resume(returning: .success($0)) }, failure: { done.resume(returning: .failure($0)) })
        }
        expectStatus(proStatus(try statuses.get()), of: first, ends: end)
    }

    /// Starts `store`, asks for the product and buys it monthly, and checks what `inbox` was
    /// handed on the way: the products, the delivered payment (the one `purchase` returned) and
    /// the subscription's status.
    func buyMonthly(_ store: Store, expecting inbox: CommitmentObserver) async throws {
        await store.start()
        let end = commitmentEnd
        _ = try await store.requestProducts([DemoCatalog.proYearly], useCache: false)
        var products = inbox.products.stream.makeAsyncIterator()
        expectPricingTerms(of: await products.next() ?? [])
        let purchase = Task { await store.purchase(DemoCatalog.proYearly, options: Self.monthly) }
        var payments = inbox.payments.stream.makeAsyncIterator()
        let first = await payments.next()
        expectFirstPayment(first, ends: end)
        #expect(await purchase.value.transaction == first, "the face handed over what the purchase returned")
        var statuses = inbox.statuses.stream.makeAsyncIterator()
        var status = await statuses.next()
        while let seen = status, seen.transaction.productID != DemoCatalog.proYearly { status = await statuses.next() }
        expectStatus(status, of: first, ends: end)
    }

    @Test func observer() async throws {
        let store = try await launch()
        let observer = CommitmentObserver()
        store.addObserver(observer)
        try await buyMonthly(store, expecting: observer)
    }

    @Test func notifications() async throws {
        let store = try await launch()
        let posted = CommitmentObserver()
        let tokens = [
            center.addObserver(forName: .storeProductsRequestFinished, object: nil, queue: nil) {
                [inbox = posted.products] note in inbox.continuation.yield(note.storeProducts ?? [])
            },
            center.addObserver(forName: .storePaymentTransactionFinished, object: nil, queue: nil) {
                [inbox = posted.payments] note in
                if let transaction = note.storeTransaction { inbox.continuation.yield(transaction) }
            },
            center.addObserver(forName: .storeSubscriptionStatusChanged, object: nil, queue: nil) {
                [inbox = posted.statuses] note in
                if let status = note.storeSubscriptionStatus { inbox.continuation.yield(status) }
            },
        ]
        defer { for token in tokens { center.removeObserver(token) } }
        try await buyMonthly(store, expecting: posted)
    }
}

/// An observer that hands what it is told to streams the test reads in order (the notification
/// test feeds the same streams from `NotificationCenter`).
final class CommitmentObserver: StoreObserver {
    /// One stream of values and the continuation that feeds it.
    struct Inbox<Value: Sendable>: Sendable {
        let stream: AsyncStream<Value>
        let continuation: AsyncStream<Value>.Continuation

        init() { (stream, continuation) = AsyncStream.makeStream() }
    }

    let products = Inbox<[Product]>()
    let payments = Inbox<StoreCore.Transaction>()
    let statuses = Inbox<SubscriptionStatus>()

    func storeProductsRequestFinished(_ response: ProductsResponse) {
        products.continuation.yield(response.products)
    }
    func storePaymentTransactionFinished(_ transaction: StoreCore.Transaction) {
        payments.continuation.yield(transaction)
    }
    func storeSubscriptionStatusChanged(_ status: SubscriptionStatus) { statuses.continuation.yield(status) }
}
