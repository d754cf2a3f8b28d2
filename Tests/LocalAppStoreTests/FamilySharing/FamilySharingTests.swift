import Catalog
import Foundation
import Receipts
import StoreCore
import StoreTesting
import TestSupport
import Testing

@testable import LocalAppStore

/// A family on one store directory: the organizer's store and one store a member, each signed
/// in to its own account, as apps on three Apple Accounts are.
private struct Family3 {
    let directory: TemporaryDirectory
    let clock = ManualClock()
    let catalog: StoreKitConfiguration
    let organizer: LocalAppStore
    let bob: LocalAppStore
    let carol: LocalAppStore

    static let bobAccount = StoreAccount(id: "bob", displayName: "Bob", storefront: "JPN")
    static let carolAccount = StoreAccount(id: "carol", displayName: "Carol")

    init(catalog: StoreKitConfiguration? = nil, notifying: Bool = true) async throws {
        directory = try TemporaryDirectory()
        self.catalog = try catalog ?? TestCatalog.load()
        organizer = try makeStore(directory, catalog: self.catalog, clock: clock)
        bob = try makeStore(directory, catalog: self.catalog, clock: clock, account: Self.bobAccount)
        carol = try makeStore(directory, catalog: self.catalog, clock: clock, account: Self.carolAccount)
        if notifying {
            try await organizer.settings.set(name: "notification-url", value: "http://127.0.0.1:9/notifications")
        }
    }

    func join() async throws {
        try await organizer.familySharing.add(Self.bobAccount)
        try await organizer.familySharing.add(Self.carolAccount)
    }

    /// The demo catalog's Pro Monthly.
    static let demoMonthly = "com.storefront.demo.premium.pro.monthly"

    /// A family on the demo catalog, joined, whose organizer bought Pro Monthly: the family and
    /// the purchase.
    static func buyingDemoMonthly() async throws -> (Family3, StoreCore.Transaction) {
        let family = try await Family3(catalog: try StoreKitConfiguration.load(contentsOf: DemoCatalog.url))
        try await family.join()
        return (family, try await family.buy(demoMonthly, on: family.organizer))
    }

    /// Buys `productID` on `store` and returns its decided transaction.
    func buy(_ productID: String, on store: LocalAppStore) async throws -> StoreCore.Transaction {
        var events = EventReader(await store.events())
        return try await LocalAppStoreTests.buy(store, &events, productID)
    }

    /// The member's unfinished transactions: what its app is delivered when it next runs.
    func waiting(_ store: LocalAppStore) async throws -> [StoreCore.Transaction] {
        try await store.unfinishedTransactions()
    }

    func notifications(_ type: NotificationTypeV2) async throws -> [StoredNotification] {
        try await organizer.notifications.all().filter { $0.notificationType == type }
    }
}

@Suite(.timeLimit(.minutes(10))) struct FamilySharingTests {
    @Test func aMemberJoiningGetsAFamilySharedTransactionOfItsOwn() async throws {
        let family = try await Family3()
        let bought = try await family.buy(TestCatalog.pro, on: family.organizer)
        _ = try await family.buy(TestCatalog.coins, on: family.organizer)
        try await family.join()

        for (store, account) in [(family.bob, "bob"), (family.carol, "carol")] {
            let shared = try await family.waiting(store)
            #expect(shared.map(\.productID) == [TestCatalog.pro], "a consumable is never shared")
            let t = try #require(shared.first)
            #expect(t.ownershipType == .familyShared)
            #expect(t.transactionID != bought.transactionID)
            #expect(t.originalTransactionID == t.transactionID, "the member's own original transaction")
            #expect(t.state == .purchased && t.revocationDate == nil)
            #expect(try await store.familySharing.sharer(of: t)?.id == "local-tester")
            #expect(try await store.transactionManager.charges().isEmpty, "\(account) is never charged")
        }
        #expect(try await family.waiting(family.bob).first?.storefront == "JPN", "the member's own storefront")
        let organizerFamily = try #require(try await family.organizer.familySharing.family())
        #expect(organizerFamily.organizer.id == "local-tester")
        #expect(organizerFamily.members.map(\.displayName) == ["Bob", "Carol"])
    }

    @Test func aPurchaseIsSharedAtOnceAndAMemberWhoBoughtItKeepsTheirOwn() async throws {
        let family = try await Family3()
        try await family.join()
        let own = try await family.buy(TestCatalog.pro, on: family.bob)
        let bought = try await family.buy(TestCatalog.pro, on: family.organizer)

        #expect(own.ownershipType == .purchased)
        #expect(try await family.waiting(family.bob).map(\.transactionID) == [own.transactionID])
        let carols = try await family.waiting(family.carol)
        #expect(carols.count == 1, "one share of the product, from whoever bought it first")
        let carolsShare = try #require(carols.first)
        #expect(carolsShare.ownershipType == .familyShared)
        #expect(try await family.carol.familySharing.sharer(of: carolsShare)?.displayName == "Bob")
        // The organizer has it from Bob now: buying it delivers it again, uncharged (0131).
        let organizers = try await family.organizer.transactionManager.history()
        #expect(organizers.map(\.ownershipType) == [.familyShared, .familyShared])
        #expect(bought.ownershipType == .familyShared && bought.price == 0)
        #expect(try await family.organizer.transactionManager.charges().isEmpty)
        #expect(try await family.notifications(.oneTimeCharge).count == 1, "charges notify; shares do not")
    }

    @Test func aMemberBuyingANonConsumableTheFamilySharesGetsItAgainUncharged() async throws {
        let family = try await Family3()
        try await family.join()
        _ = try await family.buy(TestCatalog.pro, on: family.organizer)
        let share = try #require(try await family.waiting(family.bob).first)
        try await family.bob.finish(transactionID: share.transactionID)

        let again = try await family.buy(TestCatalog.pro, on: family.bob)
        #expect(again.transactionID != share.transactionID && again.state == .purchased)
        #expect(again.originalTransactionID == share.originalTransactionID, "a new transaction of Bob's share")
        #expect(again.originalPurchaseDate == share.originalPurchaseDate)
        #expect(again.ownershipType == .familyShared && again.price == 0)
        #expect(try await family.bob.transactionManager.charges().isEmpty, "Bob is never charged")
        #expect(try await family.notifications(.oneTimeCharge).count == 1, "only the organizer's charge notifies")

        // Both are the share's: its end revokes both; then Bob's purchase is his own, charged.
        try await family.organizer.familySharing.setSharing(productID: TestCatalog.pro, on: false)
        let bobs = try await family.bob.transactionManager.history()
        #expect(bobs.count == 2 && bobs.allSatisfy { $0.revocationDate != nil && $0.revocationReason == 0 })
        let own = try await family.buy(TestCatalog.pro, on: family.bob)
        #expect(own.ownershipType == .purchased && own.originalTransactionID == own.transactionID)
        #expect(try await family.bob.transactionManager.charges().map(\.transactionID) == [own.transactionID])
    }

    @Test func aMemberSubscribingItselfKeepsTheShareAndItsAppSeesBothStatuses() async throws {
        let (family, bought) = try await Family3.buyingDemoMonthly()
        let monthly = Family3.demoMonthly
        let share = try #require(try await family.waiting(family.bob).first)
        let own = try await family.buy(monthly, on: family.bob)
        #expect(own.ownershipType == .purchased && own.originalTransactionID != share.originalTransactionID)
        #expect(try await family.bob.transactionManager.charges().map(\.transactionID) == [own.transactionID])

        // The purchaser's renewal still reaches Bob's share, beside his own subscription.
        let renewed = try #require(try await family.organizer.subscriptions.renew(bought.transactionID))
        let shared = try await family.bob.transactionManager.history().filter { $0.ownershipType == .familyShared }
        #expect(shared.map(\.originalTransactionID) == [share.originalTransactionID, share.originalTransactionID])
        #expect(shared.last?.expiresDate == renewed.expiresDate)
        _ = try await family.organizer.subscriptions.setAutoRenew(bought.transactionID, on: false)

        // Bob's app: a status for his own subscription and one for the share, each with its
        // renewal info; the share's is the purchaser's (auto-renew off) under Bob's own ID.
        let app = try makeEngine(family.bob, in: family.directory, clock: family.clock, ledger: "bob.jsonl")
        await app.start()
        let statuses = try await app.subscriptionStatuses()
        #expect(statuses.map(\.transaction.ownershipType) == [.purchased, .familyShared])
        #expect(statuses.map(\.groupID) == [own.subscriptionGroupID, own.subscriptionGroupID])
        #expect(statuses.map(\.state) == [.subscribed, .subscribed])
        let mine = try #require(statuses.first?.renewalInfo)
        #expect(mine.originalTransactionID == own.originalTransactionID && mine.willAutoRenew)
        let sharedStatus = try #require(statuses.last)
        #expect(sharedStatus.transaction.originalTransactionID == share.originalTransactionID)
        #expect(sharedStatus.transaction.expiresDate == renewed.expiresDate)
        let theirs = try #require(sharedStatus.renewalInfo)
        #expect(theirs.originalTransactionID == share.originalTransactionID)
        #expect(!theirs.willAutoRenew && theirs.autoRenewProductID == monthly)
        #expect(try await app.currentEntitlements().map(\.productID) == [monthly], "one entitlement per product")
        await app.stop()
    }

    @Test func turningSharingOffRevokesTheMembersTransactionsWithReasonZero() async throws {
        let family = try await Family3()
        try await family.join()
        _ = try await family.buy(TestCatalog.pro, on: family.organizer)
        let start = family.clock.now
        family.clock.advance(by: 60)
        try await family.organizer.familySharing.setSharing(productID: TestCatalog.pro, on: false)

        for store in [family.bob, family.carol] {
            let t = try #require(try await family.waiting(store).first)
            #expect(t.revocationDate == start.addingTimeInterval(60))
            #expect(t.revocationReason == 0)
        }
        let revokes = try await family.notifications(.revoke)
        #expect(Set(revokes.compactMap(\.accountID)) == ["bob", "carol"])
        #expect(revokes.allSatisfy { $0.transaction?.ownershipType == .familyShared })
        #expect(try await family.organizer.transactionManager.charges().first?.revocationDate == nil)

        try await family.organizer.familySharing.setSharing(productID: TestCatalog.pro, on: true)
        let again = try await family.bob.transactionManager.history().filter { $0.revocationDate == nil }
        #expect(again.count == 1 && again.first?.ownershipType == .familyShared, "shared again, as a new transaction")
        await #expect(throws: LocalAppStoreError.family(.notShareable(TestCatalog.coins))) {
            try await family.organizer.familySharing.setSharing(productID: TestCatalog.coins, on: false)
        }
    }

    @Test func aRefundRevokesTheSharesWithThePurchasersReason() async throws {
        let family = try await Family3()
        try await family.join()
        let bought = try await family.buy(TestCatalog.pro, on: family.organizer)
        try await family.organizer.transactionManager.refund(transactionID: bought.transactionID, reason: 1)
        for store in [family.bob, family.carol] {
            let t = try #require(try await family.waiting(store).first)
            #expect(t.revocationReason == 1 && t.revocationDate != nil)
        }
        #expect(try await family.notifications(.revoke).count == 2)
        #expect(try await family.notifications(.refund).count == 1)

        try await family.organizer.transactionManager.reverseRefund(transactionID: bought.transactionID)
        for store in [family.bob, family.carol] {
            let t = try #require(try await store.transactionManager.history().first)
            #expect(t.revocationDate == nil && t.revocationReason == nil, "the reversal gives the share back")
        }
    }

    @Test func aMemberLeavingLosesTheSharesAndKeepsWhatTheyBought() async throws {
        let family = try await Family3()
        try await family.join()
        let own = try await family.buy(TestCatalog.pro, on: family.carol)
        _ = try await family.buy(TestCatalog.pro, on: family.organizer)
        try await family.carol.finish(transactionID: own.transactionID)
        let left = try await family.organizer.familySharing.remove("carol")
        #expect(left?.members.map(\.id) == ["bob"])
        #expect(try await family.carol.transactionManager.history().map(\.revocationDate) == [nil])
        // Bob had Carol's share (she bought first): it ends with her leaving.
        let bobs = try await family.bob.transactionManager.history()
        #expect(bobs.count == 1 && bobs.first?.revocationDate != nil)
        let revokes = try await family.notifications(.revoke)
        #expect(Set(revokes.compactMap(\.accountID)) == ["bob", "local-tester"])
        #expect(try await family.organizer.familySharing.remove("local-tester") == nil, "the family ends")
        #expect(try await family.organizer.familySharing.family() == nil)
    }

    @Test func theFamilyRefusesWhatAppleRefuses() async throws {
        let family = try await Family3()
        try await family.join()
        await #expect(throws: LocalAppStoreError.family(.alreadyInFamily("bob"))) {
            try await family.organizer.familySharing.add(Family3.bobAccount)
        }
        for id in ["d", "e", "f"] {
            try await family.organizer.familySharing.add(StoreAccount(id: id, displayName: id))
        }
        await #expect(throws: LocalAppStoreError.family(.familyFull(members: 5))) {
            try await family.organizer.familySharing.add(StoreAccount(id: "g", displayName: "G"))
        }
        await #expect(throws: LocalAppStoreError.family(.invalidAccountID("../x"))) {
            try await family.organizer.familySharing.add(StoreAccount(id: "../x", displayName: "X"))
        }
        await #expect(throws: LocalAppStoreError.family(.notInFamily("zed"))) {
            try await family.organizer.familySharing.remove("zed")
        }
        await #expect(
            throws: LocalAppStoreError.family(
                .unknownAccount("zed", known: ["local-tester", "bob", "carol", "d", "e", "f"]))
        ) {
            try await family.organizer.familySharing.account("zed")
        }
    }

    @Test func aSharedSubscriptionRenewsForTheMemberAndEndsWhenTheMemberIsRemoved() async throws {
        let (family, bought) = try await Family3.buyingDemoMonthly()
        let first = try #require(try await family.waiting(family.bob).first)
        #expect(first.ownershipType == .familyShared && first.expiresDate == bought.expiresDate)
        #expect(first.webOrderLineItemID == bought.webOrderLineItemID)

        let renewed = try #require(try await family.organizer.subscriptions.renew(bought.transactionID))
        let bobs = try await family.bob.transactionManager.history()
        #expect(bobs.count == 2)
        let second = try #require(bobs.last)
        #expect(second.originalTransactionID == first.transactionID, "the member's renewal continues its own")
        #expect(second.webOrderLineItemID == renewed.webOrderLineItemID)
        #expect(second.expiresDate == renewed.expiresDate)

        try await family.organizer.familySharing.remove("bob")
        let ended = try await family.bob.transactionManager.history()
        #expect(ended.last?.revocationDate != nil && ended.last?.revocationReason == 0)
        #expect(try await family.carol.transactionManager.history().allSatisfy { $0.revocationDate == nil })
    }

    @Test func billingRetryAndRecoveryAreNotifiedForEachMember() async throws {
        let (family, bought) = try await Family3.buyingDemoMonthly()
        _ = try await family.organizer.subscriptions.setBillingIssue(bought.transactionID, on: true)
        _ = try await family.organizer.subscriptions.renew(bought.transactionID)
        let failed = try await family.notifications(.didFailToRenew)
        #expect(failed.compactMap(\.accountID) == ["local-tester", "bob", "carol"])
        #expect(
            failed.dropFirst().allSatisfy {
                $0.transaction?.ownershipType == .familyShared && $0.status == failed[0].status
            })

        _ = try await family.organizer.subscriptions.setBillingIssue(bought.transactionID, on: false)
        let recovered = try await family.notifications(.didRenew).filter { $0.subtype == .billingRecovery }
        #expect(recovered.compactMap(\.accountID) == ["local-tester", "bob", "carol"])
        let bobs = try await family.bob.transactionManager.history()
        #expect(recovered[1].transaction?.transactionID == bobs.last?.transactionID, "about Bob's own renewal")
    }

    @Test func sharesSurviveACompactionAndAReopen() async throws {
        let family = try await Family3()
        try await family.join()
        _ = try await family.buy(TestCatalog.pro, on: family.organizer)
        for t in try await family.waiting(family.bob) { try await family.bob.finish(transactionID: t.transactionID) }
        // A journal that compacts on its next write keeps the family in its snapshot.
        let journal = try StoreJournal(
            directory: family.directory.stateDirectory.path, initialSettings: LocalStoreSettings(),
            metrics: StoreMetrics(), compactionSlack: 0)
        _ = try journal.transact { state throws(LocalAppStoreError) in ([JournalRecord.make(state.settings)], ()) }
        #expect(journal.metrics.compactions > 0)
        let again = try makeStore(family.directory, catalog: family.catalog, clock: family.clock)
        #expect(try await again.familySharing.family()?.members.map(\.id) == ["bob", "carol"])
        try await again.familySharing.setSharing(productID: TestCatalog.pro, on: false)
        #expect(try await family.bob.transactionManager.history().first?.revocationDate != nil)
    }
}
