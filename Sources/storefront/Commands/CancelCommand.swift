import AppStoreServer
import Foundation
import LocalAppStore
import StoreCore

/// `storefront cancel ID`: the customer begins to cancel a subscription, as in the App Store's
/// subscription page (not the Transaction Manager's `store cancel`): the App Store asks the
/// developer's Get Retention Message endpoint what to show, shows it, and the customer takes the
/// offer, switches product or cancels anyway.
struct CancelCommand: Command {
    let name = "cancel"
    let summary = "Begin to cancel a subscription as the customer: the retention message, then a choice."
    var forms: [UsageForm] { [UsageForm("ID", optional: [Self.choice])] }
    let discussion = """
        The App Store POSTs Apple's signed RealtimeRequestBody to the realtime URL of the store's
        environment ('storefront serve' configures it through Apple's Retention Messaging API) and
        waits the realtime-timeout setting (700 ms) for the answer; an answer that fails, is late,
        redirects or is not one Apple would show falls back to the default message for the
        product and locale, else to no message. The sheet is printed (an image is described by its
        alternative text), and the customer's choice acts through the app's engine: --choice offer
        buys the promotional offer the answer signed, --choice switch buys the suggested
        subscription, --choice cancel (the default) turns auto-renew off. ID is a transaction ID
        of the subscription or its product ID. The customer's locale is the display locale
        (--locale), sent in Apple's form (en_US as en-US). Every exchange is in 'storefront store
        retention-log'. With --json prints {"retention": the sheet, "choice", "transaction",
        "subscription"}.
        """

    /// `--choice offer|switch|cancel`.
    static let choice = Option<String>(
        "choice", valueName: "offer|switch|cancel",
        help: "cancel: what the customer does after the retention message (default cancel)."
    ) { (text: String) throws(CLIError) -> String in
        guard ["offer", "switch", "cancel"].contains(text) else {
            throw .usage("--choice must be offer, switch or cancel (got '\(text)').")
        }
        return text
    }
    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard invocation.arguments.count == 1, let id = invocation.arguments.first else {
            throw .usage("cancel needs exactly one subscription ID (see 'storefront store subscriptions').")
        }
        let choice = try invocation.value(Self.choice) ?? "cancel"
        let session = try await StoreSession.open(invocation, context: context)
        do throws(CLIError) {
            try await run(
                id, choice: choice, session: session, invocation: invocation, context: context)
        } catch {
            await session.close()
            throw error
        }
        await session.close()
    }

    private func run(
        _ id: String, choice: String, session: StoreSession, invocation: Invocation,
        context: CommandContext
    ) async throws(CLIError) {
        let backend = session.backend
        let original = try await Self.subscription(id, session: session)
        let offer: RetentionOffer
        do {
            offer = try await RealtimeRetention(store: backend).offer(originalTransactionID: original)
        } catch {
            throw .runtime(error.description)
        }
        let catalog = backend.configuration.catalog
        var names: [String: String] = [:]
        for product in [offer.alternateProductID, offer.promotionalOffer?.productID].compactMap({ $0 }) {
            names[product] =
                await session.store.cachedProduct(product)?.displayName ?? catalog.product(id: product)?.referenceName
        }
        let json = invocation.global.json
        if !json { context.output.write(RetentionOutput.sheet(offer, names: names).joined(separator: "\n") + "\n") }

        var transaction: Transaction?
        switch choice {
        case "offer":
            guard let promotion = offer.promotionalOffer else {
                throw .runtime("the App Store showed no promotional offer; nothing changed.")
            }
            transaction = try await Self.buy(
                promotion.productID,
                options: PurchaseOptions(appAccountToken: promotion.appAccountToken, promotionalOffer: promotion.offer),
                session: session, context: context, json: json)
        case "switch":
            guard let product = offer.alternateProductID else {
                throw .runtime("the App Store suggested no other subscription; nothing changed.")
            }
            transaction = try await Self.buy(
                product, options: PurchaseOptions(), session: session, context: context, json: json)
        default:
            do {
                transaction = try await backend.setAutoRenew(original, on: false)
            } catch {
                throw .runtime(error.description)
            }
        }
        do {
            try backend.retention.recordChoice(
                offer.requestIdentifier, choice: choice,
                transactionID: choice == "cancel" ? nil : transaction?.transactionID)
        } catch {
            throw .runtime("the choice was made but not logged: \(error.description)")
        }
        let subscription = try? await backend.subscriptions().last { $0.originalTransactionID == original }
        if json {
            context.output.write(
                JSONText.object([
                    ("retention", RetentionOutput.json(offer)), ("choice", .string(choice)),
                    ("transaction", transaction.map { TransactionOutput.json($0) } ?? .null),
                    ("subscription", subscription.map(SubscriptionOutput.json) ?? .null),
                ]).rendered())
        } else if choice == "cancel" {
            let end = subscription.map { TransactionOutput.date($0.periodEnd) } ?? "the period's end"
            context.output.write(
                "Cancelled subscription \(original): auto-renew is off; access continues until \(end).\n")
        }
    }

    /// The original transaction ID of the subscription `id` names (a transaction of it, its
    /// original transaction, or its product).
    private static func subscription(_ id: String, session: StoreSession) async throws(CLIError) -> String {
        let all: [SubscriptionLifecycle]
        do {
            all = try await session.backend.subscriptions()
        } catch {
            throw .runtime(error.description)
        }
        if let found = all.last(where: {
            $0.originalTransactionID == id || $0.productID == id || $0.autoRenewProductID == id
        }) {
            return found.originalTransactionID
        }
        if let transaction = (try? await session.store.history())?.first(where: { $0.transactionID == id }),
            all.contains(where: { $0.originalTransactionID == transaction.originalTransactionID })
        {
            return transaction.originalTransactionID
        }
        throw .runtime(
            "\(id) is not an auto-renewable subscription of this account; 'storefront store subscriptions' lists them.")
    }

    /// Buys through the app's engine, as the customer's choice on the sheet.
    private static func buy(
        _ productID: String, options: PurchaseOptions, session: StoreSession, context: CommandContext, json: Bool
    ) async throws(CLIError) -> Transaction? {
        let result = await session.store.purchase(productID, options: options)
        let name = await session.store.cachedProduct(productID)?.displayName ?? productID
        if !json { context.output.write(PurchaseOutput.describe(result, name: name) + "\n") }
        switch result {
        case .purchased, .pending, .unverified: return result.transaction
        case .cancelled, .taskCancelled: throw .runtime("the purchase of \(productID) was cancelled.")
        case .failed(let error, _): throw .runtime("the purchase of \(productID) failed: \(error.description)")
        }
    }
}
