import LocalAppStore

/// How the store's App Store Server Notifications appear in `store notifications` (table and
/// `--json`) and in the storefront's Server Notifications window.
enum NotificationOutput {
    /// `TYPE` or `TYPE/SUBTYPE`.
    static func kind(_ n: StoredNotification) -> String {
        n.subtype.map { "\(n.notificationType)/\($0)" } ?? n.notificationType.rawValue
    }

    /// The NEXT column: the next retry, or how it ended.
    static func next(_ n: StoredNotification) -> String {
        if let date = n.nextAttemptDate { return date.formatted(.iso8601) }
        return n.isDelivered ? "delivered" : n.sendAttempts.isEmpty ? "-" : "gave up"
    }

    /// The notifications as a table.
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
