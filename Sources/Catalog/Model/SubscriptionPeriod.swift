import StoreKitValues

/// A subscription or offer period as the file writes it (`recurringSubscriptionPeriod`,
/// an offer's `subscriptionPeriod`): the engine's own type, defined once in `StoreKitValues`.
public typealias SubscriptionPeriod = StoreKitValues.SubscriptionPeriod
