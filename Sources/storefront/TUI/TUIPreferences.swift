import Foundation

/// What the storefront remembers between launches, in the data directory
/// (`storefront-tui.json`): the storefront and language last chosen. A launch without
/// `--storefront`/`--locale` opens them again.
struct TUIPreferences: Sendable {
    /// The file.
    let url: URL

    /// The preferences file of a data directory.
    init(dataDirectory: URL) {
        url = dataDirectory.appendingPathComponent("storefront-tui.json")
    }

    /// The remembered storefront code and locale, if any (an unreadable file is ignored: it
    /// only remembers a choice).
    func load() -> (storefront: String, locale: String)? {
        guard let data = try? Data(contentsOf: url),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            object["version"] as? Int == 1,
            let storefront = object["storefront"] as? String, let locale = object["locale"] as? String
        else { return nil }
        return (storefront, locale)
    }

    /// Remembers a choice (written whole and renamed into place, so a reader never sees half).
    func save(storefront: String, locale: String) {
        let object: [String: Any] = ["version": 1, "storefront": storefront, "locale": locale]
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return }
        try? data.write(to: url, options: .atomic)
    }
}
