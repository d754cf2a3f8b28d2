/// The language of the storefront's own words (menus, labels, messages).
public enum UILanguage: String, Hashable, Sendable, CaseIterable {
    case english = "en"
    case simplifiedChinese = "zh-Hans"
    case japanese = "ja"

    /// The language for a catalog locale such as `ja_JP` or `zh_CN`; English when there is no
    /// translation of the interface for it.
    public init(locale: String) {
        let lowered = locale.lowercased()
        if lowered.hasPrefix("ja") {
            self = .japanese
        } else if lowered.hasPrefix("zh") {
            self = .simplifiedChinese
        } else {
            self = .english
        }
    }
}
