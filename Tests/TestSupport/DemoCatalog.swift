import Foundation

/// `Catalogs/Demo.storekit`, the catalog people try the storefront with, and the products of
/// it that tests buy, named once for every suite.
public enum DemoCatalog {
    /// The catalog file.
    public static var url: URL { Repository.url("Catalogs/Demo.storekit") }

    /// 100 coins, a consumable.
    public static let coins = "com.storefront.demo.coins.100"
    /// The Winter Season Pass, a non-renewing subscription.
    public static let seasonPass = "com.storefront.demo.seasonpass.winter"
    /// Remove Ads, a non-consumable.
    public static let removeAds = "com.storefront.demo.removeads"
    /// Premium Basic, monthly (the Premium group's lowest level).
    public static let basic = "com.storefront.demo.premium.basic.monthly"
    /// Premium Basic, yearly.
    public static let basicYearly = "com.storefront.demo.premium.basic.yearly"
    /// Premium Plus, monthly.
    public static let plus = "com.storefront.demo.premium.plus.monthly"
    /// Premium Pro, monthly (the group's highest level).
    public static let pro = "com.storefront.demo.premium.pro.monthly"
    /// Premium Pro, yearly.
    public static let proYearly = "com.storefront.demo.premium.pro.yearly"
    /// Pro's promotional offer for returning subscribers (an offer identifier).
    public static let comeback = "com.storefront.demo.premium.pro.comeback"
    /// Pro's offer-code offer: three months free (an offer identifier).
    public static let codeOffer = "com.storefront.demo.premium.pro.code.3free"
    /// The code offer's reference name: what a transaction redeemed with one of its codes carries
    /// as its offer identifier, as Apple's do.
    public static let codeOfferReferenceName = "Code: 3 months free"
    /// 550 coins, a consumable with a code offer: the coins free.
    public static let coins550 = "com.storefront.demo.coins.550"
    /// The 550 coins' code offer (its internalID; its reference name is `Code: 550 coins free`).
    public static let coinsCodeOffer = "C0DE0101"
    /// Remove Ads' code offer (its internalID): 1.99 instead of 3.99.
    public static let removeAdsCodeOffer = "C0DE0102"
    /// The Winter Season Pass's code offer (its internalID): 3.99 instead of 7.99.
    public static let seasonPassCodeOffer = "C0DE0103"
}
