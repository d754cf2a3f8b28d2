import LocalAppStore

/// How the family verbs print a family and the accounts, as lines and as JSON.
enum FamilyOutput {
    static func json(family: Family?, accounts: [StoreAccount], signedIn: String) -> JSONText {
        .object([
            ("signedIn", .string(signedIn)),
            ("organizer", .optional(family?.organizer.id)),
            ("members", .array((family?.members ?? []).map { .string($0.id) })),
            ("accounts", .array(accounts.map(json))),
        ])
    }

    static func json(_ account: StoreAccount) -> JSONText {
        .object([
            ("id", .string(account.id)), ("name", .string(account.displayName)),
            ("storefront", .optional(account.storefront)),
        ])
    }

    static func lines(family: Family?, accounts: [StoreAccount], signedIn: String) -> [String] {
        func role(_ id: String) -> String {
            guard let family else { return "" }
            if family.organizer.id == id { return "organizer" }
            return family.members.contains { $0.id == id } ? "member" : ""
        }
        let rows = accounts.map { account in
            [
                account.id == signedIn ? "*" : "", account.id, account.displayName, account.storefront ?? "-",
                role(account.id),
            ]
        }
        var lines = TextTable(
            columns: ["", "ACCOUNT", "NAME", "STOREFRONT", "FAMILY"].map { TextTable.Column(header: $0) }, rows: rows
        ).render()
        lines.append(
            family == nil
                ? "No family: 'storefront store family add ID --name NAME' makes one, organized by the signed-in account."
                : "Family of \(family?.everyone.count ?? 0); * is the signed-in account.")
        return lines
    }
}
