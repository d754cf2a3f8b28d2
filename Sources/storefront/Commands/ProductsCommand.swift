/// `storefront products`: the catalog's products with localized names and prices.
struct ProductsCommand: Command {
    let name = "products"
    let summary = "List the catalog's products with localized names and prices."
    var forms: [UsageForm] {
        [
            UsageForm(optional: [
                GlobalOptions.catalog, GlobalOptions.storefront, GlobalOptions.locale, GlobalOptions.json,
            ])
        ]
    }
    let discussion = """
        Prices come from the price sidecar beside the catalog (NAME.prices.json) when it sets one
        for the storefront, else from the catalog's displayPrice in the storefront's currency
        rounded to its minor units, and are formatted for the locale. A subscription offer costs
        the catalog's offer price scaled by the product's price there over its displayPrice,
        rounded the same way (a free offer 0): what is listed is what is charged. --json prints
        an array of objects, one per product, with productID, type, referenceName, displayName,
        description, locale, price (a decimal string), displayPrice, currencyCode, storefront
        and familyShareable; auto-renewable subscriptions add subscriptionGroup,
        subscriptionGroupID, subscriptionGroupDisplayName, subscriptionGroupLevel,
        subscriptionPeriod, introductoryOffer, promotionalOffers, codeOffers, winBackOffers and
        billingPlans; the other products add codeOffers (paymentMode oneTime). Each offer names
        its offerID, internalID, referenceName and identifier: commands take any of them, as
        Xcode addresses offers by offerID, else internalID or referenceName.
        """

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard invocation.arguments.isEmpty else {
            throw .usage("products takes no arguments (got '\(invocation.arguments[0])').")
        }
        let selection = try CatalogSelection.load(invocation.global, context: context)
        let listing = ProductsOutput(selection: selection)
        context.output.write(invocation.global.json ? listing.json().rendered() : listing.table())
    }
}
