import Foundation
import Synchronization
import Testing

@testable import StoreCore

/// Every event goes out as a notification under its own name, and each typed accessor of
/// `Notification` reads what its event carries (and nothing from another kind of event).
@Suite(.timeLimit(.minutes(10)))
struct NotificationAccessorTests {
    static let product = Product(
        id: "pro", type: .nonConsumable, displayName: "Pro", description: "All", price: 1, displayPrice: "$1.00",
        currencyCode: "USD")
    static let transaction = Transaction(
        transactionID: "7", productID: "pro", productType: .nonConsumable, payment: Payment(productID: "pro"),
        state: .purchased, purchaseDate: Date(timeIntervalSince1970: 100))
    static func download(_ state: DownloadState) -> Download {
        Download(
            id: "7", transactionID: "7", productID: "pro", contentVersion: "1", state: state, bytesWritten: 3,
            totalBytes: 3)
    }
    static let order = UnverifiedOrder(transaction: transaction, receipt: nil, lastFailure: "offline", attempts: 1)
    static let status = SubscriptionStatus(
        groupID: "G", state: .subscribed,
        transaction: PurchaseRecord(
            productID: "m", productType: .autoRenewable, transactionID: "9", originalTransactionID: "9",
            purchaseDate: Date(timeIntervalSince1970: 0)),
        renewalInfo: nil)
    static let response = ProductsResponse(products: [product], invalidProductIdentifiers: ["ghost"])
    static let failure = StoreError.networkError("down")
    static let decision = RefundDecision(
        requestID: "r1", transactionID: "7", productID: "p", isApproved: true, date: Date(timeIntervalSince1970: 1))
    static let japan = Storefront(
        code: "JPN", name: "Japan", currencyCode: "JPY", locale: "ja_JP", storefrontID: "143462")

    static let events: [StoreEvent] = [
        .productsRequestFinished(response), .productsRequestFailed(failure), .paymentFinished(transaction),
        .paymentFailed(transaction, failure), .paymentDeferred(transaction), .paymentUnverified(order),
        .restoreFinished([transaction]), .restoreFailed(failure), .refreshReceiptFinished(Data([1, 2])),
        .refreshReceiptFailed(failure), .transactionRevoked(transaction), .subscriptionStatusChanged(status),
        .storefrontChanged(japan),
        .refundRequestDecided(decision),
        // A finished download is over (its transaction forgotten), so it comes last.
        .downloadUpdated(download(.active)), .downloadFailed(download(.failed)), .downloadPaused(download(.paused)),
        .downloadCanceled(download(.cancelled)), .downloadFinished(download(.finished)),
    ]

    /// What each accessor of one posted notification read.
    struct Seen: Sendable {
        let name: Notification.Name
        let storeEvent: StoreEvent?
        let storeTransaction: Transaction?
        let storeTransactionID: String?
        let storeProductID: String?
        let storeDownload: Download?
        let storeError: StoreError?
        let storeProducts: [Product]?
        let storeInvalidProductIdentifiers: [String]?
        let storeTransactions: [Transaction]?
        let storeUnverifiedOrder: UnverifiedOrder?
        let storeSubscriptionStatus: SubscriptionStatus?
        let storeReceipt: Data?
        let storeStorefront: Storefront?
        let storeRefundDecision: RefundDecision?

        init(_ n: Notification) {
            name = n.name
            storeEvent = n.storeEvent
            storeTransaction = n.storeTransaction
            storeTransactionID = n.storeTransactionID
            storeProductID = n.storeProductID
            storeDownload = n.storeDownload
            storeError = n.storeError
            storeProducts = n.storeProducts
            storeInvalidProductIdentifiers = n.storeInvalidProductIdentifiers
            storeTransactions = n.storeTransactions
            storeUnverifiedOrder = n.storeUnverifiedOrder
            storeSubscriptionStatus = n.storeSubscriptionStatus
            storeReceipt = n.storeReceipt
            storeStorefront = n.storeStorefront
            storeRefundDecision = n.storeRefundDecision
        }
    }

    /// Posts every event through a broadcaster and returns what each notification's accessors read, in order.
    static func postAll() -> [Seen] {
        let center = NotificationCenter()
        let broadcaster = EventBroadcaster(notificationCenter: center, sender: nil)
        broadcaster.noteDownloadTransaction(transaction)
        let posted = Mutex<[Seen]>([])
        let token = center.addObserver(forName: nil, object: nil, queue: nil) { note in
            let seen = Seen(note)
            if Notification.Name.allStoreNotifications.contains(seen.name) { posted.withLock { $0.append(seen) } }
        }
        defer { center.removeObserver(token) }
        for event in events { broadcaster.send(event) }
        return posted.withLock { $0 }
    }

    @Test func everyEventHasItsOwnNameAndEveryNameIsListed() {
        let names = Self.events.map(\.notificationName)
        #expect(Set(names).count == Self.events.count)
        #expect(Set(names) == Set(Notification.Name.allStoreNotifications))
        #expect(Self.postAll().map(\.name) == names)
    }

    @Test func eachAccessorReadsWhatItsEventCarries() throws {
        let notes = Self.postAll()
        #expect(notes.map(\.storeEvent) == Self.events)
        func note(_ name: Notification.Name) throws -> Seen { try #require(notes.first { $0.name == name }) }

        #expect(try note(.storeProductsRequestFinished).storeProducts == [Self.product])
        #expect(try note(.storeProductsRequestFinished).storeInvalidProductIdentifiers == ["ghost"])
        #expect(try note(.storeRestoreTransactionsFinished).storeTransactions == [Self.transaction])
        #expect(try note(.storeRefreshReceiptFinished).storeReceipt == Data([1, 2]))
        #expect(try note(.storeSubscriptionStatusChanged).storeSubscriptionStatus == Self.status)
        #expect(try note(.storePaymentTransactionUnverified).storeUnverifiedOrder == Self.order)
        #expect(try note(.storeStorefrontChanged).storeStorefront == Self.japan)
        #expect(try note(.storeRefundRequestDecided).storeRefundDecision == Self.decision)
        #expect(try note(.storeStorefrontChanged).storeRefundDecision == nil)
        for name in [
            Notification.Name.storeProductsRequestFailed, .storePaymentTransactionFailed,
            .storeRestoreTransactionsFailed,
            .storeRefreshReceiptFailed,
        ] {
            #expect(try note(name).storeError == Self.failure, "\(name.rawValue)")
        }
        for name in [
            Notification.Name.storePaymentTransactionFinished, .storePaymentTransactionFailed,
            .storePaymentTransactionDeferred, .storePaymentTransactionUnverified, .storeTransactionRevoked,
        ] {
            let n = try note(name)
            #expect(n.storeTransaction == Self.transaction, "\(name.rawValue)")
            #expect(n.storeTransactionID == "7" && n.storeProductID == "pro", "\(name.rawValue)")
            #expect(n.storeDownload == nil)
        }
        for (name, state) in [
            (Notification.Name.storeDownloadUpdated, DownloadState.active), (.storeDownloadFinished, .finished),
            (.storeDownloadFailed, .failed), (.storeDownloadPaused, .paused), (.storeDownloadCanceled, .cancelled),
        ] {
            let n = try note(name)
            #expect(n.storeDownload == Self.download(state), "\(name.rawValue)")
            #expect(n.storeTransactionID == "7" && n.storeProductID == "pro", "\(name.rawValue)")
            #expect(n.storeTransaction == Self.transaction, "\(name.rawValue) carries the purchase it belongs to")
        }
        // Accessors of another kind of event read nothing.
        let finished = try note(.storePaymentTransactionFinished)
        #expect(finished.storeProducts == nil && finished.storeInvalidProductIdentifiers == nil)
        #expect(finished.storeTransactions == nil && finished.storeReceipt == nil && finished.storeError == nil)
        #expect(
            finished.storeSubscriptionStatus == nil && finished.storeUnverifiedOrder == nil
                && finished.storeStorefront == nil)
        #expect(try note(.storeProductsRequestFinished).storeTransactionID == nil)
    }
}
