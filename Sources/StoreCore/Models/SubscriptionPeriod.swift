import StoreKitValues

/// A subscription or offer period (ISO 8601 `P1W`, `P3M`); defined once in `StoreKitValues`
/// (the catalog reads the same type), named here so an app that imports only StoreCore has it.
public typealias SubscriptionPeriod = StoreKitValues.SubscriptionPeriod
