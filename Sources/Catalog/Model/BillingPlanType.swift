import StoreKitValues

/// How a subscription's billing plan bills (`BILLED_UPFRONT`, `MONTHLY`), as the file's raw
/// `billingPlanType` string; defined once in `StoreKitValues` (the engine names the same type).
public typealias BillingPlanType = StoreKitValues.BillingPlanType
