import Foundation
import StoreKitValues

/// What the filter matches: for each product, one folded text of its name, identifier, type
/// words (English and the interface's language) and subscription group, built once per
/// product load; a query matches when each of its words is in that text.
///
/// Folding ignores case, diacritics and width (`cafe` finds `Café`, `ｃｏｉｎ` finds `coin`), and
/// the texts are kept as UTF-8 bytes one after another. A keystroke costs what its matches
/// cost, not what the catalog does: the first key takes the products holding its first byte
/// from an index built with the texts, and each longer query checks, in each product the last
/// query matched, only the bytes after where that query's last word was found.
public struct ProductSearch: Equatable, Sendable {
    /// Every product's folded search text, one after another, as UTF-8.
    let text: [UInt8]
    /// Where each product's text starts in `text`, and one more entry: the end of the last.
    let starts: [Int]
    /// Each product's folded name, for sorting by name.
    let sortNames: [[UInt8]]
    /// For each byte value, the products whose text holds it (in catalog order) and where it
    /// first occurs in that text.
    let byteIndex: [[Hit]]

    /// A product and an offset into its text.
    struct Hit: Hashable, Sendable {
        var product: Int32
        var offset: Int32
    }

    /// Builds the search texts of `products`.
    public init(products: [Product], strings: Strings) {
        var text: [UInt8] = []
        var starts: [Int] = [0]
        var names: [[UInt8]] = []
        starts.reserveCapacity(products.count + 1)
        names.reserveCapacity(products.count)
        var typeWords: [ProductType: String] = [:]
        for product in products {
            let words =
                typeWords[product.type]
                ?? {
                    let text = Self.fold(
                        Self.englishWords(product.type) + " " + strings.typeName(product.type) + " "
                            + strings.groupName(product.type))
                    typeWords[product.type] = text
                    return text
                }()
            let name = Self.fold(product.displayName)
            names.append(Array(name.utf8))
            text += name.utf8
            text.append(0x0A)
            text += Self.fold(product.id).utf8
            text.append(0x0A)
            text += words.utf8
            if let group = product.subscription?.groupDisplayName {
                text.append(0x0A)
                text += Self.fold(group).utf8
            }
            starts.append(text.count)
        }
        self.text = text
        self.starts = starts
        sortNames = names
        byteIndex = Self.index(text, starts: starts)
    }

    /// An empty search (no products).
    public static let empty = ProductSearch(products: [], strings: Strings(.english))

    /// How many products the search holds.
    var count: Int { starts.count - 1 }

    /// For each byte value, the products holding it and its first offset in each.
    private static func index(_ text: [UInt8], starts: [Int]) -> [[Hit]] {
        var index = [[Hit]](repeating: [], count: 256)
        var lastSeen = [Int32](repeating: -1, count: 256)
        text.withUnsafeBufferPointer { bytes in
            for product in 0..<(starts.count - 1) {
                let start = starts[product]
                let id = Int32(product)
                for position in start..<starts[product + 1] {
                    let byte = Int(bytes[position])
                    if lastSeen[byte] != id {
                        lastSeen[byte] = id
                        index[byte].append(Hit(product: id, offset: Int32(position - start)))
                    }
                }
            }
        }
        return index
    }

    /// `text` without case, diacritics or width differences, as queries and keys are compared.
    /// ASCII only lowers its letters, so it skips Foundation (the same result, without the cost).
    public static func fold(_ text: String) -> String {
        let utf8 = text.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else {
            return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        }
        guard utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return text }
        return String(decoding: utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// A folded query's words; empty for a blank query.
    public static func words(ofFolded query: String) -> [[UInt8]] {
        query.utf8.split(whereSeparator: { $0 == 0x20 || $0 == 0x09 }).map(Array.init)
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

    /// The step of a folded, non-blank `query`: its matches, narrowed from `previous` (the step
    /// of a query `query` extends; nil: every product).
    ///
    /// Only what the previous step did not check is checked: the words it did not have, and of
    /// its last word, grown, only the new bytes where that word was found (searching on from
    /// there when they differ). With no previous step, the last word's first byte comes from
    /// the index. Either way the cost follows the candidates, not the catalog.
    public func step(query: String, from previous: FilterStep?) -> FilterStep {
        let words = Self.words(ofFolded: query)
        guard let last = words.last else { return FilterStep(query: query, matches: Array(0..<count)) }
        let others = Array(words.dropLast())
        // The candidates, with where a known prefix of the last word starts in each.
        let known: Int
        var unchecked: [[UInt8]]
        let candidates: [Hit]
        if let previous, let previousLast = previous.words.last, previous.hits.count == previous.matches.count,
            words.count == previous.words.count, others == Array(previous.words.dropLast()),
            last.starts(with: previousLast)
        {
            known = previousLast.count
            unchecked = []
            candidates = zip(previous.matches, previous.hits).map { Hit(product: Int32($0), offset: $1) }
        } else if let previous {
            // A new word (or a query the last step did not end with): the previous matches
            // that the index says hold its first byte, then what is new is checked.
            known = 1
            unchecked = others.enumerated().filter {
                $0.offset >= previous.words.count || previous.words[$0.offset] != $0.element
            }.map(\.element)
            candidates = Self.intersect(byteIndex[Int(last[0])], previous.matches)
        } else {
            known = 1
            unchecked = others
            candidates = byteIndex[Int(last[0])]
        }
        unchecked.removeAll { $0.isEmpty }
        var matches: [Int] = []
        var hits: [Int32] = []
        text.withUnsafeBufferPointer { bytes in
            for candidate in candidates {
                let product = Int(candidate.product)
                guard product < count else { continue }
                let start = starts[product]
                let end = starts[product + 1]
                var at = start + Int(candidate.offset)
                if !Self.holds(last, in: bytes, at: at, skipping: known, end: end) {
                    guard let found = Self.find(last, in: bytes, from: known > 0 ? at + 1 : at, to: end) else {
                        continue
                    }
                    at = found
                }
                guard unchecked.allSatisfy({ Self.find($0, in: bytes, from: start, to: end) != nil }) else { continue }
                matches.append(product)
                hits.append(Int32(at - start))
            }
        }
        return FilterStep(query: query, matches: matches, words: words, hits: hits)
    }

    /// The hits of `index` whose product is in `products` (both in ascending product order).
    private static func intersect(_ index: [Hit], _ products: [Int]) -> [Hit] {
        var result: [Hit] = []
        result.reserveCapacity(min(index.count, products.count))
        var i = 0
        var j = 0
        while i < index.count, j < products.count {
            let product = Int(index[i].product)
            if product == products[j] {
                result.append(index[i])
                i += 1
                j += 1
            } else if product < products[j] {
                i += 1
            } else {
                j += 1
            }
        }
        return result
    }

    /// Whether `needle` is at `at` (before `end`), its first `known` bytes being known to be.
    private static func holds(
        _ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, at: Int, skipping known: Int, end: Int
    ) -> Bool {
        guard known > 0, at + needle.count <= end else { return false }
        var j = known
        while j < needle.count, bytes[at + j] == needle[j] { j += 1 }
        return j == needle.count
    }

    /// Where `needle` first occurs in `bytes[from..<to]`, if it does.
    static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        let n = needle.count
        guard n > 0 else { return from }
        guard from + n <= to else { return nil }
        return needle.withUnsafeBufferPointer { pin in
            let first = pin[0]
            var i = from
            let last = to - n
            while i <= last {
                if bytes[i] == first {
                    var j = 1
                    while j < n, bytes[i + j] == pin[j] { j += 1 }
                    if j == n { return i }
                }
                i += 1
            }
            return nil
        }
    }
}
