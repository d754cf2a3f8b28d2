import StoreKitValues

/// The product list as shown: the products the filter matches, grouped under headings and
/// sorted within each group.
public struct ProductListing: Hashable, Sendable {
    /// How products are grouped.
    public enum Grouping: Int, Hashable, Sendable, CaseIterable {
        /// As `.type`, but each subscription group under its own heading.
        case subscriptionGroup
        /// Consumables, non-consumables, subscriptions, non-renewing: by type only.
        case type
        /// One list, no headings.
        case none
    }

    /// How products are ordered within their group.
    public enum Sort: Int, Hashable, Sendable, CaseIterable {
        /// As the catalog lists them (subscriptions by level within their group).
        case catalog
        /// By name, A to Z.
        case name
        /// By price, lowest first.
        case price
        /// By type, then as the catalog lists them.
        case type
    }

    /// One row of the list.
    public enum Row: Hashable, Sendable {
        /// A group heading.
        case header(String)
        /// A product, by index into `State.products`.
        case product(Int)
    }

    /// A heading (nil: none) and its products, in order.
    public struct Section: Hashable, Sendable {
        public let header: String?
        public let members: [Int]
    }

    /// The rows in order.
    public let rows: [Row]
    /// How many product rows there are.
    public let productCount: Int

    /// The list of every product of `order` that `matches` holds (all when nil).
    public init(order: [Section], matches: [Int]?, productCount total: Int) {
        var rows: [Row] = []
        var count = 0
        if let matches {
            var isMatch = [Bool](repeating: false, count: total)
            for i in matches where i < total { isMatch[i] = true }
            for section in order {
                let members = section.members.filter { $0 < total && isMatch[$0] }
                guard !members.isEmpty else { continue }
                if let header = section.header { rows.append(.header(header)) }
                rows += members.map { .product($0) }
                count += members.count
            }
        } else {
            rows.reserveCapacity(total + order.count)
            for section in order where !section.members.isEmpty {
                if let header = section.header { rows.append(.header(header)) }
                rows += section.members.map { .product($0) }
                count += section.members.count
            }
        }
        self.rows = rows
        productCount = count
    }

    /// An empty list.
    public static let empty = ProductListing(order: [], matches: nil, productCount: 0)

    /// Groups and sorts every product: the sections the list is cut from as the filter changes.
    /// - Parameters:
    ///   - products: the catalog's products in catalog order.
    ///   - search: their search texts (for sorting by name).
    ///   - grouping: how to group.
    ///   - sort: how to order within a group.
    ///   - strings: the interface's words, for the headings.
    public static func sections(
        of products: [Product], search: ProductSearch, grouping: Grouping, sort: Sort, strings: Strings
    ) -> [Section] {
        let types: [ProductType] = [.consumable, .nonConsumable, .autoRenewable, .nonRenewing]
        let typeRank = { (type: ProductType) in types.firstIndex(of: type) ?? types.count }
        func ordered(_ members: [Int]) -> [Int] {
            switch sort {
            case .catalog:
                return members
            case .name where search.sortNames.count == products.count:
                return members.sorted {
                    search.sortNames[$0].lexicographicallyPrecedes(search.sortNames[$1])
                        || (search.sortNames[$0] == search.sortNames[$1] && $0 < $1)
                }
            case .name:
                return members
            case .price:
                return members.sorted { (products[$0].price, $0) < (products[$1].price, $1) }
            case .type:
                return members.sorted { (typeRank(products[$0].type), $0) < (typeRank(products[$1].type), $1) }
            }
        }
        // Subscriptions of a group by level, as the App Store shows them.
        func byLevel(_ members: [Int]) -> [Int] {
            members.sorted {
                (products[$0].subscription?.groupLevel ?? 0, $0) < (products[$1].subscription?.groupLevel ?? 0, $1)
            }
        }
        if grouping == .none { return [Section(header: nil, members: ordered(Array(products.indices)))] }
        var byType: [ProductType: [Int]] = [:]
        var others: [Int] = []
        for i in products.indices {
            if types.contains(products[i].type) {
                byType[products[i].type, default: []].append(i)
            } else {
                others.append(i)
            }
        }
        var sections: [Section] = []
        for type in types {
            guard let ofType = byType[type] else { continue }
            if type == .autoRenewable, grouping == .subscriptionGroup {
                var groupOrder: [String] = []
                var byGroup: [String: [Int]] = [:]
                for i in ofType {
                    let group = products[i].subscription?.groupDisplayName ?? strings.groupName(type)
                    if byGroup[group] == nil { groupOrder.append(group) }
                    byGroup[group, default: []].append(i)
                }
                for group in groupOrder {
                    let members = byGroup[group] ?? []
                    sections.append(
                        Section(header: group, members: sort == .catalog ? byLevel(members) : ordered(members)))
                }
            } else {
                sections.append(Section(header: strings.groupName(type), members: ordered(ofType)))
            }
        }
        // Products of kinds this version does not know still show, last.
        if !others.isEmpty { sections.append(Section(header: "…", members: ordered(others))) }
        return sections
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
