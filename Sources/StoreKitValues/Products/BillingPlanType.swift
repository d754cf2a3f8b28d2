/// How a subscription is paid for: the whole period up front, or monthly over a 12-month
/// commitment. Stored as Apple's raw string (`BILLED_UPFRONT`, `MONTHLY`: the `.storekit`
/// file's `billingPlanType`, the App Store Server's `billingPlanType`), so a value newer than
/// this build is kept as written. Defined once here; `Catalog` names it too, and `StoreCore` re-exports it.
public struct BillingPlanType: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// The raw string, e.g. `BILLED_UPFRONT`.
    public var rawValue: String

    /// Wraps a raw `billingPlanType` string.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The whole period's price at once (`BILLED_UPFRONT`).
    public static let billedUpfront = BillingPlanType(rawValue: "BILLED_UPFRONT")
    /// Monthly payments over a 12-month commitment (`MONTHLY`).
    public static let monthly = BillingPlanType(rawValue: "MONTHLY")

    /// Whether the plan commits the customer to several payments (`monthly`).
    public var hasCommitment: Bool { self == .monthly }

    /// The raw string.
    public var description: String { rawValue }

    /// Decodes the raw string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the raw string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
