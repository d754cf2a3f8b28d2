import AppStoreServer
import Foundation
import LocalAppStore
import StoreCore
import StorefrontUI

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
        let id = try invocation.onlyArgument(
            orUsage: "cancel needs exactly one subscription ID (see 'storefront store subscriptions').")
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
        let cancel = CustomerCancel(session: session)
        let original: String
        let offer: RetentionOffer
        do throws(CustomerCancel.Failure) {
            original = try await cancel.subscription(id)
            offer = try await cancel.ask(original)
        } catch {
            throw .runtime(error.description)
        }
        let catalog = session.backend.configuration.catalog
        var names: [String: String] = [:]
        for product in [offer.alternateProductID, offer.promotionalOffer?.productID].compactMap({ $0 }) {
            names[product] =
                await session.store.cachedProduct(product)?.displayName ?? catalog.product(id: product)?.referenceName
        }
        let json = invocation.global.json
        if !json { context.output.write(RetentionOutput.sheet(offer, names: names).joined(separator: "\n") + "\n") }

        let outcome: CustomerCancel.Outcome
        do throws(CustomerCancel.Failure) {
            outcome = try await cancel.choose(
                RetentionChoice(rawValue: choice) ?? .cancelAnyway, original: original,
                request: offer.requestIdentifier,
                alternateProductID: offer.alternateProductID, promotion: offer.promotionalOffer)
        } catch {
            throw .runtime(error.description)
        }
        var transaction: Transaction?
        switch outcome {
        case .purchase(let result):
            let product = (choice == "offer" ? offer.promotionalOffer?.productID : offer.alternateProductID) ?? ""
            let name = await session.store.cachedProduct(product)?.displayName ?? product
            if !json { context.output.write(PurchaseOutput.describe(result, name: name) + "\n") }
            switch result {
            case .purchased, .pending, .unverified: transaction = result.transaction
            case .cancelled, .taskCancelled: throw .runtime("the purchase of \(product) was cancelled.")
            case .failed(let error, _): throw .runtime("the purchase of \(product) failed: \(error.description)")
            }
        case .cancelled(let latest): transaction = latest
        case .kept: break
        }
        let subscription = try? await session.backend.subscriptions.all().last { $0.originalTransactionID == original }
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
}
