import Catalog
import Foundation
import LocalAppStore
import StoreCore

/// The notification verbs of `storefront store`: the outbox of App Store Server Notifications
/// (`notifications`, `notifications resend UUID`) and the store events only Apple's side
/// causes: price increases and the customer's consent, and reversed refunds. Refund requests
/// are `StoreKit2Verbs`' (`refund-requests`, `approve-refund`, `decline-refund`).
enum StoreNotificationVerbs {
    /// `--price P` of `store price-increase`: the new price, read as the catalog reads prices.
    static let price = Option<Decimal>(
        "price", valueName: "P",
        help: "store price-increase: the new price of a period in the subscriber's currency, e.g. 12.99."
    ) { (text: String) throws(CLIError) -> Decimal in
        do throws(Price.TextError) {
            return try Price.amount(parsing: text)
        } catch {
            throw .usage("invalid --price '\(text)': \(error.description).")
        }
    }

    /// `--limit N` of `store notifications`: how many of the newest to list.
    static let limit = whole(
        "limit", valueName: "N", least: 1, meaning: "a whole number of at least 1",
        help: "store notifications: how many of the newest to list (default \(defaultLimit)).")
    /// `--before POSITION` of `store notifications`: the cursor of the page of older ones.
    static let before = whole(
        "before", valueName: "POSITION", least: 0, meaning: "a position (0 or more)",
        help: "store notifications: list those made before this position (the cursor a page ends with).")

    /// A whole-number option of at least `least`.
    private static func whole(
        _ name: String, valueName: String, least: Int, meaning: String, help: String
    ) -> Option<Int> {
        Option<Int>(name, valueName: valueName, help: help) { (text: String) throws(CLIError) -> Int in
            guard let n = Int(text), n >= least else { throw .usage("invalid --\(name) '\(text)': \(meaning).") }
            return n
        }
    }
    /// How many notifications a page lists unless `--limit` says otherwise.
    static let defaultLimit = 50

    /// The verbs' forms, as the usage line shows them.
    static let forms: [UsageForm] = [
        UsageForm("notifications", optional: [limit, before]), UsageForm("notifications resend UUID"),
        UsageForm("price-increase ID [accept|decline]", optional: [price]), UsageForm("refund-reverse ID"),
    ]

    /// The verbs this type handles.
    static let verbs = Set(forms.compactMap(\.verb))

    /// The verbs' lines in `storefront help store`.
    static let discussion = """
        notifications [--limit N] [--before POSITION]
                           the newest App Store Server Notifications (V2) the store made
                           (50 unless --limit), oldest first: type, subtype, product,
                           attempts, the last result and the next retry; a page of older
                           ones ends with the --before cursor that lists them
                           ('set notification-url URL' turns them on; 'storefront serve' sends)
        notifications resend UUID
                           send a notification again (same UUID and payload)
        price-increase ID [accept|decline] [--price P]
                           announce a price increase needing consent (PRICE_INCREASE, PENDING)
                           to --price P (more than the current price; renewal info's
                           renewalPrice shows it), or the customer's answer: accept (ACCEPTED:
                           renewals charge P from then on) or decline (no consent: at its
                           renewal date, or 'renew ID', it expires with EXPIRED,
                           PRICE_INCREASE, as one left unanswered does)
        refund-reverse ID  reverse a refund: the purchase grants again, and a subscription
                           period the refund ended runs on to its end (REFUND_REVERSED)
        """

    static func run(
        _ verb: String, _ rest: [String], invocation: Invocation, context: CommandContext
    ) async throws(CLIError) {
        // The command line is checked whole before anything is opened.
        let newPrice = try invocation.value(Self.price)
        let limit = try invocation.value(Self.limit)
        let before = try invocation.value(Self.before)
        var consent: LocalAppStore.PriceConsent?
        if verb == "price-increase", rest.count == 2 {
            guard let answer = LocalAppStore.PriceConsent(rawValue: rest[1]) else {
                throw CLIError.usage("store price-increase ID takes accept or decline, not \"\(rest[1])\".")
            }
            guard newPrice == nil else {
                throw CLIError.usage(
                    "--price goes with announcing a price increase ('store price-increase ID --price P'), not with \(answer.rawValue)."
                )
            }
            consent = answer
        }
        let (_, _, backend) = try StoreSession.openBackend(invocation, context: context)
        let json = invocation.global.json
        let output = context.output
        do {
            switch (verb, rest.count) {
            case ("notifications", 0):
                let (page, older) = try await backend.notifications(newest: limit ?? Self.defaultLimit, before: before)
                if json {
                    output.write(
                        JSONText.array(page.map { Self.json($0.notification, position: $0.position) }).rendered())
                } else if page.isEmpty {
                    output.write(
                        before == nil
                            ? "No notifications yet ('storefront store set notification-url URL' turns them on).\n"
                            : "No notifications before position \(before ?? 0).\n")
                } else {
                    output.write(Self.table(page.map(\.notification)).joined(separator: "\n") + "\n")
                    if let older { output.write("Older: storefront store notifications --before \(older)\n") }
                }
            case ("notifications", 2) where rest[0] == "resend":
                let n = try await backend.resendNotification(rest[1])
                if json {
                    output.write(Self.json(n).rendered())
                } else {
                    output.write("Notification \(n.notificationUUID) (\(Self.kind(n))) will be sent again now.\n")
                }
            case ("price-increase", 1), ("price-increase", 2):
                let increase = try await backend.priceIncrease(rest[0], consent: consent, price: newPrice)
                let price = increase.price.map { Price(amount: $0, currencyCode: increase.currencyCode ?? "") }
                if json {
                    output.write(
                        JSONText.object([
                            ("originalTransactionID", .string(increase.originalTransactionID)),
                            ("productID", .string(increase.productID)), ("status", .string(increase.status.rawValue)),
                            ("price", .optional(price?.decimalString)), ("currency", .optional(increase.currencyCode)),
                        ]).rendered())
                } else {
                    let to = price.map { " to \($0.decimalString) \($0.currencyCode)" } ?? ""
                    output.write(
                        "Price increase of \(increase.productID)\(to) (subscription \(increase.originalTransactionID)): \(increase.status.rawValue).\n"
                    )
                }
            case ("refund-reverse", 1):
                let t = try await backend.reverseRefund(transactionID: rest[0])
                if json {
                    output.write(TransactionOutput.json(t).rendered())
                } else {
                    output.write("Refund of \(t.transactionID) (\(t.productID)) reversed: it grants again.\n")
                }
            default:
                throw CLIError.usage(
                    "usage: storefront store \(forms.filter { $0.verb == verb }.map(\.synopsis).joined(separator: " | "))."
                )
            }
        } catch {
            throw CLIError(error)
        }
    }

    /// `TYPE` or `TYPE/SUBTYPE`.
    static func kind(_ n: StoredNotification) -> String {
        n.subtype.map { "\(n.notificationType)/\($0)" } ?? n.notificationType.rawValue
    }

    /// What `store notifications` prints for one notification: the next retry, or how it ended.
    static func next(_ n: StoredNotification) -> String {
        if let date = n.nextAttemptDate { return date.formatted(.iso8601) }
        return n.isDelivered ? "delivered" : n.sendAttempts.isEmpty ? "-" : "gave up"
    }

    static func table(_ all: [StoredNotification]) -> [String] {
        TextTable(
            columns: [
                .init(header: "UUID"), .init(header: "CREATED"), .init(header: "TYPE"), .init(header: "PRODUCT"),
                .init(header: "ATTEMPTS"), .init(header: "LAST RESULT"), .init(header: "NEXT"),
            ],
            rows: all.map { n in
                [
                    n.notificationUUID, n.createdDate.formatted(.iso8601), kind(n), n.productID ?? "-",
                    String(n.sendAttempts.count),
                    n.sendAttempts.last?.sendAttemptResult.rawValue ?? "-", next(n),
                ]
            }
        ).render()
    }

    /// A notification as `--json` prints it, with its position when it is listed in a page.
    static func json(_ n: StoredNotification, position: Int? = nil) -> JSONText {
        .object(
            (position.map { [("position", JSONText.number(String($0)))] } ?? []) + [
                ("notificationUUID", .string(n.notificationUUID)),
                ("notificationType", .string(n.notificationType.rawValue)),
                ("subtype", .optional(n.subtype?.rawValue)),
                ("createdDate", .string(n.createdDate.formatted(.iso8601))),
                ("transactionID", .optional(n.transaction?.transactionID)), ("productID", .optional(n.productID)),
                ("status", n.status.map { .number(String($0)) } ?? .null),
                (
                    "sendAttempts",
                    .array(
                        n.sendAttempts.map { a in
                            .object([
                                ("attemptDate", .string(a.attemptDate.formatted(.iso8601))),
                                ("sendAttemptResult", .string(a.sendAttemptResult.rawValue)),
                            ])
                        })
                ),
                ("delivered", .bool(n.isDelivered)),
                ("nextAttemptDate", .optional(n.nextAttemptDate?.formatted(.iso8601))),
            ])
    }
}
