/// The parts of Apple's `verifyReceipt` response body the engine reads (`responseBody`).
public struct VerifyReceiptResponse: Codable, Hashable, Sendable {
    /// One in-app purchase as the JSON receipt lists it (`responseBody.Receipt.In_app`).
    public struct InApp: Codable, Hashable, Sendable {
        /// `transaction_id`.
        public var transactionId: String?
        /// `original_transaction_id`.
        public var originalTransactionId: String?
        /// `product_id`.
        public var productId: String?
        /// `cancellation_date_ms`.
        public var cancellationDateMs: String?

        enum CodingKeys: String, CodingKey {
            case transactionId = "transaction_id"
            case originalTransactionId = "original_transaction_id"
            case productId = "product_id"
            case cancellationDateMs = "cancellation_date_ms"
        }
    }

    /// The decoded receipt (`responseBody.Receipt`).
    public struct Receipt: Codable, Hashable, Sendable {
        /// `bundle_id`.
        public var bundleId: String?
        /// `application_version`.
        public var applicationVersion: String?
        /// `in_app`.
        public var inApp: [InApp]?

        enum CodingKeys: String, CodingKey {
            case bundleId = "bundle_id"
            case applicationVersion = "application_version"
            case inApp = "in_app"
        }
    }

    /// 0 when valid, else a status code.
    public var status: Int
    /// "Production" or "Sandbox".
    public var environment: String?
    /// Whether Apple suggests retrying (`is-retryable`).
    public var isRetryable: Bool?
    /// The decoded receipt.
    public var receipt: Receipt?
    /// The latest renewals (`latest_receipt_info`).
    public var latestReceiptInfo: [InApp]?

    enum CodingKeys: String, CodingKey {
        case status, environment
        case isRetryable = "is-retryable"
        case receipt
        case latestReceiptInfo = "latest_receipt_info"
    }
}
