import StoreKitValues

/// An App Store storefront, as StoreKit 2's `Storefront` (`countryCode`, `id`) with its
/// currency and locale; defined once in `StoreKitValues` (the catalog's storefront table lists
/// the same type), named here so an app that imports only StoreCore has it.
public typealias Storefront = StoreKitValues.Storefront
