/// The storefront a catalog is used in, and where that choice came from, so that a warning
/// about a price can say why that storefront's currency applies.
public struct StorefrontChoice: Sendable, Hashable {
    /// Where the storefront was chosen.
    public enum Source: Sendable, Hashable {
        /// A command-line option or setting, named as the user wrote it (e.g. `--storefront`).
        case option(String)
        /// The catalog's own `settings._storefront`.
        case catalogSettings
        /// Nothing chose one: the United States.
        case defaultStorefront
    }

    /// The storefront.
    public var storefront: Storefront
    /// Where it came from.
    public var source: Source

    /// Creates a choice.
    public init(storefront: Storefront, source: Source) {
        self.storefront = storefront
        self.source = source
    }

    /// The storefront and its origin in words: `JPN, from settings._storefront`,
    /// `USA, from --storefront`, `USA, the default`.
    public var explanation: String {
        switch source {
        case .option(let name): "\(storefront.code), from \(name)"
        case .catalogSettings: "\(storefront.code), from settings._storefront"
        case .defaultStorefront: "\(storefront.code), the default"
        }
    }
}
