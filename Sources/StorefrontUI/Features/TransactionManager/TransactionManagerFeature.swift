import Foundation
import StoreKitValues

/// The Transaction Manager: Xcode's, in a window. It acts on the selected row (approve,
/// decline, resolve, refund, a refund's reversal, refund requests, price increases, and a
/// subscription's renewals, expiry, auto-renew and billing), asking first what cannot be undone.
public enum TransactionManagerFeature: Feature {
    /// The keys a refunded row takes besides `u`: the others act on a purchase that grants.
    private static let keysForGrantingRows: Set<Key> = Set(
        ["a", "d", "i", "R", "A", "D", "f", "n", "x", "c", "b", "p", "+", "-", "S"].map { Key.character(Character($0)) }
    )

    static func reduce(_ state: inout State, _ action: Action, _ root: StorefrontUI.State) -> Reaction {
        switch action {
        case .open:
            state = State()
            return .present(.transactions, loading: .loadPurchases)
        case .key(let key):
            return handle(key, &state, root)
        case .rowsChanged:
            state.selected = min(state.selected, max(0, rows(root.purchases).count - 1))
            return .none
        case .commandFinished(let command, let result):
            return reportAndReload(result.map { (message(command, $0, root.strings), .success) })
        case .subscriptionCommandFinished(let command, let result):
            return reportAndReload(result.map { message(command, $0, root) })
        }
    }

    /// The identifier the store knows a transaction by: a restored copy's original (the store
    /// refunds and approves what it sold, not the app's copy of it).
    private static func storeID(_ transaction: Transaction) -> String {
        transaction.state == .restored ? transaction.originalTransactionID : transaction.transactionID
    }

    private static func handle(_ key: Key, _ state: inout State, _ root: StorefrontUI.State) -> Reaction {
        let rows = rows(root.purchases)
        let selected = state.selected
        let s = root.strings
        // A refunded row: u reverses the refund; what acts on a granting purchase says so.
        if selected < rows.count, rows[selected].revocationDate != nil, keysForGrantingRows.contains(key) {
            let text = s("{} was refunded: u reverses the refund", root.name(of: rows[selected].productID))
            return Reaction(requests: [.show(text, .error)])
        }
        switch key {
        case .escape, .character("q"), .character("t"):
            return .present(nil)
        case .character("u"):
            guard selected < rows.count else { return .none }
            guard rows[selected].revocationDate != nil else {
                return Reaction(
                    requests: [.show(s("{} is not refunded", root.name(of: rows[selected].productID)), .error)])
            }
            return .run(.transactionCommand(.reverseRefund, transactionID: storeID(rows[selected])))
        case .character("a"), .character("d"), .character("i"):
            guard selected < rows.count else { return .none }
            let command: TransactionCommand =
                switch key {
                case .character("a"): .approve
                case .character("d"): .decline
                default: .resolve
                }
            return .run(.transactionCommand(command, transactionID: storeID(rows[selected])))
        case .character("R"), .character("A"), .character("D"):
            guard selected < rows.count else { return .none }
            let command: TransactionCommand =
                key == .character("R") ? .requestRefund : .decideRefund(approve: key == .character("A"))
            return .run(.transactionCommand(command, transactionID: storeID(rows[selected])))
        case .character("S"):
            guard selected < rows.count else { return .none }
            guard rows[selected].ownershipType == .purchased else {
                let text = s(
                    "{} is shared with you: only its purchaser can stop sharing it",
                    root.name(of: rows[selected].productID))
                return Reaction(requests: [.show(text, .error)])
            }
            return .run(.transactionCommand(.stopSharing, transactionID: storeID(rows[selected])))
        case .character("F"):
            // The family: its accounts, where `r` removes a member.
            return .send(.accounts(.open))
        case .character("f"):
            guard selected < rows.count else { return .none }
            let question = Question.refund(transactionID: storeID(rows[selected]), productID: rows[selected].productID)
            return .send(.questions(.ask(question, over: .transactions)))
        case .enter:
            guard selected < rows.count else { return .none }
            return .send(.receipt(.openTransaction(rows[selected].transactionID, over: .transactions)))
        case .character("n"), .character("x"), .character("c"), .character("b"), .character("p"), .character("+"),
            .character("-"):
            guard selected < rows.count else { return .none }
            let transaction = rows[selected]
            guard let subscription = subscription(for: transaction, in: root.purchases) else {
                let text = s("{} is not an auto-renewable subscription", root.name(of: transaction.productID))
                return Reaction(requests: [.show(text, .error)])
            }
            let id = storeID(transaction)
            switch key {
            case .character("n"): return .run(.subscriptionCommand(.renew, transactionID: id))
            case .character("x"):
                let question = Question.expire(transactionID: id, productID: transaction.productID)
                return .send(.questions(.ask(question, over: .transactions)))
            case .character("c"):
                return .run(.subscriptionCommand(.setAutoRenew(on: !subscription.willAutoRenew), transactionID: id))
            case .character("p"): return .run(.transactionCommand(.priceIncrease(accept: nil), transactionID: id))
            case .character("+"), .character("-"):
                return .run(.transactionCommand(.priceIncrease(accept: key == .character("+")), transactionID: id))
            default:
                let failing = subscription.hasBillingIssue || subscription.isInBillingRetry
                return .run(.subscriptionCommand(.setBillingIssue(on: !failing), transactionID: id))
            }
        default:
            if let next = KeyNavigation.moved(selected, by: key, count: rows.count, page: max(1, root.height - 10)) {
                state.selected = next
            }
        }
        return .none
    }

    /// Reports a store command's outcome (its message, or a failure); the purchases load again
    /// either way.
    static func reportAndReload(_ outcome: Result<(String, StatusMessage.Kind), StoreError>) -> Reaction {
        var reaction = Reaction.none
        switch outcome {
        case .success(let (text, kind)): reaction.ask(.report(text, kind))
        case .failure(let error): reaction.ask(.fail(error))
        }
        reaction.run(.loadPurchases)
        return reaction
    }

    /// What a finished transaction command (approve, refund, a price increase…) says of `id`.
    private static func message(_ command: TransactionCommand, _ id: String, _ strings: Strings) -> String {
        switch command {
        case .approve: strings("Approved transaction {}", id)
        case .decline: strings("Declined transaction {}", id)
        case .resolve: strings("Resolved transaction {}", id)
        case .refund: strings("Refunded transaction {}", id)
        case .requestRefund: strings("Refund requested for transaction {}", id)
        case .decideRefund(true): strings("Approved the refund request for transaction {}", id)
        case .decideRefund(false): strings("Declined the refund request for transaction {}", id)
        case .priceIncrease(nil): strings("Price increase announced for {}; + accepts, - declines", id)
        case .priceIncrease(true?): strings("The customer accepted the price increase for {}", id)
        case .priceIncrease(false?):
            strings("The customer declined the price increase for {}: it expires at its renewal date", id)
        case .reverseRefund: strings("Refund of transaction {} reversed: it grants again", id)
        case .stopSharing: strings("Stopped sharing transaction {} with the family", id)
        }
    }

    /// What a subscription command did, from the subscription as it is afterwards: a renewal
    /// while billing fails is reported as the failure it is.
    private static func message(
        _ command: SubscriptionCommand, _ subscription: ManagedSubscription, _ root: StorefrontUI.State
    ) -> (String, StatusMessage.Kind) {
        let strings = root.strings
        let name = root.name(of: subscription.productID)
        let now = root.now
        switch (command, subscription.phase) {
        case (.renew, .gracePeriod(let until)):
            return (
                strings(
                    "Renewal of {} failed (billing issue): grace period until {}", name, Format.until(until, now: now)),
                .error
            )
        case (.renew, .billingRetry):
            return (strings("Renewal of {} failed (billing issue): in billing retry", name), .error)
        case (.renew, .expired):
            // The store ended it instead (a price increase without consent, auto-renew off).
            return (
                strings(
                    "{} expired instead of renewing: {}", name, expiryReason(subscription.expirationIntent, strings)),
                .error
            )
        case (.renew, _):
            return (strings("Renewed {}: transaction {}", name, subscription.latestTransactionID), .success)
        case (.expire, _):
            return (strings("Expired {} now", name), .success)
        case (.setAutoRenew(true), _):
            return (strings("Auto-renew is on for {}", name), .success)
        case (.setAutoRenew, .active(let until)):
            return (strings("Cancelled {}: access until {}", name, Format.until(until, now: now)), .success)
        case (.setAutoRenew, _):
            return (strings("Auto-renew is off for {}", name), .success)
        case (.renewInto(let productID, let plan), _):
            let option = RenewalChoice.label(RenewalChoice.Option(productID: productID, plan: plan), root)
            return (strings("{} renews as {} when its commitment ends", name, option), .success)
        case (.setBillingIssue(true), _):
            return (strings("Billing issue on for {}: its renewals fail", name), .success)
        default:
            return (strings("Billing issue resolved for {}", name), .success)
        }
    }

    /// Why a subscription ended, in words.
    private static func expiryReason(_ intent: RenewalInfo.ExpirationIntent?, _ strings: Strings) -> String {
        switch intent {
        case .priceIncrease?: strings("the customer did not consent to the price increase")
        case .cancelled?: strings("auto-renew was off")
        case .billingError?: strings("billing failed")
        case .productUnavailable?: strings("the product is no longer available")
        default: strings("the store ended it")
        }
    }
}
