import StoreKitValues

/// The interface's words in English, Simplified Chinese, Japanese, German, French, Spanish and
/// Arabic: pure tables keyed by the English text, one file per language.
public struct Strings: Equatable, Sendable {
    /// The language these strings are in.
    public let language: UILanguage
    private let table: [String: String]

    /// The strings for `language`.
    public init(_ language: UILanguage) {
        self.language = language
        table = Self.table(for: language)
    }

    /// The translations of one language, by their English text (English's own table holds
    /// only the phrases whose English differs from their key).
    public static func table(for language: UILanguage) -> [String: String] {
        switch language {
        case .english: english
        case .simplifiedChinese: chinese
        case .japanese: japanese
        case .german: german
        case .french: french
        case .spanish: spanish
        case .arabic: arabic
        }
    }

    /// One phrase, by its English text; a phrase with no translation stays in English.
    public func callAsFunction(_ english: String) -> String {
        table[english] ?? english
    }

    /// A phrase with `{}` placeholders filled in order.
    public func callAsFunction(_ english: String, _ arguments: String...) -> String {
        Self.fill(self(english), arguments)
    }

    /// `template`'s `{}` placeholders filled with `arguments` in order.
    static func fill(_ template: String, _ arguments: [String]) -> String {
        var result = ""
        var remaining = arguments[...]
        var previous: Character?
        for character in template {
            if previous == "{", character == "}", let argument = remaining.popFirst() {
                result.removeLast()
                result += argument
                previous = nil
                continue
            }
            result.append(character)
            previous = character
        }
        return result
    }

    /// The localized name of a product type.
    public func typeName(_ type: ProductType) -> String {
        Self.typeNames[type].map { self($0.one) } ?? type.rawValue
    }

    /// The localized heading of a group of products of one type.
    public func groupName(_ type: ProductType) -> String {
        Self.typeNames[type].map { self($0.group) } ?? type.rawValue
    }

    /// The English names of each product type: one product's, and a group's heading.
    private static let typeNames: [ProductType: (one: String, group: String)] = [
        .consumable: ("Consumable", "Consumables"),
        .nonConsumable: ("Non-Consumable", "Non-Consumables"),
        .autoRenewable: ("Subscription", "Subscriptions"),
        .nonRenewing: ("Non-Renewing", "Non-Renewing Subscriptions"),
    ]
}
