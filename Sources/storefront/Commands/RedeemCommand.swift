import StoreCore

/// `storefront redeem CODE`: redeems an offer code, as the app does after StoreKit 2's
/// offer code redemption sheet (`Store.redeem(offerCode:)`).
struct RedeemCommand: Command {
    let name = "redeem"
    let summary = "Redeem an offer code for a product of any type (the store issues them: 'store issue-codes')."
    var forms: [UsageForm] { [UsageForm("CODE", optional: [OfferOptions.appAccountToken, GlobalOptions.json])] }
    let discussion = """
        The code names its product and code offer; the product (a consumable, a non-consumable, a
        non-renewing or an auto-renewable subscription) is bought at the offer's terms, verified,
        recorded and delivered once, as 'storefront buy' does. A code is redeemed once; an
        unknown code fails with invalidOfferIdentifier, a redeemed one, a customer the offer is
        not for (its eligibility) or a non-consumable the customer owns with ineligibleForOffer.
        --json prints what 'buy --json' prints. Exits 1 when the redemption failed.
        """

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        let code = try invocation.onlyArgument(
            orUsage: "redeem needs exactly one offer code (see 'storefront store codes').")
        let token = try invocation.value(OfferOptions.appAccountToken)
        let session = try await StoreSession.open(invocation, context: context)
        let result: PurchaseResult
        do throws(OfferCodeRedemptionError) {
            let verified = try await session.store.redeem(
                offerCode: code, options: PurchaseOptions(appAccountToken: token))
            result = .purchased(verified.unsafePayloadValue)
        } catch {
            result = error.purchaseResult
        }
        let productID = result.transaction?.productID ?? code
        let name = await session.store.cachedProduct(productID)?.displayName ?? productID
        await session.close()
        if invocation.global.json {
            context.output.write(PurchaseOutput.json(result, download: nil).rendered())
        } else {
            context.output.write(PurchaseOutput.describe(result, name: name) + "\n")
        }
        switch result {
        case .purchased, .pending, .unverified: return
        case .cancelled, .taskCancelled: throw .runtime("the redemption of \(code) was cancelled.")
        case .failed(let error, _): throw .runtime("the code \(code) was not redeemed: \(error.description)")
        }
    }
}
