import Foundation

/// A group of subscription bundles or subscription suites (format 6's `subscriptionBundleGroups`
/// and `subscriptionSuiteGroups`): one product sold for several subscriptions at once.
///
/// The catalog reads the groups and their member subscriptions so nothing in the file is lost,
/// but does not sell them: they are not among `StoreKitConfiguration.products`. Apple has not
/// documented these members' fields; the ones read here are those every product has, and the
/// rest are kept in `extra` (see Docs/formats/storekit-catalog.md).
public struct SubscriptionBundleGroup: Sendable, Hashable, Identifiable {
    /// Which of the two top-level members a group comes from.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// `subscriptionBundleGroups`.
        case bundle
        /// `subscriptionSuiteGroups`.
        case suite
    }

    /// One product of the group, as the file declares it.
    public struct Member: Sendable, Hashable, Identifiable {
        /// The product identifier (`productID`).
        public var id: String
        /// The reference name (`referenceName`), empty when absent.
        public var referenceName: String = ""
        /// The file's raw `type`, when present.
        public var type: String?
        /// The base price (`displayPrice`), when present.
        public var price: Decimal?
        /// The renewal period (`recurringSubscriptionPeriod`), when present.
        public var period: SubscriptionPeriod?
        /// Whether Family Sharing applies (`familyShareable`, `false` when absent).
        public var familyShareable: Bool = false
        /// Names and descriptions per locale, in file order.
        public var localizations: [Localization] = []
        /// Members the catalog does not model (the subscriptions it includes, offers, …), kept as read.
        public var extra: [String: JSONValue] = [:]
    }

    /// Whether it is a bundle group or a suite group.
    public var kind: Kind
    /// The group identifier (`id`).
    public var id: String
    /// The reference name (`name`), the identifier when absent.
    public var name: String
    /// The group's localizations, in file order.
    public var localizations: [SubscriptionGroup.Localization] = []
    /// Its products (`subscriptions`), in file order.
    public var members: [Member] = []
    /// Members the catalog does not model, kept as read.
    public var extra: [String: JSONValue] = [:]
}
