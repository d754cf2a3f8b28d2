import LocalAppStore

/// `storefront store notifications [--limit N] [--before POSITION]`: a page of the App Store
/// Server Notifications the store made, oldest first.
struct NotificationsVerb: Verb {
    let name = "notifications"
    var options: [any CommandOption] { [Self.limit, Self.before] }
    let abstract = """
        the newest App Store Server Notifications (V2) the store made (\(defaultLimit) unless --limit), oldest \
        first: type, subtype, product, attempts, the last result and the next retry; a page of older ones ends \
        with the --before cursor that lists them ('set notification-url URL' turns them on; 'storefront serve' \
        sends)
        """

    /// How many notifications a page lists unless `--limit` says otherwise.
    static let defaultLimit = 50
    /// `--limit N`: how many of the newest to list.
    static let limit = whole(
        "limit", valueName: "N", least: 1, meaning: "a whole number of at least 1",
        help: "store notifications: how many of the newest to list (default \(defaultLimit)).")
    /// `--before POSITION`: the cursor of the page of older ones.
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

    func run(_ call: VerbCall) async throws(CLIError) {
        let limit = try call.value(Self.limit) ?? Self.defaultLimit
        let before = try call.value(Self.before)
        let (page, older) = try await call.store { try await $0.notifications.page(newest: limit, before: before) }
        let empty =
            before.map { "No notifications before position \($0)." }
            ?? "No notifications yet ('storefront store set notification-url URL' turns them on)."
        call.write(
            json: .array(page.map { NotificationOutput.json($0.notification, position: $0.position) }),
            lines: page.isEmpty
                ? [empty]
                : NotificationOutput.table(page.map(\.notification))
                    + (older.map { ["Older: storefront store notifications --before \($0)"] } ?? []))
    }
}
