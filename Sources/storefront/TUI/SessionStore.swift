import AppStoreServer
import Catalog
import Foundation
import LocalAppStore
import StoreCore
import StorefrontEffects
import StorefrontUI
import SystemIO

/// The storefront's store over a store session: the engine, the local App Store under it and
/// the server's records on the data directory, each call translated into the storefront's
/// words (its rows and documents, `StoreError`). Forwarding and translation only: what the
/// storefront does with them is `StorefrontEffects`'.
struct SessionStore: StorefrontStore {
    let session: StoreSession
    /// Where the storefront and language chosen are remembered.
    let preferences: TUIPreferences?

    var store: Store { session.store }
    var backend: LocalAppStore { session.backend }
    var catalog: StoreKitConfiguration { session.selection.catalog }

    // MARK: The engine and the shared store

    func events() -> AsyncStream<StoreEvent> { store.events() }

    func synchronize() async { await store.synchronize() }

    func revision() async -> Int { await backend.revision }

    func changes() -> AsyncStream<Void> { StoreChanges(configuration: backend.configuration).stream() }

    var downloads: (any StorefrontDownloads)? { store.downloads }

    // MARK: Where the app shops

    func context() async -> StoreContext {
        // The account's name as the family knows it (the configuration has only its ID).
        let account = backend.configuration.account
        let name = (try? await backend.familySharing.account(account.id))?.displayName ?? account.displayName
        return Self.context(
            catalog: catalog, storefront: await backend.settings.storefront, locale: await backend.settings.locale,
            account: name)
    }

    /// Where the storefront shops, from the catalog and the store's storefront, locale and account.
    static func context(
        catalog: StoreKitConfiguration, storefront: Storefront, locale: String, account: String
    ) -> StoreContext {
        var locales: [String] = []
        for product in catalog.products {
            for localization in product.localizations where !locales.contains(localization.locale) {
                locales.append(localization.locale)
            }
        }
        // Without a price for this storefront, the catalog's number is read in its currency.
        let estimated = Set(
            catalog.products.filter { catalog.prices?.price(of: $0.id, in: storefront) == nil }.map(\.id))
        return StoreContext(
            storefront: storefront.code, locale: locale, account: account, storefronts: Storefront.all,
            locales: locales, estimatedPrices: estimated)
    }

    func products() async throws(StoreError) -> [Product] {
        let response = try await store.requestProducts(Set(catalog.products.map(\.id)), useCache: false)
        let order = Dictionary(
            catalog.products.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        return response.products.sorted { (order[$0.id] ?? 0) < (order[$1.id] ?? 0) }
    }

    func requestProduct(_ productID: String) async throws(StoreError) {
        _ = try await store.requestProducts([productID], useCache: false)
    }

    func setStorefront(_ code: String, locale: String) async throws(StoreError) {
        do {
            try await backend.settings.setStorefront(code, locale: locale)
        } catch {
            throw error.storeError
        }
    }

    func rememberStorefront(_ code: String, locale: String) {
        preferences?.save(storefront: code, locale: locale)
    }

    /// Catalog's `price(for:in:)` in every storefront, each in its usual locale.
    func priceComparison(productID: String) async -> [StorefrontPrice] {
        guard let product = catalog.product(id: productID) else { return [] }
        return Storefront.all.map { storefront in
            StorefrontPrice(
                storefront: storefront,
                displayPrice: catalog.price(for: product, in: storefront).formatted(
                    locale: Locale(identifier: storefront.locale)),
                isEstimated: catalog.prices?.price(of: productID, in: storefront) == nil)
        }
    }

    func serverURL() async -> String? { ServerMarker.running(in: session.dataDirectory)?.url }

    // MARK: Buying

    func signPromotionalOffer(productID: String, offerID: String) throws(StoreError) -> PromotionalOffer {
        do {
            return try backend.offers.signPromotionalOffer(productID: productID, offerID: offerID)
        } catch {
            throw error.storeError
        }
    }

    func purchase(
        _ productID: String, quantity: Int, promotionalOffer: PromotionalOffer?, billingPlan: BillingPlanType?
    ) async -> PurchaseResult {
        await store.purchase(
            productID,
            options: PurchaseOptions(
                quantity: quantity, promotionalOffer: promotionalOffer, billingPlanType: billingPlan))
    }

    /// The store's first unredeemed code for the product, else one issued now for its first
    /// code offer (as App Store Connect hands a tester a code).
    func offerCode(for productID: String) async throws(StoreError) -> String? {
        do throws(LocalAppStoreError) {
            if let open = try await backend.offers.codes().first(where: { $0.productID == productID && !$0.isRedeemed })
            {
                return open.code
            }
            guard let offerID = catalog.product(id: productID)?.codeOffers.first?.identifier else {
                return nil
            }
            return try await backend.offers.issueCodes(productID: productID, offerID: offerID).first?.code
        } catch {
            throw error.storeError
        }
    }

    /// The redemption as a purchase outcome: the verified transaction, or why there is none.
    func redeem(offerCode: String) async -> PurchaseResult {
        do throws(OfferCodeRedemptionError) {
            return .purchased(try await store.redeem(offerCode: offerCode).unsafePayloadValue)
        } catch {
            return error.purchaseResult
        }
    }

    func restore() async throws(StoreError) -> [Transaction] { try await store.restoreTransactions() }

    func refreshReceipt() async throws(StoreError) -> Int { try await store.refreshReceipt().count }

    func appTransaction() async throws(StoreError) -> VerificationResult<AppTransaction> {
        try await store.appTransaction()
    }

    // MARK: What the account has

    func history() async throws(StoreError) -> [Transaction] {
        try await Self.translated { () async throws(LedgerError) in try await store.history() }
    }

    func balances() async throws(StoreError) -> [String: Int] {
        try await Self.translated { () async throws(LedgerError) in try await store.balances() }
    }

    func entitlements() async throws(StoreError) -> [Entitlement] {
        try await Self.translated { () async throws(LedgerError) in try await store.currentEntitlements() }
    }

    func pending() async throws(StoreError) -> [Transaction] {
        do {
            return try await backend.transactionManager.pending().map { item in
                var transaction = item.transaction
                if item.reason == .interrupted { transaction.error = .interrupted }
                return transaction
            }
        } catch {
            throw error.storeError
        }
    }

    func orderID(forTransactionID transactionID: String) -> String? {
        OrderID.make(transactionID: transactionID)
    }

    func accounts() async throws(StoreError) -> [AccountRow] {
        do {
            let family = try await backend.familySharing.family()
            let signedIn = backend.configuration.account.id
            return try await backend.familySharing.accounts().map { account in
                let role: AccountRow.Role? =
                    family?.organizer.id == account.id
                    ? .organizer : (family?.members.contains { $0.id == account.id } ?? false) ? .member : nil
                return AccountRow(
                    id: account.id, name: account.displayName, role: role, isSignedIn: account.id == signedIn)
            }
        } catch {
            throw error.storeError
        }
    }

    func signIn(_ accountID: String) async throws(StoreError) {
        do {
            _ = try await backend.familySharing.account(accountID)
        } catch {
            throw error.storeError
        }
        do {
            // Through the store's file system, as every other write of the data directory: a
            // failing disk (STOREFRONT_FAIL_IO) refuses the sign-in, naming the file.
            try SignedInAccount.save(
                accountID, dataDirectory: session.dataDirectory, fileSystem: backend.configuration.fileSystem)
        } catch {
            throw .systemError(error.message)
        }
    }

    func removeFromFamily(_ accountID: String) async throws(StoreError) {
        do {
            try await backend.familySharing.remove(accountID)
        } catch {
            throw error.storeError
        }
    }

    func sharers(of transactions: [Transaction]) async throws(StoreError) -> [String: String] {
        var names: [String: String] = [:]
        do {
            for t in transactions {
                names[t.transactionID] = try await backend.familySharing.sharer(of: t)?.displayName
            }
        } catch {
            throw error.storeError
        }
        return names
    }

    func subscriptions(history: [Transaction]) async throws(StoreError) -> [ManagedSubscription] {
        let now = backend.configuration.clock.now
        do {
            return try await backend.subscriptions.allWithPriceIncreases().map { lifecycle, increase in
                ManagedSubscriptionRow.make(lifecycle, increase: increase, history: history, now: now)
            }
        } catch {
            throw error.storeError
        }
    }

    func consume(_ productID: String, quantity: Int) async throws(StoreError) -> Int {
        try await Self.translated { () async throws(LedgerError) in
            try await store.consume(productID, quantity: quantity)
        }
    }

    // MARK: Cancelling as the customer

    func retentionSheet(productID: String) async throws(StoreError) -> RetentionSheet {
        let cancel = CustomerCancel(session: session)
        do throws(CustomerCancel.Failure) {
            let original = try await cancel.subscription(productID)
            return Self.sheet(try await cancel.ask(original), original: original, productID: productID)
        } catch {
            throw error.storeError
        }
    }

    func choose(_ choice: RetentionChoice, on sheet: RetentionSheet) async throws(StoreError) -> String? {
        let outcome: CustomerCancel.Outcome
        do throws(CustomerCancel.Failure) {
            outcome = try await CustomerCancel(session: session).choose(
                choice, original: sheet.originalTransactionID, request: sheet.requestIdentifier,
                alternateProductID: sheet.alternateProductID, promotion: sheet.offer)
        } catch {
            throw error.storeError
        }
        switch outcome {
        case .purchase(let result):
            switch result {
            case .purchased, .pending, .unverified: return result.transaction?.transactionID
            case .cancelled, .taskCancelled: throw .paymentCancelled
            case .failed(let error, _): throw error
            }
        case .cancelled, .kept: return nil
        }
    }

    /// What the App Store showed, in the storefront's words: images described by their
    /// alternative text and size.
    static func sheet(_ offer: RetentionOffer, original: String, productID: String) -> RetentionSheet {
        let message = offer.message.map { message in
            let content = message.content
            return RetentionSheet.Message(
                header: content.header, body: content.body,
                image: content.image.map { image in
                    image.altText + (offer.images[image.imageIdentifier].map { " — \($0.dimensions)" } ?? "")
                },
                headerAboveImage: content.headerPosition == .aboveImage,
                bulletPoints: content.bulletPoints.map { RetentionSheet.BulletPoint(text: $0.text, icon: $0.altText) })
        }
        return RetentionSheet(
            requestIdentifier: offer.requestIdentifier, originalTransactionID: original, productID: productID,
            shown: RetentionSheet.Shown(rawValue: offer.shown.rawValue) ?? .none, message: message,
            alternateProductID: offer.alternateProductID,
            offer: offer.promotionalOffer, fallbackReason: offer.fallbackReason)
    }

    // MARK: The Transaction Manager

    func run(_ command: StorefrontUI.TransactionCommand, transactionID id: String) async throws(StoreError) {
        if command == .requestRefund {
            do {
                _ = try await store.beginRefundRequest(for: id)
            } catch {
                throw .systemError(error.description)
            }
            return
        }
        do throws(LocalAppStoreError) {
            switch command {
            case .approve: _ = try await backend.transactionManager.approve(transactionID: id)
            case .decline: _ = try await backend.transactionManager.decline(transactionID: id)
            case .resolve: _ = try await backend.transactionManager.resolve(transactionID: id)
            case .refund: _ = try await backend.transactionManager.refund(transactionID: id)
            case .reverseRefund: _ = try await backend.transactionManager.reverseRefund(transactionID: id)
            case .decideRefund(let approve):
                guard
                    let request = try await backend.refundRequests.all().last(where: {
                        $0.transactionID == id && $0.status == .pending
                    })
                else { throw LocalAppStoreError.unknownRefundRequest("for transaction \(id)") }
                _ =
                    try await approve
                    ? backend.refundRequests.approve(request.id) : backend.refundRequests.decline(request.id)
            case .priceIncrease(let accept):
                _ = try await backend.subscriptions.priceIncrease(
                    id, consent: accept.map { $0 ? PriceConsent.accept : .decline })
            case .stopSharing:
                guard let t = try await backend.transactionManager.history().first(where: { $0.transactionID == id })
                else { throw LocalAppStoreError.unknownTransaction(id) }
                try await backend.familySharing.setSharing(productID: t.productID, on: false)
            case .requestRefund:
                break
            }
        } catch {
            throw error.storeError
        }
    }

    func run(_ command: SubscriptionCommand, transactionID id: String) async throws(StoreError) -> Transaction? {
        do throws(LocalAppStoreError) {
            return
                switch command
            {
            case .renew: try await backend.subscriptions.renew(id)
            case .expire: try await backend.subscriptions.expire(id)
            case .setAutoRenew(let on): try await backend.subscriptions.setAutoRenew(id, on: on)
            case .setBillingIssue(let on): try await backend.subscriptions.setBillingIssue(id, on: on)
            case .renewInto(let productID, let plan):
                try await backend.subscriptions.setRenewal(id, productID: productID, plan: plan)
            }
        } catch {
            throw Self.subscriptionError(error, id: id)
        }
    }

    /// A subscription command's failure in the storefront's words (the CLI's name commands).
    static func subscriptionError(_ error: LocalAppStoreError, id: String) -> StoreError {
        switch error {
        case .unknownTransaction: .unknownTransaction(id)
        case .notPending(_, let state, let expected):
            .systemError("the subscription \(id) is \(state), not \(expected)")
        default: error.storeError
        }
    }

    // MARK: Settings, notifications and documents

    /// The settings as the window shows them, made from the local store's one registry.
    func settings() async throws(StoreError) -> [SettingRow] {
        do {
            return try await backend.settings.all().map {
                SettingRow(
                    name: $0.name, label: $0.label, value: $0.value, choices: $0.choices, unit: Self.unit($0.synopsis),
                    help: $0.help)
            }
        } catch {
            throw error.storeError
        }
    }

    /// What a setting's number counts, from its usage placeholder in the registry.
    static func unit(_ synopsis: String) -> SettingRow.Unit {
        switch synopsis {
        case "BYTES_PER_SECOND": .bytesPerSecond
        case "MILLISECONDS": .milliseconds
        default: .none
        }
    }

    func setSetting(name: String, value: String) async throws(StoreError) {
        do {
            try await backend.settings.set(name: name, value: value)
        } catch {
            throw error.storeError
        }
    }

    /// A page of the local store's outbox, whatever its length.
    func notifications(before: Int?) async throws(StoreError) -> NotificationPage {
        do {
            let (page, older) = try await backend.notifications.page(newest: NotificationPage.size, before: before)
            return NotificationPage(
                rows: page.map { position, n in
                    NotificationRow(
                        position: position, uuid: n.notificationUUID, kind: NotificationOutput.kind(n),
                        productID: n.productID, attempts: n.sendAttempts.count,
                        lastResult: n.sendAttempts.last?.sendAttemptResult.rawValue, nextAttempt: n.nextAttemptDate,
                        delivered: n.isDelivered)
                }, older: older)
        } catch {
            throw error.storeError
        }
    }

    func receiptDocument() async throws(StoreError) -> TextDocument {
        try await StorefrontDocuments(session: session).receipt().get()
    }

    func transactionDocument(_ transactionID: String) async throws(StoreError) -> TextDocument {
        try await StorefrontDocuments(session: session).transaction(transactionID).get()
    }

    /// The engine's ledger calls throw the ledger's error: the storefront shows it as the
    /// `StoreError` that carries it.
    private static func translated<T>(_ body: () async throws(LedgerError) -> T) async throws(StoreError) -> T {
        do {
            return try await body()
        } catch {
            throw .persistenceFailed(error)
        }
    }
}
