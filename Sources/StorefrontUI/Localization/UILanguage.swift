/// The language of the storefront's own words (menus, labels, messages).
public enum UILanguage: String, Hashable, Sendable, CaseIterable {
    case english = "en"
    case simplifiedChinese = "zh-Hans"
    case japanese = "ja"
    case german = "de"
    case french = "fr"
    case spanish = "es"
    case arabic = "ar"

    /// The language for a catalog locale such as `ja_JP`, `de-DE` or `zh_CN`; English when
    /// there is no translation of the interface for it.
    public init(locale: String) {
        let language = locale.lowercased().prefix { $0 != "_" && $0 != "-" }
        switch language {
        case "ja": self = .japanese
        case "zh": self = .simplifiedChinese
        case "de": self = .german
        case "fr": self = .french
        case "es": self = .spanish
        case "ar": self = .arabic
        default: self = .english
        }
    }

    /// Whether the language is written right to left. The storefront keeps such text in
    /// logical order, so a terminal with bidirectional support shows it right to left.
    public var isRightToLeft: Bool { self == .arabic }
}
