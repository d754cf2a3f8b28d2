import StoreKitValues

/// The one-time disclosure of a 12-month commitment, over the purchase sheet, before the
/// first commitment an account chooses (the App Store shows it once per account): how many
/// payments of how much, the total, and what cancelling does. Enter agrees and buys; Esc goes
/// back to the sheet.
enum CommitmentDisclosureView {
    /// The disclosure's lines for `product` bought by `plan`, wrapped to `width`.
    static func lines(_ product: Product, _ plan: PricingTerms, _ state: State, width: Int) -> [(String, CellStyle)] {
        let s = state.strings
        let payments = String(SubscriptionTerms.payments(plan))
        var lines: [(String, CellStyle)] = []
        func add(_ text: String, _ style: CellStyle) {
            lines += TextLayout.wrap(text, width: max(1, width)).map { ($0, style) }
        }
        add(State.shownName(product), Theme.title)
        lines.append(("", .plain))
        add(
            s(
                "{} monthly payments of {}: {} in all.", payments, plan.billingDisplayPrice,
                plan.commitmentInfo?.displayPrice ?? plan.billingDisplayPrice),
            Theme.price.with(.bold))
        add(s("The first is charged today, or when a free offer ends; one more follows each month."), .plain)
        add(
            s(
                "You can cancel at any time: the subscription then ends with the commitment, and the payments left are still charged."
            ),
            .plain)
        add(
            s(
                "When the commitment ends it renews for {} more payments, unless you choose otherwise in My Purchases.",
                payments),
            .plain)
        lines.append(("", .plain))
        add(s("Shown once for the account {}.", state.context?.account ?? "—"), Theme.secondary)
        return lines
    }

    static func render(_ product: Product, _ plan: PricingTerms, _ state: State, width: Int, into screen: inout Screen)
    {
        let s = state.strings
        let lines = lines(product, plan, state, width: width - 6)
        let prompt = s("Enter: Agree and Buy   Esc: Back")
        let height = min(screen.height - 2, lines.count + 5)
        let inner = SheetView.window(
            s("Monthly with a 12-Month Commitment"), width: width, height: height, into: &screen)
        for (i, (text, style)) in lines.prefix(max(0, inner.height - 2)).enumerated() {
            SheetView.line(text, inner, 1 + i, style: style, indent: 2, into: &screen)
        }
        SheetView.line(
            prompt, inner, inner.height - 1, style: Theme.key,
            indent: max(1, (inner.width - DisplayWidth.of(prompt)) / 2), into: &screen)
    }
}
