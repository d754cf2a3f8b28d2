import Foundation
import StoreCore

/// `storefront buy ID`: buys a product through the engine and the local App Store.
struct BuyCommand: Command {
    let name = "buy"
    let summary = "Buy a product; the purchase is verified, recorded and delivered once."
    var forms: [UsageForm] {
        [
            UsageForm(
                "PRODUCT_ID",
                optional: [
                    Self.quantity, Self.username, Self.orderData, OfferOptions.appAccountToken, Self.offer,
                    OfferOptions.signed,
                    OfferOptions.keyID, OfferOptions.nonce, OfferOptions.timestamp, OfferOptions.signature,
                    Self.winBack, Self.billingPlan,
                ])
        ]
    }
    let discussion = """
        Waits for the outcome: purchased, pending (Ask to Buy: approve it with 'storefront store
        approve ID'), cancelled or failed. --username is hashed (SHA-256) into the payment's
        applicationUsername. --order-data is the app's own order data, kept with the transaction
        and returned with it, also after a crash. --offer applies a subscription's promotional
        offer (the catalog's adHocOffers; for current or lapsed subscribers: on an upgrade from
        now, otherwise from the next renewal). The App Store takes an offer only with the
        developer's signature: --signed signs it now with the store's subscription key, or
        --key-id, --nonce, --timestamp and --signature give one made elsewhere ('storefront
        store sign-offer', or a server with Apple's PromotionalOfferSignatureCreator); a bad
        signature, a reused nonce, a timestamp over 24 hours old or an unknown key fails with
        the App Store's error. --offer alone is the testing option (no signature, as
        SKTestSession's). --app-account-token ties the purchase to the app's account; the signed
        transaction carries it (lowercase). --win-back applies a win-back offer (the catalog's
        winbackOffers; for lapsed subscribers). --billing-plan chooses how a subscription sold by
        billing plans is paid for: 'monthly' pays one month at a time over a 12-month commitment
        (the transaction says which payment of 12 it is, and when the commitment ends),
        'upfront' (the default) pays each period at once. A product with hosted content is downloaded
        next, with progress, and installed before the purchase is finished.
        --json prints an object with state (purchased, pending, cancelled or failed); when the
        store made a transaction, transactionID and transaction; when it failed, error (why);
        when the product has hosted content, download (as 'storefront downloads --json' shows
        it). Exits 1 when the purchase failed or was cancelled, or its content was not
        installed (the purchase is kept).
        """

    /// `--quantity N`.
    static let quantity = Option<Int>(
        "quantity", valueName: "N", help: "How many to buy (consumables only; the store takes 1 to 10; default 1)."
    ) { (text: String) throws(CLIError) -> Int in
        let range = Payment.quantities
        guard let n = Int(text), range.contains(n) else {
            throw .usage(
                "--quantity must be a whole number from \(range.lowerBound) to \(range.upperBound) (got '\(text)').")
        }
        return n
    }
    /// `--username NAME`.
    static let username = Option<String>(
        "username", valueName: "NAME", help: "The app's account name, hashed into applicationUsername.")
    /// `--order-data KEY=VALUE[,…]`.
    static let orderData = Option<[String: String]>(
        "order-data", valueName: "KEY=VALUE[,…]", help: "The app's own order data to keep with the purchase.",
        parse: parseOrderData)
    /// `--offer OFFER_ID`.
    static let offer = Option<String>(
        "offer", valueName: "OFFER_ID", help: "A promotional offer of the subscription to apply.")
    /// `--win-back OFFER_ID`.
    static let winBack = Option<String>(
        "win-back", valueName: "OFFER_ID", help: "A win-back offer of the subscription to apply (lapsed subscribers).")

    /// `--billing-plan monthly|upfront`.
    static let billingPlan = Option<BillingPlanType>(
        "billing-plan", valueName: "monthly|upfront",
        help: "How to pay for a subscription: monthly over a 12-month commitment, or up front (default)."
    ) { (text: String) throws(CLIError) -> BillingPlanType in
        switch text.lowercased() {
        case "monthly", BillingPlanType.monthly.rawValue.lowercased(): return .monthly
        case "upfront", "up-front", BillingPlanType.billedUpfront.rawValue.lowercased(): return .billedUpfront
        default: throw .usage("--billing-plan must be 'monthly' or 'upfront' (got '\(text)').")
        }
    }

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        let productID = try invocation.onlyArgument(
            orUsage: "buy needs exactly one product ID (see 'storefront products').")
        guard !productID.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .usage("buy needs a product ID, and '\(productID)' is empty (see 'storefront products').")
        }
        let quantity = try invocation.value(Self.quantity) ?? 1
        let orderData = try invocation.value(Self.orderData) ?? [:]
        let username = try invocation.value(Self.username).map(ApplicationUsername.hash)
        let offerID = try invocation.value(Self.offer)
        let token = try invocation.value(OfferOptions.appAccountToken)

        // Only the files of what is sold are checked: another product's damaged content is not this sale's.
        let session = try await StoreSession.open(invocation, context: context, contentFiles: .products([productID]))
        let signedOffer: PromotionalOffer?
        do {
            signedOffer = try OfferOptions.promotionalOffer(
                invocation, productID: productID, offerID: offerID, appAccountToken: token, username: username,
                backend: session.backend)
        } catch {
            await session.close()
            throw error
        }
        let result = await session.store.purchase(
            productID,
            options: PurchaseOptions(
                quantity: quantity, applicationUsername: username, orderData: orderData,
                offerID: signedOffer == nil ? offerID : nil, appAccountToken: token, promotionalOffer: signedOffer,
                winBackOfferID: try invocation.value(Self.winBack),
                billingPlanType: try invocation.value(Self.billingPlan)))
        let name = await session.store.cachedProduct(productID)?.displayName ?? productID
        if !invocation.global.json { context.output.write(PurchaseOutput.describe(result, name: name) + "\n") }
        // Hosted content downloads now, with progress; the purchase is owned either way.
        let download = await DownloadsFollower.followPurchase(
            result, name: name, session: session, context: context, json: invocation.global.json)
        await session.close()

        if invocation.global.json { context.output.write(PurchaseOutput.json(result, download: download).rendered()) }
        if let download, download.state == .failed || download.state == .cancelled {
            throw .runtime("the content of \(productID) was not installed (\(download.state)); the purchase is kept.")
        }
        switch result {
        case .purchased, .pending, .unverified: return
        case .cancelled, .taskCancelled: throw .runtime("the purchase of \(productID) was cancelled.")
        case .failed(let error, _): throw .runtime("the purchase of \(productID) failed: \(error.description)")
        }
    }

    /// `KEY=VALUE,KEY=VALUE` into a dictionary.
    static func parseOrderData(_ text: String) throws(CLIError) -> [String: String] {
        var data: [String: String] = [:]
        for pair in text.split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw .usage("--order-data takes KEY=VALUE pairs separated by commas (got '\(pair)').")
            }
            data[String(parts[0])] = String(parts[1])
        }
        return data
    }
}
