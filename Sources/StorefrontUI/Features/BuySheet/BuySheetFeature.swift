import Foundation
import StoreKitValues

/// The purchase sheet: the confirmation (price, terms, quantity, offer, account), then the
/// purchase's progress, step by step, until it ends; a finished purchase's sheet stays a moment.
public enum BuySheetFeature: Feature {
    /// The most of a consumable one purchase may buy.
    static let maximumQuantity = 10

    static func reduce(_ state: inout State, _ action: Action, _ root: StorefrontUI.State) -> Reaction {
        switch action {
        case .open:
            return open(&state, root)
        case .redeemOfferCode:
            return redeemOfferCode(&state, root)
        case .key(let key):
            return root.modal == .confirm ? confirmKey(key, &state, root) : progressKey(key, &state)
        case .phase(let productID, let phase):
            if var flow = state.flows[productID], phase > flow.phase {
                flow.phase = phase
                state.flows[productID] = flow
            }
        case .needsDownload(let productID, let downloadID):
            if var flow = state.flows[productID], flow.phase < .downloading {
                flow.phase = .downloading
                state.flows[productID] = flow
            }
            return .run(.followDownload(id: downloadID, productID: productID))
        case .downloadProgressed(let download):
            if var flow = state.flows[download.productID], flow.phase < .downloading, !download.state.isTerminal {
                flow.phase = .downloading
                state.flows[download.productID] = flow
            }
        case .downloadSettled(let productID, let download):
            return settle(productID, download, &state, root)
        case .finished(let productID, let result):
            return finish(productID, result, &state, root)
        case .tick(let date):
            var reaction = Reaction.none
            for (productID, flow) in state.flows {
                guard let finished = flow.finishedAt,
                    date.timeIntervalSince(finished) >= StorefrontUI.State.settledLifetime
                else { continue }
                reaction = reaction.then(close(productID, &state, root))
            }
            return reaction
        }
        return .none
    }

    /// The offers the sheet offers for `product` by `plan`: none (or the introductory offer,
    /// when eligible), then each promotional offer (the plan's, for a product sold by plans).
    static func offers(_ product: Product, plan: PricingTerms? = nil) -> [SubscriptionOffer?] {
        let promotional =
            plan.map { $0.subscriptionOffers.filter { $0.kind == .promotional } }
            ?? product.subscription?.promotionalOffers ?? []
        return [nil] + promotional.map { Optional($0) }
    }

    /// The billing plans the sheet lets the customer pick from (StoreKit's pricing terms);
    /// empty for a product the catalog sells without plans.
    static func plans(_ product: Product) -> [PricingTerms] { product.subscription?.pricingTerms ?? [] }

    /// The plan `confirmation` chose for `product`, nil for a product without plans.
    static func plan(_ product: Product, _ confirmation: Confirmation) -> PricingTerms? {
        let plans = plans(product)
        return plans.isEmpty ? nil : plans[min(confirmation.plan, plans.count - 1)]
    }

    private static func open(_ state: inout State, _ root: StorefrontUI.State) -> Reaction {
        // A storefront switch under way: the prices on screen are the old storefront's.
        if let switching = root.storefronts.switchingTo {
            return Reaction(requests: [.show(root.strings("Switching to {}: wait for its prices", switching), .info)])
        }
        guard let product = root.catalog.selectedProduct else { return .none }
        if product.type == .nonConsumable, root.purchases.owned.contains(product.id) {
            return Reaction(
                requests: [.show(root.strings("You already own {}", StorefrontUI.State.shownName(product)), .info)])
        }
        if let flow = state.flows[product.id], flow.phase < .done {
            state.watching = product.id
            return .present(.purchase)
        }
        // Up front first, as a purchase that names no plan is billed.
        let upFront = plans(product).firstIndex { !$0.billingPlanType.hasCommitment } ?? 0
        state.confirmation = Confirmation(productID: product.id, plan: upFront)
        return .present(.confirm)
    }

    /// Redeems an offer code for the selected product, of any type: its purchase sheet opens and
    /// runs as for a purchase (a code is the store's, as App Store Connect issues them; a product
    /// without code offers fails there, saying so).
    private static func redeemOfferCode(_ state: inout State, _ root: StorefrontUI.State) -> Reaction {
        guard let product = root.catalog.selectedProduct else { return .none }
        state.watching = product.id
        if let flow = state.flows[product.id], flow.phase < .done { return .present(.purchase) }
        state.flows[product.id] = PurchaseFlow(
            productID: product.id, phase: .contacting, hasDownloads: product.hasDownloads, quantity: 1)
        return Reaction(requests: [.present(.purchase), .run(.redeemOfferCode(productID: product.id))])
    }

    private static func confirmKey(_ key: Key, _ state: inout State, _ root: StorefrontUI.State) -> Reaction {
        let confirmation = state.confirmation
        guard let product = root.product(confirmation.productID) else { return .present(nil) }
        let plan = plan(product, confirmation)
        let offers = offers(product, plan: plan)
        if confirmation.disclosing { return disclosureKey(key, &state, root) }
        switch key {
        case .enter, .character("y"), .character("b"):
            // The first commitment an account chooses: the App Store discloses its terms first.
            if plan?.billingPlanType.hasCommitment == true, !root.purchases.hasChosenACommitment {
                state.confirmation.disclosing = true
                return .none
            }
            return buy(product, &state)
        case .escape, .character("n"), .character("q"):
            return .present(nil)
        case .character("+"), .character("="), .right, .character("l"):
            if product.type == .consumable {
                state.confirmation.quantity = min(maximumQuantity, confirmation.quantity + 1)
            } else {
                changePlan(product, by: 1, &state)
            }
        case .character("-"), .left, .character("h"):
            if product.type == .consumable {
                state.confirmation.quantity = max(1, confirmation.quantity - 1)
            } else {
                changePlan(product, by: -1, &state)
            }
        case .character("p"):
            changePlan(product, by: 1, &state)
        case .tab, .down, .character("j"):
            guard offers.count > 1 else { break }
            state.confirmation.offer = (confirmation.offer + 1) % offers.count
        case .backTab, .up, .character("k"):
            guard offers.count > 1 else { break }
            state.confirmation.offer = (confirmation.offer + offers.count - 1) % offers.count
        default: break
        }
        return .none
    }

    /// Buys what the confirmation chose: the quantity, the offer and the plan.
    private static func buy(_ product: Product, _ state: inout State) -> Reaction {
        let confirmation = state.confirmation
        let plan = plan(product, confirmation)
        let offers = offers(product, plan: plan)
        state.flows[product.id] = PurchaseFlow(
            productID: product.id, phase: .contacting, hasDownloads: product.hasDownloads,
            quantity: confirmation.quantity)
        state.watching = product.id
        var reaction = Reaction.present(.purchase)
        let chosen = confirmation.offer < offers.count ? offers[confirmation.offer]?.id : nil
        reaction.run(
            .purchase(
                productID: product.id, quantity: confirmation.quantity, offerID: chosen,
                billingPlan: plan?.billingPlanType))
        return reaction
    }

    /// A key on the commitment's disclosure: Enter agrees and buys, Esc goes back to the sheet.
    private static func disclosureKey(_ key: Key, _ state: inout State, _ root: StorefrontUI.State) -> Reaction {
        guard let product = root.product(state.confirmation.productID) else { return .present(nil) }
        switch key {
        case .enter, .character("y"):
            state.confirmation.disclosing = false
            return buy(product, &state)
        case .escape, .character("n"), .character("q"):
            state.confirmation.disclosing = false
        default: break
        }
        return .none
    }

    /// Picks the next (or previous) billing plan; the offer goes back to none, as each plan has its own.
    private static func changePlan(_ product: Product, by step: Int, _ state: inout State) {
        let count = plans(product).count
        guard count > 1 else { return }
        state.confirmation.plan = (state.confirmation.plan + count + step) % count
        state.confirmation.offer = 0
    }

    private static func progressKey(_ key: Key, _ state: inout State) -> Reaction {
        guard key == .escape || key == .character("q") || key == .enter else { return .none }
        if state.flows[state.watching]?.finishedAt != nil { state.flows[state.watching] = nil }
        return .present(nil)
    }

    /// Forgets a finished purchase and closes its sheet if it is open.
    private static func close(_ productID: String, _ state: inout State, _ root: StorefrontUI.State) -> Reaction {
        state.flows[productID] = nil
        return root.modal == .purchase && state.watching == productID ? .present(nil) : .none
    }

    private static func finish(
        _ productID: String, _ result: Result<PurchaseOutcome, StoreError>, _ state: inout State,
        _ root: StorefrontUI.State
    ) -> Reaction {
        let s = root.strings
        let name = root.name(of: productID)
        let quantity = state.flows[productID]?.quantity ?? 1
        let shown = quantity > 1 ? "\(quantity) × \(name)" : name
        var reaction = Reaction.none
        if root.modal == .confirm, state.confirmation == Confirmation(productID: productID) {
            reaction.ask(.present(nil))
        }
        switch result {
        case .success(.purchased):
            // Every step ticked: the sheet shows Done at 100 % a moment before it closes.
            if var flow = state.flows[productID] {
                flow.phase = .done
                flow.finishedAt = root.now ?? Date(timeIntervalSince1970: 0)
                state.flows[productID] = flow
            }
            reaction.ask(.report(s("Purchased {}", shown), .success))
            reaction.run(.loadPurchases)
            return reaction
        case .success(.pending):
            reaction.ask(.report(s("{} is waiting for approval (Ask to Buy)", name), .info))
        case .success(.interrupted):
            reaction.ask(
                .report(s("{} was interrupted: resolve it in the Transaction Manager (t, then i)", name), .info))
        case .success(.cancelled):
            reaction.ask(.report(s("Purchase of {} cancelled", name), .info))
        case .failure(let error):
            reaction.ask(.report(s("Purchase of {} failed: {}", name, root.describe(error)), .error))
        }
        reaction = reaction.then(close(productID, &state, root))
        reaction.run(.loadPurchases)
        return reaction
    }

    /// A purchase's download stopped: finished, the purchase is done; otherwise it is bought
    /// but its content is not here, and the message says so and what to press.
    private static func settle(
        _ productID: String, _ download: Download?, _ state: inout State, _ root: StorefrontUI.State
    ) -> Reaction {
        let s = root.strings
        var reaction = Reaction.none
        if let download { reaction.ask(.send(.downloads(.updated(download)))) }
        let name = root.name(of: productID)
        let percent = download.map { Format.percent($0.fraction) } ?? "?"
        switch download?.state {
        case .finished?, nil:
            if var flow = state.flows[productID] {
                flow.phase = .done
                state.flows[productID] = flow
            }
            let purchased = PurchaseOutcome.purchased(transactionID: download?.transactionID ?? "")
            return reaction.then(finish(productID, .success(purchased), &state, root))
        case .failed?:
            let reason = download?.error.map { "\($0)" } ?? "?"
            reaction.ask(
                .report(
                    s("Bought {}, but its download failed at {}: {} (space retries)", name, percent, reason), .error))
        case .paused?:
            reaction.ask(.report(s("Bought {}; its download is paused at {} (space resumes)", name, percent), .info))
        default:
            reaction.ask(.report(s("Bought {}; its download was cancelled (space starts it again)", name), .info))
        }
        reaction = reaction.then(close(productID, &state, root))
        reaction.run(.loadPurchases)
        return reaction
    }
}
