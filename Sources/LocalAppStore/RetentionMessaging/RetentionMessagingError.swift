import Foundation

/// Why retention messaging refused a change or could not read its state: one case for each of
/// Apple's Retention Messaging API errors it can meet (the server answers each with Apple's
/// code), plus the state's own file failures.
public enum RetentionMessagingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A request member is missing or of the wrong type (Apple's general bad request).
    case missingField(String)
    /// The uploaded file is not an image Apple accepts (`InvalidImageError`).
    case invalidImage(String)
    /// The image's size class is unknown, or an image is used where its size class does not fit
    /// (`BadRequestImageSizeError`).
    case invalidImageSize(String)
    /// The header is longer than 66 characters (`HeaderTooLongError`).
    case headerTooLong(Int)
    /// The body is longer than 144 characters (`BodyTooLongError`).
    case bodyTooLong(Int)
    /// An alternative text is longer than 150 characters (`AltTextTooLongError`).
    case altTextTooLong(Int)
    /// More than five bullet points (`BadRequestTooManyBulletPointsError`).
    case tooManyBulletPoints(Int)
    /// A bullet point's text is longer than 66 characters (`BadRequestBulletPointTextTooLongError`).
    case bulletPointTextTooLong(Int)
    /// `ABOVE_IMAGE` without an image (`BadRequestAboveImageRequiresAnImageError`).
    case aboveImageRequiresImage
    /// The locale is not one (`InvalidLocaleError`).
    case invalidLocale(String)
    /// The product is not one of the catalog's auto-renewable subscriptions (`InvalidProductIdError`).
    case invalidProduct(String)
    /// The realtime URL is not an https URL of at most 256 characters (`BadRequestRealtimeUrlError`).
    case invalidRealtimeURL(String)
    /// No image has this identifier (`ImageNotFoundError`).
    case imageNotFound(UUID)
    /// No message has this identifier (`MessageNotFoundError`).
    case messageNotFound(UUID)
    /// No default message for this product and locale (`DefaultMessageNotFoundError`).
    case defaultMessageNotFound(productID: String, locale: String)
    /// No realtime URL for this environment (`RealtimeUrlNotFoundError`).
    case realtimeURLNotFound(environment: String)
    /// An image already has this identifier (`ImageAlreadyExistsError`).
    case imageAlreadyExists(UUID)
    /// A message already has this identifier (`MessageAlreadyExistsError`).
    case messageAlreadyExists(UUID)
    /// The app has the most images it may (`MaximumNumberOfImagesReachedError`).
    case maximumImagesReached(Int)
    /// The app has the most messages it may (`MaximumNumberOfMessagesReachedError`).
    case maximumMessagesReached(Int)
    /// The message is not approved (`MessageNotApprovedError`).
    case messageNotApproved(UUID, state: String)
    /// An image of the message is not approved (`ImageNotApprovedError`).
    case imageNotApproved(UUID, state: String)
    /// Messages show the image (`ImageInUseError`).
    case imageInUse(UUID, messages: [UUID])
    /// Production's realtime URL needs a passed performance test first (`ForbiddenNoPassingTestError`).
    case noPassingPerformanceTest
    /// The retention state's files cannot be read or written.
    case io(path: String, reason: String)

    /// What went wrong, naming what the request gave.
    public var description: String {
        switch self {
        case .missingField(let field): "The request's \(field) is missing or not of the right type."
        case .invalidImage(let why): "The image is invalid: \(why)."
        case .invalidImageSize(let why): "The image size is invalid: \(why)."
        case .headerTooLong(let n): "The header has \(n) characters; at most 66 are allowed."
        case .bodyTooLong(let n): "The body has \(n) characters; at most 144 are allowed."
        case .altTextTooLong(let n): "An alternative text has \(n) characters; at most 150 are allowed."
        case .tooManyBulletPoints(let n): "The message has \(n) bullet points; at most 5 are allowed."
        case .bulletPointTextTooLong(let n): "A bullet point's text has \(n) characters; at most 66 are allowed."
        case .aboveImageRequiresImage: "The header position ABOVE_IMAGE needs an image."
        case .invalidLocale(let locale): "The locale '\(locale)' is invalid."
        case .invalidProduct(let id): "The product '\(id)' is not an auto-renewable subscription of the catalog."
        case .invalidRealtimeURL(let why): "The realtime URL is invalid: \(why)."
        case .imageNotFound(let id): "No image has the identifier \(Self.text(id))."
        case .messageNotFound(let id): "No message has the identifier \(Self.text(id))."
        case .defaultMessageNotFound(let product, let locale):
            "No default message is configured for \(product) in \(locale)."
        case .realtimeURLNotFound(let environment): "No realtime URL is configured for \(environment)."
        case .imageAlreadyExists(let id): "An image with the identifier \(Self.text(id)) already exists."
        case .messageAlreadyExists(let id): "A message with the identifier \(Self.text(id)) already exists."
        case .maximumImagesReached(let n): "The app has \(n) images, the most it may have."
        case .maximumMessagesReached(let n): "The app has \(n) messages, the most it may have."
        case .messageNotApproved(let id, let state): "The message \(Self.text(id)) is \(state), not APPROVED."
        case .imageNotApproved(let id, let state): "The image \(Self.text(id)) is \(state), not APPROVED."
        case .imageInUse(let id, let messages):
            "The image \(Self.text(id)) is in use by the message\(messages.count == 1 ? "" : "s") "
                + messages.map(Self.text).joined(separator: ", ") + "."
        case .noPassingPerformanceTest:
            "Production's realtime URL can be set only after a performance test passes in Sandbox."
        case .io(let path, let reason): "\(path): \(reason)"
        }
    }

    /// An identifier as the API shows it: lowercase.
    static func text(_ id: UUID) -> String { id.uuidString.lowercased() }
}

extension RetentionMessagingError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
