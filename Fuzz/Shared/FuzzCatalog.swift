// The catalog the fuzz targets that run a real local store load (`ArchiveFuzz`, `HTTPFuzz`):
// three consumables, a non-consumable and a monthly subscription in one group. Compiled into
// each of those targets (Makefile, `fuzz-package-targets`).

let fuzzCatalogJSON = """
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
