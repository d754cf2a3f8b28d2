import Foundation

extension StoreKitConfiguration {
    /// One in-app purchase as the configuration file declares it: any kind, with its base
    /// price and localizations. (The engine's localized, priced product is `StoreCore.Product`;
    /// nesting keeps the two apart when an app imports both modules.)
    public struct Product: Sendable, Hashable, Identifiable {
        /// The product identifier (`productID`), unique in the catalog.
        public var id: String
        /// The name used inside the developer's tools (`referenceName`).
        public var referenceName: String
        /// The kind of purchase (`type`).
        public var kind: ProductKind
        /// The base price (`displayPrice`) as an exact decimal, in no particular currency.
        public var price: Decimal
        /// Whether Family Sharing applies (`familyShareable`, `false` when absent).
        public var familyShareable: Bool
        /// Names and descriptions per locale, in file order.
        public var localizations: [Localization]
        /// Group, level, period and offers; set exactly when `kind` is `.autoRenewable`.
        public var subscription: SubscriptionInfo?
        /// The offer codes of a consumable, non-consumable or non-renewing subscription
        /// (`codeOffers`), in file order; a subscription's are `subscription.codeOffers`.
        public var oneTimeCodeOffers: [OneTimeOffer]
        /// Members the catalog does not model (`internalID`, `promotionalImageID`, …), kept as read.
        public var extra: [String: JSONValue]

        /// Creates a product.
        public init(
            id: String, referenceName: String, kind: ProductKind, price: Decimal,
            familyShareable: Bool = false, localizations: [Localization] = [],
            subscription: SubscriptionInfo? = nil, oneTimeCodeOffers: [OneTimeOffer] = [],
            extra: [String: JSONValue] = [:]
        ) {
            self.id = id
            self.referenceName = referenceName
            self.kind = kind
            self.price = price
            self.familyShareable = familyShareable
            self.localizations = localizations
            self.subscription = subscription
            self.oneTimeCodeOffers = oneTimeCodeOffers
            self.extra = extra
        }

        /// The localization for `locale`, else for the same language, else `fallback`'s, else the first.
        ///
        /// Identifiers match with `_` and `-` treated alike (`pt-BR` finds `pt_BR`).
        /// - Parameters:
        ///   - locale: the wanted locale, e.g. `ja_JP`.
        ///   - fallback: the catalog's default locale (`_locale`), tried before giving up.
        /// - Returns: `nil` only when the product has no localizations at all.
        public func localization(for locale: String, fallback: String? = nil) -> Localization? {
            let wanted = Self.normalized(locale)
            if let exact = localizations.first(where: { Self.normalized($0.locale) == wanted }) { return exact }
            let language = Self.language(of: wanted)
            if let sameLanguage = localizations.first(where: {
                Self.language(of: Self.normalized($0.locale)) == language
            }) {
                return sameLanguage
            }
            if let fallback, Self.normalized(fallback) != wanted {
                return localization(for: fallback, fallback: nil)
            }
            return localizations.first
        }

        private static func normalized(_ locale: String) -> String {
            locale.replacingOccurrences(of: "-", with: "_").lowercased()
        }

        private static func language(of normalized: String) -> Substring {
            normalized.prefix { $0 != "_" }
        }
    }
}
