import Foundation
import StoreCore

/// What the filter matches: for each product, one folded text of its name, identifier, type
/// words (English and the interface's language) and subscription group, built once per
/// product load; a query matches when each of its words is in that text.
///
/// Folding ignores case, diacritics and width (`cafe` finds `Café`, `ｃｏｉｎ` finds `coin`), and
/// the texts are kept as UTF-8 bytes, so a keystroke over 10,000 products is a byte search
/// over the products the previous query matched.
public struct ProductSearch: Sendable {
    /// Each product's folded search text, as UTF-8.
    let keys: [[UInt8]]
    /// Each product's folded name, for sorting by name.
    let sortNames: [[UInt8]]

    /// Builds the search texts of `products`.
    public init(products: [Product], strings: Strings) {
        var keys: [[UInt8]] = []
        var names: [[UInt8]] = []
        keys.reserveCapacity(products.count)
        names.reserveCapacity(products.count)
        var typeWords: [ProductType: String] = [:]
        for product in products {
            let words = typeWords[product.type] ?? {
                let text = Self.fold(Self.englishWords(product.type) + " " + strings.typeName(product.type) + " "
                    + strings.groupName(product.type))
                typeWords[product.type] = text
                return text
            }()
            let name = Self.fold(product.displayName)
            names.append(Array(name.utf8))
            var key = name + "\n" + Self.fold(product.id) + "\n" + words
            if let group = product.subscription?.groupDisplayName { key += "\n" + Self.fold(group) }
            keys.append(Array(key.utf8))
        }
        self.keys = keys
        sortNames = names
    }

    /// An empty search (no products).
    public static let empty = ProductSearch(keys: [], sortNames: [])

    private init(keys: [[UInt8]], sortNames: [[UInt8]]) {
        self.keys = keys
        self.sortNames = sortNames
    }

    /// `text` without case, diacritics or width differences, as queries and keys are compared.
    public static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// A query's words, folded; empty for a blank query.
    public static func words(of query: String) -> [[UInt8]] {
        fold(query).split(whereSeparator: { $0 == " " || $0 == "\t" }).map { Array($0.utf8) }
    }

    /// The type's words in English, whatever the interface's language.
    private static func englishWords(_ type: ProductType) -> String {
        switch type {
        case .consumable: "consumable"
        case .nonConsumable: "non-consumable nonconsumable"
        case .autoRenewable: "subscription auto-renewable"
        case .nonRenewing: "non-renewing subscription"
        default: type.rawValue
        }
    }

    /// The products among `candidates` (all when nil) whose text holds every word, in order.
    public func matches(_ words: [[UInt8]], among candidates: [Int]?) -> [Int] {
        guard !words.isEmpty else { return candidates ?? Array(keys.indices) }
        var result: [Int] = []
        func check(_ i: Int) {
            for word in words where !Self.contains(keys[i], word) { return }
            result.append(i)
        }
        if let candidates {
            for i in candidates where i < keys.count { check(i) }
        } else {
            for i in keys.indices { check(i) }
        }
        return result
    }

    /// Whether `haystack` holds the bytes of `needle`.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        let n = needle.count, h = haystack.count
        guard n > 0 else { return true }
        guard n <= h else { return false }
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                let first = pin[0]
                var i = 0
                let last = h - n
                while i <= last {
                    if hay[i] == first {
                        var j = 1
                        while j < n, hay[i + j] == pin[j] { j += 1 }
                        if j == n { return true }
                    }
                    i += 1
                }
                return false
            }
        }
    }
}
