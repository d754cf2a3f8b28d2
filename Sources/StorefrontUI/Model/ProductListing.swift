import StoreCore

/// The product list as shown: products matching the filter, grouped under headings.
public struct ProductListing: Hashable, Sendable {
    /// How products are grouped.
    public enum Grouping: Hashable, Sendable {
        /// Consumables, non-consumables, subscriptions, non-renewing: by type only.
        case type
        /// As `.type`, but each subscription group under its own heading.
        case subscriptionGroup
    }

    /// One row of the list.
    public enum Row: Hashable, Sendable {
        /// A group heading.
        case header(String)
        /// A product, by index into `State.products`.
        case product(Int)
    }

    /// The rows in order.
    public let rows: [Row]

    /// Groups and filters `products`.
    /// - Parameters:
    ///   - products: the catalog's products in catalog order.
    ///   - filter: text the name or identifier must contain, case-insensitively; empty matches all.
    ///   - grouping: how to group.
    ///   - strings: the interface's words, for the headings.
    public init(products: [Product], filter: String, grouping: Grouping, strings: Strings) {
        let needle = filter.lowercased()
        let matching = products.indices.filter { i in
            needle.isEmpty || products[i].displayName.lowercased().contains(needle)
                || products[i].id.lowercased().contains(needle)
        }
        var rows: [Row] = []
        for type in [ProductType.consumable, .nonConsumable, .autoRenewable, .nonRenewing] {
            let ofType = matching.filter { products[$0].type == type }
            guard !ofType.isEmpty else { continue }
            if type == .autoRenewable, grouping == .subscriptionGroup {
                var groupOrder: [String] = []
                var byGroup: [String: [Int]] = [:]
                for i in ofType {
                    let group = products[i].subscription?.groupDisplayName ?? strings.groupName(type)
                    if byGroup[group] == nil { groupOrder.append(group) }
                    byGroup[group, default: []].append(i)
                }
                for group in groupOrder {
                    rows.append(.header(group))
                    let members = (byGroup[group] ?? []).sorted {
                        (products[$0].subscription?.groupLevel ?? 0, $0) < (products[$1].subscription?.groupLevel ?? 0, $1)
                    }
                    rows += members.map { .product($0) }
                }
            } else {
                rows.append(.header(strings.groupName(type)))
                rows += ofType.map { .product($0) }
            }
        }
        // Products of kinds this version does not know still show, last.
        let known: Set<ProductType> = [.consumable, .nonConsumable, .autoRenewable, .nonRenewing]
        let others = matching.filter { !known.contains(products[$0].type) }
        if !others.isEmpty {
            rows.append(.header("…"))
            rows += others.map { .product($0) }
        }
        self.rows = rows
    }

    /// The index into `rows` of the first product row at or after `row` (or before it, going up).
    public func productRow(from row: Int, step: Int) -> Int? {
        var i = row
        while i >= 0, i < rows.count {
            if case .product = rows[i] { return i }
            i += step
        }
        return nil
    }

    /// The product index at a row, if the row is a product.
    public func productIndex(at row: Int) -> Int? {
        guard row >= 0, row < rows.count, case .product(let index) = rows[row] else { return nil }
        return index
    }
}
