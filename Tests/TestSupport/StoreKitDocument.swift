/// Small Xcode `.storekit` documents for tests that need only a few plain products: the JSON
/// Xcode writes, with one English localization per product and one subscription group
/// (`G1`, named `plus`). Tests that exercise the format itself (offers, locales, bad fields)
/// write their JSON out in full instead.
public enum StoreKitDocument {
    /// A product of the document's `products` array.
    /// - Parameters:
    ///   - id: the product identifier.
    ///   - type: Xcode's type name: `Consumable` or `NonConsumable`.
    ///   - price: the display price, e.g. `0.99`.
    ///   - name: the English display name, also its description and reference name.
    ///   - familyShareable: whether Family Sharing shares it.
    public static func product(
        _ id: String, type: String, price: String, name: String, familyShareable: Bool = false
    ) -> String {
        """
        { "displayPrice" : "\(price)", "familyShareable" : \(familyShareable), "internalID" : "\(id)",
          \(localizations(name)), "productID" : "\(id)", "referenceName" : "\(name)", "type" : "\(type)" }
        """
    }

    /// An auto-renewable subscription in group `G1`.
    /// - Parameters:
    ///   - id: the product identifier.
    ///   - period: the ISO 8601 renewal period, e.g. `P1M`.
    ///   - price: the display price.
    ///   - name: the English display name.
    ///   - level: its level in the group (`groupNumber`): 1 is the highest.
    ///   - familyShareable: whether Family Sharing shares it.
    ///   - members: more members, each followed by a comma (`"billingPlans" : […], `).
    public static func subscription(
        _ id: String, period: String, price: String, name: String, level: Int, familyShareable: Bool = false,
        members: String = ""
    ) -> String {
        """
        { \(members)"adHocOffers" : [], "codeOffers" : [], "displayPrice" : "\(price)", "familyShareable" : \(familyShareable),
          "groupNumber" : \(level), "internalID" : "\(id)", \(localizations(name)),
          "productID" : "\(id)", "recurringSubscriptionPeriod" : "\(period)", "referenceName" : "\(name)",
          "subscriptionGroupID" : "G1", "type" : "RecurringSubscription" }
        """
    }

    /// A whole document (format 3.0, storefront USA, locale en_US).
    /// - Parameters:
    ///   - identifier: the document's identifier.
    ///   - products: entries made by `product(_:type:price:name:)`.
    ///   - subscriptions: entries made by `subscription(_:period:price:name:level:)`, all in
    ///     group `G1`; none leaves the document without a group.
    public static func document(identifier: String, products: [String], subscriptions: [String] = []) -> String {
        let groups =
            subscriptions.isEmpty
            ? ""
            : """
            { "id" : "G1", "localizations" : [], "name" : "plus", "subscriptions" : [ \(subscriptions.joined(separator: ", ")) ] }
            """
        return """
            { "identifier" : "\(identifier)", "nonRenewingSubscriptions" : [],
              "products" : [ \(products.joined(separator: ", ")) ],
              "settings" : { "_locale" : "en_US", "_storefront" : "USA" },
              "subscriptionGroups" : [ \(groups) ],
              "version" : { "major" : 3, "minor" : 0 } }
            """
    }

    private static func localizations(_ name: String) -> String {
        #""localizations" : [ { "description" : "\#(name)", "displayName" : "\#(name)", "locale" : "en_US" } ]"#
    }
}
