import Foundation
import LocalAppStore
import StoreCore

/// The subscription verbs of `storefront store`: renew, expire, cancel, refund, billing-issue
/// and subscriptions, over the local App Store's transaction manager. The verbs that change a
/// subscription run with the app's session open (as if the app were running), so the app's
/// ledger records the renewal, expiry or revocation before the command returns.
enum StoreSubscriptionVerbs {
    /// `--reason 0|1` of `store refund`.
    static let reason = Option<Int>(
        "reason", valueName: "0|1", help: "store refund, approve-refund: 0 other (the default), 1 an issue in the app.",
        parse: refundReason)
    /// `--undo` of `store cancel`.
    static let undo = Flag("undo", help: "store cancel: turn auto-renew back on.")

    /// The verbs' forms, as the usage line shows them.
    static let forms: [UsageForm] = [
        UsageForm("renew ID"), UsageForm("expire ID"), UsageForm("cancel ID", optional: [undo]),
        UsageForm("refund ID", optional: [reason]), UsageForm("billing-issue ID on|off"), UsageForm("subscriptions"),
    ]

    /// The verbs this type handles.
    static let verbs = Set(forms.compactMap(\.verb))

    /// The verbs' lines in `storefront help store`.
    static let discussion = """
        subscriptions      every auto-renewable subscription: period end, auto-renew, next
                           product, billing retry or grace, expiry and its intent
        renew ID           renew a subscription now: a new period and a new transaction with
                           the same original transaction ID; while billing fails (billing-issue
                           on, or the billing-retry setting) the renewal fails instead: the
                           period ends now and billing retry begins (in grace, when the
                           grace-period setting is on); refused while auto-renew is off
                           (cancel ID --undo turns it back on)
        expire ID          end a subscription now (its current transaction expires at once)
        cancel ID          turn auto-renew off (access continues to the end of the period);
                           --undo turns it back on
        refund ID          refund a transaction: it is revoked now with --reason 0 (other, the
                           default) or 1 (an issue in the app); a subscription's period ends
        billing-issue ID on|off
                           'on': renewals fail and enter billing retry (and grace, when the
                           grace-period setting is on); 'off': resolved, a subscription in
                           billing retry renews at once
        ID is a transaction ID of the subscription or its product ID (refund takes a
        transaction ID). With --json, renew, expire, cancel, refund and billing-issue print
        {"transaction": …, "subscription": …} (the subscription's latest transaction and its
        state as 'store subscriptions --json' shows it; null for a refund that is no
        subscription). These verbs run with the app's session open, so the app records the
        renewal, expiry or refund before they return (they say so when it takes over 10
        seconds); 'storefront entitlements' shows the result.
        """

    /// Runs one subscription verb and writes its result. `subscriptions` opens only the
    /// store; the verbs that change a subscription open the whole session, so the app is
    /// running when the store changes and records the renewal, expiry or refund as it happens.
    /// - Throws: `CLIError.usage` for a wrong argument count or value, `.runtime` for the
    ///   store's refusals (an unknown ID, a subscription already expired).
    static func run(
        _ verb: String, _ arguments: [String], invocation: Invocation, context: CommandContext
    ) async throws(CLIError) {
        let json = invocation.global.json
        let output = context.output
        if verb == "subscriptions" {
            guard arguments.isEmpty else { throw .usage("store subscriptions takes no arguments.") }
            let (_, _, backend) = try StoreSession.openBackend(invocation, context: context)
            await backend.synchronize()
            let all: [SubscriptionLifecycle]
            do {
                all = try await backend.subscriptions()
            } catch {
                throw .runtime(error.description)
            }
            if json {
                output.write(JSONText.array(all.map(SubscriptionOutput.json)).rendered())
            } else if all.isEmpty {
                output.write("No subscriptions.\n")
            } else {
                output.write(
                    SubscriptionOutput.table(all, now: backend.configuration.clock.now).joined(separator: "\n") + "\n")
            }
            return
        }
        let expected = verb == "billing-issue" ? 2 : 1
        guard arguments.count == expected else {
            let shape =
                verb == "billing-issue" ? "an ID and on or off" : verb == "refund" ? "one transaction ID" : "one ID"
            throw .usage(
                "store \(verb) needs \(shape) (got \(StoreCommand.count(arguments.count, "argument"))); see 'storefront help store'."
            )
        }
        let id = arguments[0]
        let reason = verb == "refund" ? try invocation.value(Self.reason) ?? 0 : 0
        let billingIssue = verb == "billing-issue" ? try flag(arguments[1]) : false
        let session = try await StoreSession.open(invocation, context: context)
        // Subscribed before the change, so the app's recording of it cannot be missed.
        let updates = session.store.transactionUpdates()
        let changed: StoreCore.Transaction?
        do {
            changed =
                switch verb {
                case "refund": try await session.backend.refund(transactionID: id, reason: reason)
                case "renew": try await session.backend.renew(id)
                case "expire": try await session.backend.expire(id)
                case "cancel": try await session.backend.setAutoRenew(id, on: invocation.isSet(Self.undo))
                default: try await session.backend.setBillingIssue(id, on: billingIssue)
                }
        } catch {
            await session.close()
            throw .runtime(verb == "refund" ? error.description : subscriptionMessage(error, id: id))
        }
        guard let changed else {
            await session.close()
            throw .runtime(
                "The subscription \(id) has no transaction in the local store's journal; `storefront store subscriptions` lists the subscriptions."
            )
        }
        let recorded = await waitUntilRecorded(changed, by: session.store, updates: updates)
        let subscription =
            changed.productType == .autoRenewable
            ? (try? await session.backend.subscriptions())?.last {
                $0.originalTransactionID == changed.originalTransactionID
            }
            : nil
        await session.close()
        if !recorded {
            output.writeError(
                "storefront: the app did not record transaction \(changed.transactionID) within \(Int(recordingTimeout)) seconds; 'storefront history' shows what it has.\n"
            )
        }
        if json {
            output.write(
                JSONText.object([
                    ("transaction", TransactionOutput.json(changed)),
                    ("subscription", subscription.map(SubscriptionOutput.json) ?? .null),
                ]).rendered())
        } else {
            output.write(message(verb, changed, subscription, reason: reason, undo: invocation.isSet(Self.undo)) + "\n")
        }
    }

    /// How long a change verb waits for the app to record the change before it says so.
    static let recordingTimeout: TimeInterval = 10

    /// Waits until the app's ledger holds `transaction` as the store has it now (same
    /// revocation and expiry): at once when it already does, else until the engine sends it
    /// on `updates`. A safety bound keeps a lost update from hanging the command.
    /// - Returns: false when the bound passed first.
    private static func waitUntilRecorded(
        _ transaction: StoreCore.Transaction, by store: Store, updates: AsyncStream<StoreCore.Transaction>
    ) async -> Bool {
        let id = transaction.transactionID
        let history = (try? await store.history()) ?? []
        if let have = history.first(where: { $0.transactionID == id }),
            have.revocationDate == transaction.revocationDate, have.expiresDate == transaction.expiresDate
        {
            return true
        }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await update in updates where update.transactionID == id { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(recordingTimeout))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// The human line for a change verb.
    private static func message(
        _ verb: String, _ latest: StoreCore.Transaction, _ subscription: SubscriptionLifecycle?, reason: Int, undo: Bool
    ) -> String {
        let what = "\(latest.originalTransactionID) (\(latest.productID))"
        let end = latest.expiresDate.map(TransactionOutput.date) ?? "?"
        switch verb {
        case "refund":
            return "Refunded transaction \(latest.transactionID) (\(latest.productID)) with reason \(reason): "
                + "revoked at \(latest.revocationDate.map(TransactionOutput.date) ?? "?")."
        case "renew":
            guard let retry = subscription?.billingRetryStart else {
                return "Renewed subscription \(what): new transaction \(latest.transactionID), expires \(end)."
            }
            let grace =
                subscription?.graceEnd.map { ", in a grace period until \(TransactionOutput.date($0))" }
                ?? " (no grace period)"
            return "The renewal of subscription \(what) failed (billing issue): billing retry since "
                + "\(TransactionOutput.date(retry))\(grace). 'storefront store billing-issue \(latest.originalTransactionID) off' resolves it."
        case "expire":
            return "Expired subscription \(what) at \(end)."
        case "cancel" where undo:
            return "Auto-renew is on again for subscription \(what): it renews at \(end)."
        case "cancel" where subscription?.billingRetryStart != nil:
            return "Cancelled subscription \(what): auto-renew is off; it is in billing retry, so it ends when "
                + "billing retry does, or at once when the billing issue is resolved."
        case "cancel":
            return "Cancelled subscription \(what): auto-renew is off, access continues until \(end)."
        default:
            if let ended = subscription?.expiration {
                return "No billing issue for subscription \(what); it had been cancelled, so it ended at "
                    + "\(TransactionOutput.date(ended.date)) instead of renewing."
            }
            return subscription?.hasBillingIssue == true
                ? "Billing issue on for subscription \(what): its next renewal fails and enters billing retry."
                : "No billing issue for subscription \(what): current transaction \(latest.transactionID), expires \(end)."
        }
    }

    /// `--reason`: 0 (other) or 1 (an issue in the app).
    static func refundReason(_ text: String) throws(CLIError) -> Int {
        guard let reason = Int(text), reason == 0 || reason == 1 else {
            throw .usage("invalid --reason '\(text)': use 0 (other) or 1 (an issue in the app).")
        }
        return reason
    }

    /// `on` or `off` for `billing-issue`, read by the settings' one on/off parser.
    static func flag(_ text: String) throws(CLIError) -> Bool {
        guard let on = SettingValues.onOff.parse(text) else {
            throw .usage("invalid billing-issue value '\(text)': use on or off.")
        }
        return on
    }

    /// The store's error, worded for subscriptions (the store's own text points at pending purchases).
    static func subscriptionMessage(_ error: LocalAppStoreError, id: String) -> String {
        switch error {
        case .unknownTransaction:
            "No subscription \(id) in this account: give a transaction ID or the product ID of an auto-renewable subscription. `storefront store subscriptions` lists them."
        case .notPending(_, let state, let expected):
            "The subscription \(id) is \(state), not \(expected)."
        default:
            error.description
        }
    }
}
