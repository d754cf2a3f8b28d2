import Foundation
import LocalAppStore
import Receipts
import StoreCore

/// The Retention Messaging API: images, messages, default messages, the realtime URL and the
/// performance test, answered from the store's retention messaging part (`LocalAppStore.retention`).
/// A refused request changes nothing and gets Apple's error body.
extension AppStoreServer {
    /// The path prefix of Upload Image, whose bodies may be up to `RetentionRules.maximumImageBytes`.
    static let imagePathPrefix = "/inApps/v1/messaging/image/"

    func retention(
        _ route: RetentionRoute, _ request: HTTPRequest, _ context: RequestContext
    ) async throws -> HTTPResponse {
        let retention = store.retention
        let held = context.snapshot.settings.retentionReview
        do {
            switch route {
            case .uploadImage(let id):
                let size = try Self.imageSize(request)
                try retention.uploadImage(try Self.identifier(id), png: request.body, size: size, heldForReview: held)
                return .empty(200)
            case .deleteImage(let id):
                try retention.deleteImage(try Self.identifier(id))
                return .empty(200)
            case .imageList:
                let images = try retention.state().imageList.map {
                    GetImageListResponse.Item(
                        imageIdentifier: Self.text($0.identifier), imageState: $0.rawState, imageSize: $0.rawSize)
                }
                return try json(GetImageListResponse(imageIdentifiers: images))
            case .uploadMessage(let id):
                let content = try RetentionMessage.Content(uploadMessageRequestBody: request.body)
                try retention.uploadMessage(try Self.identifier(id), content: content, heldForReview: held)
                return .empty(200)
            case .deleteMessage(let id):
                try retention.deleteMessage(try Self.identifier(id))
                return .empty(200)
            case .messageList:
                let messages = try retention.state().messageList.map {
                    GetMessageListResponse.Item(messageIdentifier: Self.text($0.identifier), messageState: $0.rawState)
                }
                return try json(GetMessageListResponse(messageIdentifiers: messages))
            case .configureDefaultMessage(let product, let locale):
                let body: DefaultConfiguration = try Self.decode(request.body, fields: [:])
                guard let text = body.messageIdentifier else { throw APIError.generalBadRequest }
                try retention.configureDefault(productID: product, locale: locale, messageID: try Self.identifier(text))
                return .empty(200)
            case .getDefaultMessage(let product, let locale):
                let found = try retention.defaultMessage(productID: product, locale: locale)
                return try json(DefaultConfiguration(messageIdentifier: Self.text(found.messageIdentifier)))
            case .deleteDefaultMessage(let product, let locale):
                try retention.deleteDefault(productID: product, locale: locale)
                return .empty(200)
            case .configureRealtimeURL:
                let body: RealtimeURLBody = try Self.decode(
                    request.body, fields: ["realtimeURL": .badRequestRealtimeURL])
                guard let url = body.realtimeURL else { throw APIError.badRequestRealtimeURL }
                try retention.setRealtimeURL(url, environment: context.environment)
                return .empty(200)
            case .getRealtimeURL:
                return try json(
                    RealtimeURLBody(realtimeURL: try retention.realtimeURL(environment: context.environment)))
            case .deleteRealtimeURL:
                try retention.deleteRealtimeURL(environment: context.environment)
                return .empty(200)
            case .initiatePerformanceTest:
                return try await initiatePerformanceTest(request, context)
            case .performanceTestResult(let id):
                return try performanceTestResult(id, context)
            }
        } catch let error as RetentionMessagingError {
            throw Self.apiError(error)
        }
    }

    /// Starts a performance test against the Sandbox realtime URL, about a subscription.
    private func initiatePerformanceTest(_ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse
    {
        let body: PerformanceTestRequest = try Self.decode(
            request.body, fields: ["originalTransactionId": .invalidPerformanceTestRequest])
        guard let id = body.originalTransactionId, Self.isNumericID(id) else {
            throw APIError.invalidPerformanceTestRequest
        }
        guard
            let subscription = context.snapshot.subscriptions.first(where: {
                $0.lifecycle.originalTransactionID == id
            })?.lifecycle
        else { throw APIError.originalTransactionIdNotFound }
        let url = try store.retention.realtimeURL(environment: .sandbox)
        let run = PerformanceTestRun(
            originalTransactionID: id, target: url,
            config: .standard(responseTimeThreshold: context.snapshot.settings.realtimeTimeoutMilliseconds),
            started: context.snapshot.now)
        try context.checkReads()
        guard try store.retention.begin(run) == nil else { throw APIError.existingPerformanceTestRun }
        let locale = await store.settings.locale.replacingOccurrences(of: "_", with: "-")
        await performanceTests.start(
            run, productID: subscription.productID, userLocale: locale, snapshot: context.snapshot)
        return try json(PerformanceTestResponse(config: run.config, requestId: Self.text(run.requestID)))
    }

    /// A performance test's results: `PENDING` while it runs, then `PASS` or `FAIL`.
    private func performanceTestResult(_ id: String, _ context: RequestContext) throws -> HTTPResponse {
        guard let uuid = UUID(uuidString: id) else { throw APIError.invalidRequestId }
        guard let run = try store.retention.state().performanceTest(uuid) else {
            throw APIError.performanceTestRunNotFound
        }
        let status = run.status(at: context.snapshot.now)
        guard let outcome = run.outcome else {
            return try json(
                PerformanceTestResultResponse(
                    config: run.config, target: run.target, result: status.rawValue, successRate: nil,
                    numPending: run.config.totalRequests, responseTimes: nil, failures: nil))
        }
        return try json(
            PerformanceTestResultResponse(
                config: run.config, target: run.target, result: status.rawValue, successRate: outcome.successRate,
                numPending: outcome.pending,
                responseTimes: .init(
                    average: outcome.average, p50: outcome.p50, p90: outcome.p90, p95: outcome.p95, p99: outcome.p99),
                failures: outcome.failures))
    }

    /// `imageSize` of Upload Image: `FULL_SIZE` (the default) or `BULLET_POINT`.
    private static func imageSize(_ request: HTTPRequest) throws -> RetentionImage.Size {
        guard let text = try request.parameter("imageSize", invalid: .badRequestImageSize).last else {
            return .fullSize
        }
        guard let size = RetentionImage.Size(rawValue: text) else { throw APIError.badRequestImageSize }
        return size
    }

    /// An image or message identifier of a path or body: a UUID.
    private static func identifier(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw APIError.generalBadRequest }
        return id
    }

    private static func text(_ id: UUID) -> String { id.uuidString.lowercased() }

    /// Apple's error for a refusal of the retention messaging part.
    static func apiError(_ error: RetentionMessagingError) -> APIError {
        switch error {
        case .missingField: .generalBadRequest
        case .invalidImage: .invalidImage
        case .invalidImageSize: .badRequestImageSize
        case .headerTooLong: .headerTooLong
        case .bodyTooLong: .bodyTooLong
        case .altTextTooLong: .altTextTooLong
        case .tooManyBulletPoints: .tooManyBulletPoints
        case .bulletPointTextTooLong: .bulletPointTextTooLong
        case .aboveImageRequiresImage: .aboveImageRequiresAnImage
        case .invalidLocale: .invalidLocale
        case .invalidProduct: .invalidProductId
        case .invalidRealtimeURL: .badRequestRealtimeURL
        case .imageNotFound: .imageNotFound
        case .messageNotFound: .messageNotFound
        case .defaultMessageNotFound: .defaultMessageNotFound
        case .realtimeURLNotFound: .realtimeURLNotFound
        case .imageAlreadyExists: .imageAlreadyExists
        case .messageAlreadyExists: .messageAlreadyExists
        case .maximumImagesReached: .maximumNumberOfImagesReached
        case .maximumMessagesReached: .maximumNumberOfMessagesReached
        case .messageNotApproved: .messageNotApproved
        case .imageNotApproved: .imageNotApproved
        case .imageInUse: .imageInUse
        case .noPassingPerformanceTest: .forbiddenNoPassingTest
        case .io: .generalInternal
        }
    }
}
