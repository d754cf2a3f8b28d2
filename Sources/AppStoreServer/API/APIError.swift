import Foundation

/// An App Store Server API error: Apple's code, HTTP status and message, sent as `ErrorPayload`.
public struct APIError: Error, Hashable, Sendable {
    /// Apple's numeric code, e.g. 4040010.
    public let code: Int64
    /// The HTTP status that carries it (400, 403, 404, 429, 500).
    public let status: Int
    /// Apple's message.
    public let message: String

    init(_ code: Int64, _ status: Int, _ message: String) {
        self.code = code
        self.status = status
        self.message = message
    }

    /// The JSON response for this error.
    public var response: HTTPResponse {
        let body = (try? JSONEncoder().encode(ErrorPayload(errorCode: code, errorMessage: message))) ?? Data()
        return .json(status, body)
    }

    static let generalBadRequest = APIError(4_000_000, 400, "Bad request.")
    static let invalidRequestRevision = APIError(4_000_005, 400, "Invalid request revision.")
    static let invalidTransactionId = APIError(4_000_006, 400, "Invalid transaction id.")
    static let invalidOriginalTransactionId = APIError(4_000_008, 400, "Invalid original transaction id.")
    static let invalidExtendByDays = APIError(4_000_009, 400, "Invalid extend by days value.")
    static let invalidExtendReasonCode = APIError(4_000_010, 400, "Invalid extend reason code.")
    static let invalidRequestIdentifier = APIError(4_000_011, 400, "Invalid request identifier.")
    static let startDateTooFarInPast = APIError(
        4_000_012, 400, "Invalid request. The start date is earlier than the allowed start date.")
    static let startDateAfterEndDate = APIError(
        4_000_013, 400, "Invalid request. The start date is later than the end date.")
    static let invalidStartDate = APIError(4_000_015, 400, "Invalid request. The start date is not valid.")
    static let invalidEndDate = APIError(4_000_016, 400, "Invalid request. The end date is not valid.")
    static let invalidPaginationToken = APIError(4_000_014, 400, "Invalid request. The pagination token is invalid.")
    static let invalidNotificationType = APIError(
        4_000_018, 400, "Invalid request. The notification type or subtype is invalid.")
    static let invalidTestNotificationToken = APIError(
        4_000_020, 400, "Invalid request. The test notification token is invalid.")
    static let invalidSort = APIError(4_000_021, 400, "Invalid request. The sort parameter is invalid.")
    static let invalidProductType = APIError(4_000_022, 400, "Invalid request. The product type parameter is invalid.")
    static let invalidProductId = APIError(4_000_023, 400, "Invalid request. The product id parameter is invalid.")
    static let invalidSubscriptionGroupIdentifier = APIError(
        4_000_024, 400, "Invalid request. The subscription group identifier parameter is invalid.")
    static let invalidInAppOwnershipType = APIError(
        4_000_026, 400, "Invalid request. The in-app ownership type parameter is invalid.")
    static let invalidEmptyStorefrontCountryCodeList = APIError(
        4_000_027, 400, "Invalid request. The storefront country code list is empty.")
    static let invalidStorefrontCountryCode = APIError(
        4_000_028, 400, "Invalid request. A storefront country code is invalid.")
    static let invalidRevoked = APIError(4_000_030, 400, "Invalid request. The revoked parameter is invalid.")
    static let invalidStatus = APIError(4_000_031, 400, "Invalid request. The status parameter is invalid.")
    static let invalidAccountTenure = APIError(4_000_032, 400, "Invalid request. The account tenure field is invalid.")
    static let invalidAppAccountToken = APIError(
        4_000_033, 400, "Invalid request. The app account token field is invalid.")
    static let invalidConsumptionStatus = APIError(
        4_000_034, 400, "Invalid request. The consumption status field is invalid.")
    static let invalidCustomerConsented = APIError(
        4_000_035, 400,
        "Invalid request. The customer consented field is required and must indicate the customer consented.")
    static let invalidDeliveryStatus = APIError(
        4_000_036, 400, "Invalid request. The delivery status field is invalid.")
    static let invalidLifetimeDollarsPurchased = APIError(
        4_000_037, 400, "Invalid request. The lifetime dollars purchased field is invalid.")
    static let invalidLifetimeDollarsRefunded = APIError(
        4_000_038, 400, "Invalid request. The lifetime dollars refunded field is invalid.")
    static let invalidPlatform = APIError(4_000_039, 400, "Invalid request. The platform field is invalid.")
    static let invalidPlayTime = APIError(4_000_040, 400, "Invalid request. The play time field is invalid.")
    static let invalidSampleContentProvided = APIError(
        4_000_041, 400, "Invalid request. The sample content provided field is invalid.")
    static let invalidUserStatus = APIError(4_000_042, 400, "Invalid request. The user status field is invalid.")
    static let invalidAppAccountTokenUUID = APIError(
        4_000_183, 400, "Invalid request. The app account token field must be a valid UUID.")
    static let transactionIdIsNotOriginal = APIError(
        4_000_187, 400, "Invalid request. The transaction id is not an original transaction id.")
    static let subscriptionExtensionIneligible = APIError(
        4_030_004, 403, "Forbidden - subscription state ineligible for extension.")
    static let subscriptionMaxExtension = APIError(
        4_030_005, 403, "Forbidden - subscription has reached maximum extension count.")
    static let originalTransactionIdNotFound = APIError(4_040_005, 404, "Original transaction id not found.")
    static let serverNotificationURLNotFound = APIError(
        4_040_007, 404,
        "No App Store Server Notifications URL found for provided app. Check that a URL is configured in App Store Connect for this environment."
    )
    static let testNotificationNotFound = APIError(
        4_040_008, 404,
        "Either the test notification token is expired or the notification and status are not yet available.")
    static let statusRequestNotFound = APIError(
        4_040_009, 404,
        "The server didn't find a subscription-renewal-date extension request for this requestIdentifier and productId combination."
    )
    static let transactionIdNotFound = APIError(4_040_010, 404, "Transaction id not found.")
    static let appTransactionDoesNotExist = APIError(4_040_019, 404, "No app transaction exists for the customer.")
    static let generalInternal = APIError(5_000_000, 500, "An unknown error occurred.")
    /// A path the API does not have. Apple documents no code for it; the code follows Apple's
    /// scheme (the HTTP status, then zeros), so a client reads a code as from any refusal
    /// (Docs/decisions/0052-refusals-carry-apples-error-body.md).
    static let pathNotFound = APIError(4_040_000, 404, "Not found. The path is not an App Store Server API endpoint.")
    /// A method the path does not take (the `Allow` header lists those it does); coded as `pathNotFound` is.
    static let methodNotAllowed = APIError(4_050_000, 405, "Method not allowed. The path does not take this method.")

    // MARK: Retention Messaging API

    static let invalidImage = APIError(4_000_161, 400, "Invalid request. The image is invalid.")
    static let headerTooLong = APIError(4_000_162, 400, "Invalid request. The header text is too long.")
    static let bodyTooLong = APIError(4_000_163, 400, "Invalid request. The body text is too long.")
    static let invalidLocale = APIError(4_000_164, 400, "Invalid request. The locale is invalid.")
    static let altTextTooLong = APIError(4_000_175, 400, "Invalid request. The alternative text is too long.")
    static let invalidPerformanceTestRequest = APIError(
        4_000_211, 400, "Invalid request. The performance test request is invalid.")
    static let invalidRequestId = APIError(4_000_212, 400, "Invalid request. The request id is invalid.")
    static let existingPerformanceTestRun = APIError(
        4_000_213, 400, "Invalid request. A performance test is already running.")
    static let badRequestRealtimeURL = APIError(4_000_215, 400, "Invalid request. The realtime URL is invalid.")
    static let badRequestImageSize = APIError(4_000_216, 400, "Invalid request. The image size is invalid.")
    static let tooManyBulletPoints = APIError(4_000_218, 400, "Invalid request. There are too many bullet points.")
    static let bulletPointTextTooLong = APIError(
        4_000_219, 400, "Invalid request. The bullet point text is too long.")
    static let aboveImageRequiresAnImage = APIError(
        4_000_224, 400, "Invalid request. The header position ABOVE_IMAGE requires an image.")
    static let maximumNumberOfImagesReached = APIError(
        4_030_014, 403, "Forbidden - the maximum number of images is reached.")
    static let maximumNumberOfMessagesReached = APIError(
        4_030_016, 403, "Forbidden - the maximum number of messages is reached.")
    static let messageNotApproved = APIError(4_030_017, 403, "Forbidden - the message is not approved.")
    static let imageNotApproved = APIError(4_030_018, 403, "Forbidden - the image is not approved.")
    static let imageInUse = APIError(4_030_019, 403, "Forbidden - the image is in use by a message.")
    static let forbiddenNoPassingTest = APIError(
        4_030_026, 403, "Forbidden - a passing performance test is required to set the production URL.")
    static let imageNotFound = APIError(4_040_014, 404, "Image not found.")
    static let messageNotFound = APIError(4_040_015, 404, "Message not found.")
    static let performanceTestRunNotFound = APIError(4_040_018, 404, "Performance test run not found.")
    static let defaultMessageNotFound = APIError(4_040_020, 404, "Default message not found.")
    static let realtimeURLNotFound = APIError(4_040_021, 404, "Realtime URL not found.")
    static let imageAlreadyExists = APIError(4_090_000, 409, "The image identifier already exists.")
    static let messageAlreadyExists = APIError(4_090_001, 409, "The message identifier already exists.")
}
