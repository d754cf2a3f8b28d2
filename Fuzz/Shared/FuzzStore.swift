import LocalAppStore
import StoreCore

/// What the fuzz targets that run a real local store share (`ArchiveFuzz`, `HTTPFuzz`; compiled
/// into each, Makefile `fuzz-package-targets`).
enum FuzzStore {
    /// The catalog: three consumables, a non-consumable and a monthly subscription in one group.
    static let catalogJSON = """
        {
          "identifier" : "FUZZ", "nonRenewingSubscriptions" : [],
          "products" : [
            { "displayPrice" : "0.99", "familyShareable" : false, "internalID" : "1",
              "localizations" : [ { "description" : "Coins", "displayName" : "Coins", "locale" : "en_US" } ],
              "productID" : "com.test.coins", "referenceName" : "coins", "type" : "Consumable" },
            { "displayPrice" : "1.99", "familyShareable" : false, "internalID" : "4",
              "localizations" : [ { "description" : "Gems", "displayName" : "Gems", "locale" : "en_US" } ],
              "productID" : "com.test.gems", "referenceName" : "gems", "type" : "Consumable" },
            { "displayPrice" : "0.49", "familyShareable" : false, "internalID" : "5",
              "localizations" : [ { "description" : "Hints", "displayName" : "Hints", "locale" : "en_US" } ],
              "productID" : "com.test.hints", "referenceName" : "hints", "type" : "Consumable" },
            { "displayPrice" : "9.99", "familyShareable" : false, "internalID" : "2",
              "localizations" : [ { "description" : "Pro", "displayName" : "Pro", "locale" : "en_US" } ],
              "productID" : "com.test.pro", "referenceName" : "pro", "type" : "NonConsumable" }
          ],
          "settings" : { "_locale" : "en_US", "_storefront" : "USA" },
          "subscriptionGroups" : [
            { "id" : "G1", "localizations" : [], "name" : "plus",
              "subscriptions" : [
                { "adHocOffers" : [], "codeOffers" : [], "displayPrice" : "2.99", "familyShareable" : false,
                  "groupNumber" : 1, "internalID" : "3",
                  "localizations" : [ { "description" : "Monthly", "displayName" : "Monthly", "locale" : "en_US" } ],
                  "productID" : "com.test.plus.monthly", "recurringSubscriptionPeriod" : "P1M", "referenceName" : "monthly",
                  "subscriptionGroupID" : "G1", "type" : "RecurringSubscription" } ] }
          ],
          "version" : { "major" : 3, "minor" : 0 }
        }
        """

    /// Buys `productID` and finishes the purchase once the store has charged it.
    static func buy(_ productID: String, in store: LocalAppStore) async throws {
        var events = await store.events().makeAsyncIterator()
        let queued = try await store.add(Payment(productID: productID))
        while let event = await events.next() {
            if case .transactionsUpdated(let updated) = event,
                updated.contains(where: { $0.transactionID == queued.transactionID })
            {
                try await store.finish(transactionID: queued.transactionID)
                return
            }
        }
    }
}
