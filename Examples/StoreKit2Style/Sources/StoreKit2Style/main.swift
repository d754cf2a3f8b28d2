// StoreCore in the style of StoreKit 2: async calls, the transaction update stream, signed
// transactions, current entitlements and subscription statuses. Every product of the package
// is imported, and the engine's `Product` and `SubscriptionPeriod` are named unqualified, as
// StoreKit 2 code names them: that compiles only while no other product declares them.
import Foundation
import LocalAppStore
import StoreCore
import StoreTesting

/// "1 month", "1 week": a subscription period as a storefront shows it.
func describe(_ period: SubscriptionPeriod) -> String {
    "\(period.value) \(period.unit)\(period.value == 1 ? "" : "s")"
}

/// One line per product, as a paywall lists them.
func describe(_ product: Product) -> String {
    guard let subscription = product.subscription else { return "\(product.displayName): \(product.displayPrice)" }
    let trial =
        subscription.introductoryOffer.map { offer in
            ", first \(describe(offer.period)) "
                + (offer.paymentMode == .freeTrial ? "free" : "at \(offer.displayPrice)")
        } ?? ""
    return "\(product.displayName): \(product.displayPrice) every \(describe(subscription.period))\(trial)"
}

/// A local App Store in a fresh data directory and the engine over it.
func openStore() async throws -> (data: URL, appStore: LocalAppStore, store: Store) {
    let data = FileManager.default.temporaryDirectory.appendingPathComponent("StoreKit2Style-\(UUID().uuidString)")
    let catalog = try StoreKitConfiguration.load(contentsOf: URL(fileURLWithPath: "Catalogs/Demo.storekit"))
    let appStore = try LocalAppStore(
        configuration: LocalAppStoreConfiguration(
            catalog: catalog, stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: data),
            initialLatencyMilliseconds: 0))
    // StoreKit 2 verifies each transaction's JWS; here against the local store's root.
    let store = Store(
        backend: appStore, ledger: try VaultLedger.open(inDataDirectory: data, environment: [:]),
        configuration: StoreConfiguration(verifier: try await appStore.signedTransactionVerifier()))
    return (data, appStore, store)
}

/// The walk through, in one function: the update stream is read in step with it.
func walkThrough() async throws {
    let (data, appStore, store) = try await openStore()

    // Transaction.updates: listen before anything else (read in step here, to print in order).
    var updates = store.transactionUpdates().makeAsyncIterator()

    let lifetime = "com.storefront.demo.lifetime"
    let monthly = "com.storefront.demo.premium.pro.monthly"
    let products: [Product] = try await store.requestProducts([lifetime, monthly]).products
    for product in products { print(describe(product)) }

    // Product.purchase(): no start() needed, the engine starts on first use.
    let bought = await store.purchase(monthly)
    if case .purchased(let transaction) = bought {
        print("purchased \(transaction.productID), signed: \(transaction.signedTransaction != nil)")
    }

    // Ask to Buy: the purchase is pending; the approval arrives on the update stream.
    try await appStore.settings.set(name: "ask-to-buy", value: "on")
    guard case .pending(let waiting) = await store.purchase(lifetime) else { fatalError("expected Ask to Buy") }
    print("pending approval: \(waiting.productID)")
    // The parent approves, in the Transaction Manager.
    _ = try await appStore.transactionManager.approve(transactionID: waiting.transactionID)
    if let approved = await updates.next() {
        print("update: \(approved.productID) \(approved.state)")
    }

    // Transaction.currentEntitlements and Product.SubscriptionInfo.status.
    for entitlement in try await store.currentEntitlements() {
        print("entitled: \(entitlement.productID) (\(entitlement.productType))")
    }
    for status in try await store.subscriptionStatuses() {
        print("group \(status.groupID): \(status.state), renews: \(status.renewalInfo?.willAutoRenew ?? false)")
    }
    print("intro offer still available: \(try await store.isEligibleForIntroOffer(groupID: "49EF0713"))")

    // A refund made by the store reaches the app as an update.
    _ = try await appStore.transactionManager.refund(transactionID: waiting.transactionID)
    if let refunded = await updates.next() {
        print("update: \(refunded.productID) revoked: \(refunded.revocationDate != nil)")
    }
    print("entitled now: \(try await store.currentEntitlements().map(\.productID))")
    await store.stop()
    try FileManager.default.removeItem(at: data)
}

/// A main-actor model over the engine (`StoreModel.swift`): a purchase, then one the store
/// refuses, each heard on the main actor.
@MainActor func mainActorModel() async throws {
    let (data, appStore, store) = try await openStore()
    let model = StoreModel(store: store)
    await model.buy("com.storefront.demo.removeads")
    try await appStore.settings.set(name: "payments-allowed", value: "off")
    await model.buy("com.storefront.demo.coins.100")
    await store.stop()
    await model.listened()
    for message in model.messages { print("model: \(message)") }
    print("model owns: \(model.owned.sorted())")
    try FileManager.default.removeItem(at: data)
}

try await walkThrough()
try await mainActorModel()
