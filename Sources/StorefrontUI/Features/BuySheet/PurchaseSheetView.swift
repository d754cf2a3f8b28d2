import Foundation
import StoreKitValues

/// The purchase sheet: the confirmation (price, terms, quantity, offer, account) and the
/// purchase's progress (each step ticked, one bar that only moves forward and, for a purchase
/// with content, is its download's, agreeing with the Downloads pane).
enum PurchaseSheetView {
    /// The sheet's width on `screen`.
    private static func width(_ screen: Screen) -> Int { min(screen.width - 4, 66) }

    static func confirm(_ state: State, into screen: inout Screen) {
        let s = state.strings
        let (productID, quantity, offer) = (
            state.buySheet.confirmation.productID, state.buySheet.confirmation.quantity,
            state.buySheet.confirmation.offer
        )
        guard let product = state.product(productID) else { return }
        let plans = BuySheetFeature.plans(product)
        let plan = BuySheetFeature.plan(product, state.buySheet.confirmation)
        if state.buySheet.confirmation.disclosing, let plan {
            CommitmentDisclosureView.render(product, plan, state, width: width(screen), into: &screen)
            return
        }
        let textWidth = width(screen) - 6
        var lines: [(String, CellStyle)] = []
        func add(_ text: String, _ style: CellStyle) {
            lines += TextLayout.wrap(text, width: textWidth).map { ($0, style) }
        }
        add(State.shownName(product), Theme.title)
        add(s.typeName(product.type) + " · " + product.id, Theme.secondary)
        lines.append(("", .plain))
        let estimated = state.context?.estimatedPrices.contains(productID) == true ? ProductMetrics.estimateMark : ""
        var price =
            estimated + (plan.map { SubscriptionTerms.planPrice($0, s) } ?? SubscriptionTerms.listPrice(product, s))
        if product.type == .consumable {
            price = "◂ \(quantity) ▸ × " + price
        }
        let offers = BuySheetFeature.offers(product, plan: plan)
        let chosen = offer < offers.count ? offers[offer] : nil
        var labels = [s("Price"), s("Account"), s("Storefront")]
        var values = [
            price, state.context?.account ?? "—", state.context.map { "\($0.storefront) · \($0.locale)" } ?? "—",
        ]
        if let plan {
            let name = SubscriptionTerms.planName(plan.billingPlanType, s)
            labels.insert(s("Plan"), at: 1)
            values.insert(plans.count > 1 ? "◂ \(name) ▸" : name, at: 1)
        }
        let labelWidth = labels.map { DisplayWidth.of($0) }.max() ?? 8
        for (i, (label, value)) in zip(labels, values).enumerated() {
            let wrapped = TextLayout.wrap(value, width: max(1, textWidth - labelWidth - 2))
            for (j, part) in wrapped.enumerated() {
                let head = j == 0 ? TextLayout.pad(label, to: labelWidth) : String(repeating: " ", count: labelWidth)
                lines.append((head + "  " + part, i == 0 ? Theme.price.with(.bold) : .plain))
            }
        }
        if product.type == .consumable, quantity > 1, let total = total(product, quantity: quantity, state) {
            add(s("Total {}", total), Theme.price)
        }
        // The terms this purchase takes, as the App Store's sheet shows them.
        if let subscription = product.subscription {
            if let chosen {
                add(
                    s("Promotional offer") + " \(chosen.id ?? ""): " + SubscriptionTerms.offer(chosen, of: product, s),
                    Theme.owned)
            } else if let plan {
                // Each plan has its own introductory offer (or none).
                let intro = plan.subscriptionOffers.first { $0.kind == .introductory }
                if let intro, state.purchases.isEligibleForIntroOffer(inGroup: subscription.groupID) {
                    let then = SubscriptionTerms.perPeriod(plan.billingDisplayPrice, plan.billingPeriod, s)
                    add(SubscriptionTerms.offer(intro, of: product, s, then: then), Theme.owned)
                } else {
                    add(SubscriptionTerms.renewal(plan.billingPeriod, s), .plain)
                }
            } else if let intro = subscription.introductoryOffer, state.purchases.isEligibleForIntroOffer(product) {
                add(SubscriptionTerms.offer(intro, of: product, s), Theme.owned)
            } else {
                add(SubscriptionTerms.renewal(subscription.period, s), .plain)
            }
            if offers.count > 1 {
                add(
                    s("Offer {} of {} (Tab changes it)", String(offer + 1), String(offers.count)) + ": "
                        + (chosen.map { $0.id ?? "" } ?? s("none")), Theme.secondary)
            }
            if let change = PlanChange.of(product, in: state) { add(change.text(s), Theme.waiting) }
        }
        if product.type == .consumable { add(s("−/+ changes the quantity"), Theme.secondary) }
        if plans.count > 1 { add(s("←/→ changes the plan"), Theme.secondary) }
        let prompt = s("Enter: Buy   Esc: Cancel")
        let height = min(screen.height - 2, lines.count + 5)
        let inner = SheetView.window(
            s("Confirm Your In-App Purchase"), width: width(screen), height: height, into: &screen)
        for (i, (text, style)) in lines.prefix(max(0, inner.height - 2)).enumerated() {
            SheetView.line(text, inner, 1 + i, style: style, indent: 2, into: &screen)
        }
        SheetView.line(
            prompt, inner, inner.height - 1, style: Theme.key,
            indent: max(1, (inner.width - DisplayWidth.of(prompt)) / 2), into: &screen)
    }

    /// A consumable's price times the quantity, in the product's currency and the locale.
    private static func total(_ product: Product, quantity: Int, _ state: State) -> String? {
        let amount = product.price * Decimal(quantity)
        let locale = Locale(identifier: state.context?.locale ?? "en_US")
        return amount.formatted(.currency(code: product.currencyCode).locale(locale))
    }

    static func progress(_ state: State, into screen: inout Screen) {
        let s = state.strings
        let productID = state.buySheet.watching
        let name = state.name(of: productID)
        let flow = state.buySheet.flows[productID] ?? PurchaseFlow(productID: productID, phase: .done)
        let phases = flow.phases
        let download = state.downloads.items.last { $0.productID == productID }
        let inner = SheetView.window(name, width: width(screen), height: phases.count + 7, footer: "Esc", into: &screen)
        for (i, phase) in phases.enumerated() {
            let (mark, style): (String, CellStyle) =
                phase < flow.phase || flow.phase == .done
                ? ("✓", Theme.owned)
                : phase == flow.phase
                    ? (String(Format.spinner(state.tickCount)), Theme.busy)
                    : ("·", Theme.secondary)
            var label = s(phase.label)
            if phase == .downloading, let download, flow.phase >= .downloading {
                label += " · \(Format.bytes(download.bytesWritten))/\(Format.bytes(download.totalBytes))"
            }
            SheetView.line(mark + " " + label, inner, 1 + i, style: style, indent: 3, into: &screen)
        }
        // With content, the bar is the download's own, as the Downloads pane shows it.
        let fraction = flow.fraction(download: download)
        let barWidth = max(1, inner.width - 10)
        let y = inner.y + phases.count + 2
        screen.progressBar(
            fraction: fraction, x: inner.x + 3, y: y, width: barWidth, style: Theme.bar100, trackStyle: Theme.barTrack)
        screen.put(
            TextLayout.pad(Format.percent(fraction), to: 5, alignRight: true), x: inner.x + 3 + barWidth, y: y,
            style: Theme.title)
    }
}
