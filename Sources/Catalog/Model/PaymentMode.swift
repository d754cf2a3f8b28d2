/// How a subscription offer is paid, as Xcode's raw `paymentMode` string.
public enum PaymentMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// A free trial for the offer's duration.
    case free
    /// A reduced price each period, for `numberOfPeriods` periods.
    case payAsYouGo
    /// One reduced payment up front covering the offer's duration.
    case payUpFront
}
