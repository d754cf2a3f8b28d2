import Foundation
import StoreCore

/// `storefront buy ID`: buys a product through the engine and the local App Store.
struct BuyCommand: Command {
    let name = "buy"
    let summary = "Buy a product; the purchase is verified, recorded and delivered once."
    let usage = "PRODUCT_ID [--quantity N] [--username NAME] [--order-data KEY=VALUE[,KEY=VALUE…]] [--offer OFFER_ID]"
    let discussion = """
        Waits for the outcome: purchased, pending (Ask to Buy: approve it with 'storefront store
        approve ID'), cancelled or failed. --username is hashed (SHA-256) into the payment's
        applicationUsername. --order-data is the app's own order data, kept with the transaction
        and returned with it, also after a crash. --offer applies a subscription's promotional
        offer (the catalog's adHocOffers; for current or lapsed subscribers: on an upgrade from
        now, otherwise from the next renewal). --json prints an object with state and, when
        there is one, transactionID and the transaction. Exits 1 when the purchase failed or was
        cancelled.
        """
    let options: [OptionSpec] = [
        OptionSpec(name: "quantity", valueName: "N", help: "How many to buy (consumables only; 1 to 10; default 1)."),
        OptionSpec(name: "username", valueName: "NAME", help: "The app's account name, hashed into applicationUsername."),
        OptionSpec(name: "order-data", valueName: "KEY=VALUE,…", help: "The app's own order data to keep with the purchase."),
        OptionSpec(name: "offer", valueName: "OFFER_ID", help: "A promotional offer of the subscription to apply."),
    ]

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard invocation.arguments.count == 1, let productID = invocation.arguments.first else {
            throw .usage("buy needs exactly one product ID (see 'storefront products').")
        }
        var quantity = 1
        if let text = invocation.options["quantity"] {
            guard let n = Int(text), n >= 1 else { throw .usage("--quantity must be a whole number of at least 1 (got '\(text)').") }
            quantity = n
        }
        let orderData = try Self.parseOrderData(invocation.options["order-data"])
        let username = invocation.options["username"].map(ApplicationUsername.hash)

        let session = try await StoreSession.open(invocation, context: context)
        let result = await session.store.purchase(
            productID, quantity: quantity, applicationUsername: username, orderData: orderData,
            offerID: invocation.options["offer"])
        let name = await session.store.cachedProduct(productID)?.displayName ?? productID
        if !invocation.global.json { context.output.write(Self.describe(result, name: name) + "\n") }
        // Hosted content downloads now, with progress; the purchase is owned either way.
        let download = await DownloadsFollower.followPurchase(result, name: name, session: session, context: context, json: invocation.global.json)
        await session.close()

        if invocation.global.json {
            var members: [(String, JSONText)] = [("state", .string(result.state))]
            if let t = result.transaction, !t.transactionID.isEmpty {
                members.append(("transactionID", .string(t.transactionID)))
                members.append(("transaction", TransactionOutput.json(t)))
            }
            if case .failed(let error, _) = result { members.append(("error", .string(error.description))) }
            if let download { members.append(("download", DownloadsOutput.json(download))) }
            context.output.write(JSONText.object(members).rendered())
        }
        if let download, download.state == .failed || download.state == .cancelled {
            throw .runtime("the content of \(productID) was not installed (\(download.state)); the purchase is kept.")
        }
        switch result {
        case .purchased, .pending, .unverified: return
        case .cancelled, .taskCancelled: throw .runtime("the purchase of \(productID) was cancelled.")
        case .failed(let error, _): throw .runtime("the purchase of \(productID) failed: \(error.description)")
        }
    }

    static func describe(_ result: PurchaseResult, name: String) -> String {
        switch result {
        case .purchased(let t):
            let quantity = t.quantity > 1 ? " ×\(t.quantity)" : ""
            return "Purchased \(name)\(quantity) (transaction \(t.transactionID))."
        case .pending(let t):
            return "Waiting for approval: \(name) (transaction \(t.transactionID)). Approve it with 'storefront store approve \(t.transactionID)'."
        case .unverified(let order):
            return "Charged, not yet verified: \(name) (transaction \(order.transaction.transactionID)): \(order.lastFailure). Verified again at the next start."
        case .cancelled, .taskCancelled:
            return "Cancelled: \(name)."
        case .failed(let error, _):
            return "Failed: \(name): \(error.description)"
        }
    }

    /// `KEY=VALUE,KEY=VALUE` into a dictionary.
    static func parseOrderData(_ text: String?) throws(CLIError) -> [String: String] {
        guard let text else { return [:] }
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
