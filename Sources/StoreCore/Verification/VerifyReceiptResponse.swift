import Foundation

/// Apple's `verifyReceipt` response body (`responseBody`), every member under its wire name
/// and type: strings stay strings (dates in milliseconds are `Milliseconds`, "true"/"false"
/// flags are `Flag`, both keeping the wire text), so an answer decodes and encodes back
/// unchanged. `RemoteReceiptVerifier` reads it; a server answering `verifyReceipt` writes it.
public struct VerifyReceiptResponse: Codable, Hashable, Sendable {
    /// `status`: 0 when the receipt is valid, else a status code (`VerifyReceiptError(status:)`).
    public var status: Int
    /// `environment`: "Production" or "Sandbox".
    public var environment: String?
    /// `is-retryable`: whether the failure was temporary (status codes 21100–21199): try again later.
    public var isRetryable: Bool?
    /// `receipt`: the decoded receipt that was sent.
    public var receipt: Receipt?
    /// `latest_receipt`: the latest app receipt, base64-encoded (receipts with auto-renewable
    /// subscriptions only).
    public var latestReceipt: String?
    /// `latest_receipt_info`: every in-app purchase transaction, renewals included, finished
    /// consumables left out (receipts with auto-renewable subscriptions only).
    public var latestReceiptInfo: [LatestReceiptInfo]?
    /// `pending_renewal_info`: the renewal state of each auto-renewable subscription, by product.
    public var pendingRenewalInfo: [PendingRenewalInfo]?

    /// Creates an answer with `status` and nothing else; set the members it carries.
    public init(status: Int) {
        self.status = status
    }

    /// The bytes of `latestReceipt`, when it is valid base64.
    public var latestReceiptData: Data? { latestReceipt.flatMap { Data(base64Encoded: $0) } }

    enum CodingKeys: String, CodingKey {
        case status, environment
        case isRetryable = "is-retryable"
        case receipt
        case latestReceipt = "latest_receipt"
        case latestReceiptInfo = "latest_receipt_info"
        case pendingRenewalInfo = "pending_renewal_info"
    }
}
