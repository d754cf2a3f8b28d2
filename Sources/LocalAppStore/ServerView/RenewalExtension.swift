import Foundation

/// One renewal-date extension of a subscription (Extend a Subscription Renewal Date, or its
/// part of a mass extension).
package struct RenewalExtension: Codable, Hashable, Sendable {
    /// The subscription's original transaction ID.
    package var originalTransactionID: String
    /// The web order line item ID of the period that was extended.
    package var webOrderLineItemID: String?
    /// Days asked for (1…90).
    package var days: Int
    /// Apple's `extendReasonCode` (0 undeclared, 1 customer satisfaction, 2 other, 3 service issue).
    package var reasonCode: Int
    /// The caller's request identifier.
    package var requestIdentifier: String
    /// When the extension was made (store clock).
    package var date: Date
    /// The period's new end: the new renewal date.
    package var effectiveDate: Date
    /// Whether the subscription was extended.
    package var success: Bool
}
