import Foundation
import StoreCore

/// `storefront entitlements`: what the account has right now, and where each subscription
/// group stands.
struct EntitlementsCommand: Command {
    let name = "entitlements"
    let summary = "Show what the account has right now and each subscription group's status."
    var forms: [UsageForm] { [UsageForm(optional: [Self.nonRenewingDuration, GlobalOptions.json])] }
    let discussion = """
        Delivers what the store has for the app first (renewals, refunds), then lists the
        account's entitlements with StoreKit 2's rules: non-consumables, active or in-grace
        auto-renewable subscriptions and unexpired non-renewing subscriptions; never
        consumables, refunded or expired items. Then one line per subscription group:
        subscribed, inGracePeriod, inBillingRetryPeriod, expired or revoked; a subscription a
        family member shares has a line of its own, marked (Family Sharing).
        A non-renewing subscription lasts as long as the app decides: here the Demo's
        com.storefront.demo.seasonpass.winter 3 months and any other 1 year, unless
        --non-renewing-duration gives one ISO 8601 duration (P7D, P2W, P3M, P1Y) for all.
        --json prints {"entitlements": [...], "subscriptionGroups": [...]}: each entitlement
        with productID, type, state (active or inGracePeriod), expiresDate (when there is
        one), transactionID, originalTransactionID, purchaseDate and subscriptionGroupID;
        each group with groupID, state, productID, expiresDate, willAutoRenew and
        autoRenewProductID (null when unknown), originalTransactionID and ownershipType
        (PURCHASED, or FAMILY_SHARED).
        """

    /// `--non-renewing-duration P3M`.
    static let nonRenewingDuration = Option<SubscriptionPeriod>(
        "non-renewing-duration", valueName: "P3M",
        help: "How long every non-renewing subscription lasts (ISO 8601: P7D, P2W, P3M, P1Y)."
    ) { (text: String) throws(CLIError) -> SubscriptionPeriod in
        guard let period = SubscriptionPeriod(iso8601: text) else {
            throw .usage(
                "invalid --non-renewing-duration '\(text)': use one ISO 8601 duration such as P7D, P2W, P3M or P1Y.")
        }
        return period
    }

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        guard invocation.arguments.isEmpty else { throw .usage("entitlements takes no arguments.") }
        var durations = NonRenewingDurations.storefront
        if let period = try invocation.value(Self.nonRenewingDuration) { durations = .uniform(period) }
        let session = try await StoreSession.open(invocation, context: context, durations: durations, readsOnly: true)
        let lost = await LedgerCheck.reconcile(session)
        let entitlements: [Entitlement]
        let groups: [SubscriptionStatus]
        do {
            entitlements = try await session.store.currentEntitlements()
            groups = try await session.store.subscriptionStatuses()
        } catch {
            await session.close()
            throw .runtime("cannot compute the entitlements: \(error)")
        }
        await session.close()
        if invocation.global.json {
            context.output.write(
                JSONText.object([
                    ("entitlements", .array(entitlements.map(Self.json))),
                    ("subscriptionGroups", .array(groups.map(Self.json))),
                ]).rendered())
            if let lost { throw .runtime(lost) }
            return
        }
        var lines =
            entitlements.isEmpty
            ? ["No entitlements."]
            : TextTable(
                columns: [
                    .init(header: "PRODUCT", maximumWidth: 44), .init(header: "TYPE"), .init(header: "STATE"),
                    .init(header: "EXPIRES"), .init(header: "TRANSACTION"),
                ],
                rows: entitlements.map { e in
                    [
                        e.productID, e.productType.rawValue, Self.state(e),
                        e.expiresDate.map(TransactionOutput.date) ?? "never",
                        e.transactionID,
                    ]
                }
            ).render()
        if !groups.isEmpty {
            let names = Dictionary(
                session.selection.catalog.subscriptionGroups.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
            lines += ["", "Subscription groups:"] + groups.map { Self.line($0, name: names[$0.groupID]) }
        }
        context.output.write(lines.joined(separator: "\n") + "\n")
        if let lost { throw .runtime(lost) }
    }

    /// `active`, or the subscription state when it is anything else (`inGracePeriod`).
    static func state(_ e: Entitlement) -> String {
        guard let state = e.state, state != .subscribed else { return "active" }
        return state.rawValue
    }

    /// What the commitment renews into at its end: `; then renews monthly`, `; then renews as
    /// ID up front`, or `; then ends` (auto-renew off).
    static func commitmentRenewal(_ c: RenewalInfo.CommitmentInfo, current: String) -> String {
        guard c.willAutoRenew else { return "; then ends" }
        let plan = c.renewalBillingPlanType == .monthly ? "monthly" : "up front"
        return c.autoRenewPreference == current
            ? "; then renews \(plan)" : "; then renews as \(c.autoRenewPreference) \(plan)"
    }

    /// One entitlement in the `--json` contract.
    static func json(_ e: Entitlement) -> JSONText {
        var members: [(String, JSONText)] = [
            ("productID", .string(e.productID)),
            ("type", .string(e.productType.rawValue)),
            ("state", .string(state(e))),
        ]
        if let expires = e.expiresDate { members.append(("expiresDate", .string(TransactionOutput.date(expires)))) }
        members += [
            ("transactionID", .string(e.transactionID)),
            ("originalTransactionID", .string(e.originalTransactionID)),
            ("purchaseDate", .string(TransactionOutput.date(e.purchaseDate))),
            ("subscriptionGroupID", .optional(e.subscriptionGroupID)),
        ]
        return .object(members)
    }

    /// One subscription group's status in the `--json` contract.
    static func json(_ s: SubscriptionStatus) -> JSONText {
        .object([
            ("groupID", .string(s.groupID)),
            ("state", .string(s.state.rawValue)),
            ("productID", .string(s.transaction.productID)),
            ("expiresDate", .optional(s.transaction.expiresDate.map(TransactionOutput.date))),
            ("willAutoRenew", s.renewalInfo.map { .bool($0.willAutoRenew) } ?? .null),
            ("autoRenewProductID", .optional(s.renewalInfo?.autoRenewProductID)),
            ("originalTransactionID", .string(s.transaction.originalTransactionID)),
            ("ownershipType", .string(s.transaction.ownershipType.rawValue)),
            ("commitmentInfo", s.transaction.commitmentInfo.map(TransactionOutput.json) ?? .null),
        ])
    }

    /// A group's status as one line, e.g. `49EF0713 (Storefront Premium): subscribed, … renews`.
    static func line(_ s: SubscriptionStatus, name: String?) -> String {
        let group = name.map { "\(s.groupID) (\($0))" } ?? s.groupID
        let expires = s.transaction.expiresDate.map(TransactionOutput.date) ?? "?"
        var text = "  \(group)\(s.transaction.ownershipType == .familyShared ? " (Family Sharing)" : ""): "
        text += "\(s.state.rawValue), \(s.transaction.productID)"
        switch s.state {
        case .subscribed, .inGracePeriod:
            text += " until \(expires)"
        case .revoked:
            text += " refunded"
        default:
            text += " ended \(expires)"
            if let intent = s.renewalInfo?.expirationIntent { text += " (\(SubscriptionOutput.intentName(intent)))" }
        }
        let running = s.state != .expired && s.state != .revoked
        if let commitment = s.transaction.commitmentInfo, running {
            text += ", " + TransactionOutput.commitment(commitment)
        }
        if let renewal = s.renewalInfo, running {
            text +=
                renewal.willAutoRenew
                ? (renewal.autoRenewProductID == s.transaction.productID
                    ? ", renews" : ", renews as \(renewal.autoRenewProductID)")
                : ", auto-renew off"
            if let commitment = renewal.commitmentInfo {
                text += Self.commitmentRenewal(commitment, current: s.transaction.productID)
            }
        }
        return text
    }
}
