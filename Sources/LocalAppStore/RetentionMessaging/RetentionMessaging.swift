import Catalog
import Foundation
internal import Receipts
import StoreKitValues
internal import SystemIO

/// Retention messaging, a part of the local App Store: what a developer uploads through
/// Apple's Retention Messaging API (images, messages, default messages, realtime URLs), their
/// review, the performance tests of the developer's Get Retention Message endpoint, and the log
/// of realtime exchanges with it.
///
/// It keeps its own share of the data directory (`RetentionFiles`, the store's one stored
/// property for it), apart from the journal: each change is one atomic, durable replacement
/// under a lock every process shares, so the server, the CLI and the storefront see one state,
/// and a crash leaves the state before the change or after it. So its verbs do not run on the
/// store's actor, and are callable from any thread (Docs/decisions/0060-local-app-store-parts.md).
public struct RetentionMessaging: Sendable {
    let store: LocalAppStore

    /// The state's files (nothing is read or made until used).
    var files: RetentionFiles { store.retentionFiles }
    private var clock: any StoreClock { store.configuration.clock }
    private var catalog: StoreKitConfiguration { store.configuration.catalog }

    /// The state as it is now.
    /// - Throws: `.io` when its file cannot be read.
    public func state() throws(RetentionMessagingError) -> RetentionState { try files.read() }

    /// The PNG bytes of an image.
    /// - Throws: `.imageNotFound` when the store has no such image, `.io` when it cannot be read.
    public func imageData(_ id: UUID) throws(RetentionMessagingError) -> Data {
        guard try state().image(id) != nil, let data = try files.imageData(id) else { throw .imageNotFound(id) }
        return data
    }

    // MARK: - Images

    /// Uploads an image (Apple's `Upload Image`): a PNG of `size`'s dimensions, kept with its
    /// state: `PENDING` when `heldForReview`, else `APPROVED`.
    /// - Throws: `.invalidImage`, `.imageAlreadyExists`, `.maximumImagesReached` or `.io`.
    @discardableResult
    public func uploadImage(
        _ id: UUID, png: Data, size: RetentionImage.Size, heldForReview: Bool
    ) throws(RetentionMessagingError) -> RetentionImage {
        let header = try RetentionRules.checkImage(png, size: size)
        let now = clock.now
        return try files.update { state, images throws(RetentionMessagingError) in
            guard state.image(id) == nil else { throw .imageAlreadyExists(id) }
            guard state.images.count < RetentionRules.maximumImages else {
                throw .maximumImagesReached(state.images.count)
            }
            let image = RetentionImage(
                identifier: id, size: size, state: heldForReview ? .pending : .approved, width: header.width,
                height: header.height, byteCount: png.count, uploaded: now)
            state.images[RetentionState.key(id)] = image
            images[id] = png
            return image
        }
    }

    /// Deletes an image (Apple's `Delete Image`).
    /// - Throws: `.imageNotFound`, `.imageInUse` (a message shows it) or `.io`.
    public func deleteImage(_ id: UUID) throws(RetentionMessagingError) {
        try files.update { state, _ throws(RetentionMessagingError) in
            guard state.image(id) != nil else { throw .imageNotFound(id) }
            let users = state.messageList.filter { $0.content.imageIdentifiers.contains(id) }.map(\.identifier)
            guard users.isEmpty else { throw .imageInUse(id, messages: users) }
            state.images[RetentionState.key(id)] = nil
        }
    }

    // MARK: - Messages

    /// Uploads a message (Apple's `Upload Message`), `PENDING` when `heldForReview`, else
    /// `APPROVED`. Its images must exist: the full-size one uploaded as `FULL_SIZE`, the bullet
    /// points' as `BULLET_POINT`.
    /// - Throws: the content's errors (`RetentionRules.checkContent`), `.imageNotFound`,
    ///   `.invalidImageSize`, `.messageAlreadyExists`, `.maximumMessagesReached` or `.io`.
    @discardableResult
    public func uploadMessage(
        _ id: UUID, content: RetentionMessage.Content, heldForReview: Bool
    ) throws(RetentionMessagingError) -> RetentionMessage {
        try RetentionRules.checkContent(content)
        let now = clock.now
        return try files.update { state, _ throws(RetentionMessagingError) in
            guard state.message(id) == nil else { throw .messageAlreadyExists(id) }
            guard state.messages.count < RetentionRules.maximumMessages else {
                throw .maximumMessagesReached(state.messages.count)
            }
            if let image = content.image { try Self.check(image.imageIdentifier, is: .fullSize, in: state) }
            for point in content.bulletPoints { try Self.check(point.imageIdentifier, is: .bulletPoint, in: state) }
            let review: RetentionReviewState = heldForReview ? .pending : .approved
            let message = RetentionMessage(identifier: id, content: content, rawState: review.rawValue, uploaded: now)
            state.messages[RetentionState.key(id)] = message
            return message
        }
    }

    private static func check(
        _ id: UUID, is size: RetentionImage.Size, in state: RetentionState
    ) throws(RetentionMessagingError) {
        guard let image = state.image(id) else { throw .imageNotFound(id) }
        guard image.size == size else {
            throw .invalidImageSize(
                "the image \(RetentionMessagingError.text(id)) was uploaded as \(image.rawSize), "
                    + "and this place takes \(size.rawValue)")
        }
    }

    /// Deletes a message (Apple's `Delete Message`); the default messages that named it are
    /// no longer configured.
    /// - Throws: `.messageNotFound` or `.io`.
    public func deleteMessage(_ id: UUID) throws(RetentionMessagingError) {
        try files.update { state, _ throws(RetentionMessagingError) in
            guard state.message(id) != nil else { throw .messageNotFound(id) }
            state.messages[RetentionState.key(id)] = nil
            state.defaults.removeAll { $0.messageIdentifier == id }
        }
    }

    // MARK: - Review

    /// Approves or rejects an image, as Apple's review would (`store approve-image`).
    /// - Throws: `.imageNotFound` or `.io`.
    @discardableResult
    public func reviewImage(_ id: UUID, approve: Bool) throws(RetentionMessagingError) -> RetentionImage {
        try review(id, approve: approve, in: \.images, state: \.rawState, notFound: .imageNotFound(id))
    }

    /// Approves or rejects a message, as Apple's review would (`store approve-message`).
    /// - Throws: `.messageNotFound` or `.io`.
    @discardableResult
    public func reviewMessage(_ id: UUID, approve: Bool) throws(RetentionMessagingError) -> RetentionMessage {
        try review(id, approve: approve, in: \.messages, state: \.rawState, notFound: .messageNotFound(id))
    }

    /// Sets the review state of the image or message `id` among `items`.
    private func review<Item>(
        _ id: UUID, approve: Bool, in items: WritableKeyPath<RetentionState, [String: Item]>,
        state rawState: WritableKeyPath<Item, String>, notFound: RetentionMessagingError
    ) throws(RetentionMessagingError) -> Item {
        try files.update { state, _ throws(RetentionMessagingError) in
            guard var item = state[keyPath: items][RetentionState.key(id)] else { throw notFound }
            item[keyPath: rawState] = (approve ? RetentionReviewState.approved : .rejected).rawValue
            state[keyPath: items][RetentionState.key(id)] = item
            return item
        }
    }

    // MARK: - Default messages

    /// Configures the default message of a product and locale (Apple's `Configure Default
    /// Message`), replacing the one before: an approved message whose images are approved.
    /// - Throws: `.invalidProduct`, `.invalidLocale`, `.messageNotFound`, `.messageNotApproved`,
    ///   `.imageNotApproved` or `.io`.
    public func configureDefault(
        productID: String, locale: String, messageID: UUID
    ) throws(RetentionMessagingError) {
        try checkSubscription(productID)
        guard RetentionRules.isLocale(locale) else { throw .invalidLocale(locale) }
        try files.update { state, _ throws(RetentionMessagingError) in
            guard let message = state.message(messageID) else { throw .messageNotFound(messageID) }
            if let why = state.unshowable(message) { throw why }
            state.defaults.removeAll { $0.productID == productID && $0.locale == locale }
            state.defaults.append(.init(productID: productID, locale: locale, messageIdentifier: messageID))
        }
    }

    /// The default message of a product and locale (Apple's `Get Default Message`).
    /// - Throws: `.invalidProduct`, `.invalidLocale`, `.defaultMessageNotFound` or `.io`.
    public func defaultMessage(
        productID: String, locale: String
    ) throws(RetentionMessagingError) -> RetentionState.DefaultMessage {
        try checkSubscription(productID)
        guard RetentionRules.isLocale(locale) else { throw .invalidLocale(locale) }
        guard let found = try state().defaultMessage(productID: productID, locale: locale) else {
            throw .defaultMessageNotFound(productID: productID, locale: locale)
        }
        return found
    }

    /// Deletes the default message of a product and locale (Apple's `Delete Default Message`).
    /// - Throws: `.invalidProduct`, `.invalidLocale`, `.defaultMessageNotFound` or `.io`.
    public func deleteDefault(productID: String, locale: String) throws(RetentionMessagingError) {
        try checkSubscription(productID)
        guard RetentionRules.isLocale(locale) else { throw .invalidLocale(locale) }
        try files.update { state, _ throws(RetentionMessagingError) in
            guard state.defaultMessage(productID: productID, locale: locale) != nil else {
                throw .defaultMessageNotFound(productID: productID, locale: locale)
            }
            state.defaults.removeAll { $0.productID == productID && $0.locale == locale }
        }
    }

    private func checkSubscription(_ productID: String) throws(RetentionMessagingError) {
        guard let product = catalog.product(id: productID), product.kind == .autoRenewable else {
            throw .invalidProduct(productID)
        }
    }

    // MARK: - Realtime URLs

    /// Sets the realtime URL of `environment` (Apple's `Configure Realtime URL`). Production's
    /// needs a performance test that passed first.
    /// - Throws: `.invalidRealtimeURL`, `.noPassingPerformanceTest` or `.io`.
    public func setRealtimeURL(_ url: String, environment: AppStoreEnvironment) throws(RetentionMessagingError) {
        try RetentionRules.checkRealtimeURL(url)
        let now = clock.now
        try files.update { state, _ throws(RetentionMessagingError) in
            if environment == .production,
                !state.performanceTests.contains(where: { $0.status(at: now) == .pass })
            {
                throw .noPassingPerformanceTest
            }
            state.realtimeURLs[environment.rawValue] = url
        }
    }

    /// The realtime URL of `environment` (Apple's `Get Realtime URL`).
    /// - Throws: `.realtimeURLNotFound` or `.io`.
    public func realtimeURL(environment: AppStoreEnvironment) throws(RetentionMessagingError) -> String {
        guard let url = try state().realtimeURLs[environment.rawValue] else {
            throw .realtimeURLNotFound(environment: environment.rawValue)
        }
        return url
    }

    /// Deletes the realtime URL of `environment` (Apple's `Delete Realtime URL`).
    /// - Throws: `.realtimeURLNotFound` or `.io`.
    public func deleteRealtimeURL(environment: AppStoreEnvironment) throws(RetentionMessagingError) {
        try files.update { state, _ throws(RetentionMessagingError) in
            guard state.realtimeURLs.removeValue(forKey: environment.rawValue) != nil else {
                throw .realtimeURLNotFound(environment: environment.rawValue)
            }
        }
    }

    // MARK: - Performance tests

    /// Records the start of a performance test, unless one is under way.
    /// - Returns: nil when it was recorded; the test under way otherwise (nothing is recorded).
    /// - Throws: `.io`.
    public func begin(_ run: PerformanceTestRun) throws(RetentionMessagingError) -> PerformanceTestRun? {
        let now = clock.now
        return try files.update { state, _ throws(RetentionMessagingError) in
            if let running = state.performanceTests.first(where: { $0.status(at: now) == .pending }) { return running }
            state.performanceTests.append(run)
            state.performanceTests = Array(state.performanceTests.suffix(RetentionState.performanceTestLimit))
            return nil
        }
    }

    /// Records what a performance test measured.
    /// - Throws: `.io`.
    public func finish(performanceTest id: UUID, outcome: PerformanceTestRun.Outcome) throws(RetentionMessagingError) {
        try files.update { state, _ throws(RetentionMessagingError) in
            guard let index = state.performanceTests.firstIndex(where: { $0.requestID == id }) else { return }
            state.performanceTests[index].outcome = outcome
        }
    }

    // MARK: - The log of realtime exchanges

    /// Adds an exchange to the log (the newest `RetentionState.logLimit` are kept).
    /// - Throws: `.io`.
    public func record(_ exchange: RealtimeExchange) throws(RetentionMessagingError) {
        try files.update { state, _ throws(RetentionMessagingError) in
            state.exchanges.append(exchange)
            if state.exchanges.count > RetentionState.logLimit {
                state.exchanges.removeFirst(state.exchanges.count - RetentionState.logLimit)
            }
        }
    }

    /// Records what the customer chose after the exchange `requestIdentifier`.
    /// - Throws: `.io`.
    public func recordChoice(
        _ requestIdentifier: UUID, choice: String, transactionID: String?
    ) throws(RetentionMessagingError) {
        try files.update { state, _ throws(RetentionMessagingError) in
            guard let index = state.exchanges.lastIndex(where: { $0.requestIdentifier == requestIdentifier }) else {
                return
            }
            state.exchanges[index].choice = choice
            state.exchanges[index].choiceTransactionID = transactionID
        }
    }
}

extension LocalAppStore {
    /// Retention messaging: images, messages, default messages and realtime URLs uploaded
    /// through Apple's Retention Messaging API, kept in their own files beside the journal.
    public nonisolated var retention: RetentionMessaging { RetentionMessaging(store: self) }
}
