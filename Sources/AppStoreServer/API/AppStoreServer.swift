import Crypto
import Foundation
import LocalAppStore
import Receipts
import StoreCore

/// The local App Store Server: Apple's App Store Server API and `verifyReceipt` over HTTP, on
/// libmicrohttpd, answered from a `LocalAppStore`'s journal as it is at each request (so the
/// CLI, the TUI and the app, in any process, show in the answers at once).
///
/// Every `/inApps` request needs an ES256 JWT signed by the API key (`APICredentials`);
/// a refused token gets 401 with no body, as Apple's. GET requests never write the journal.
/// `POST /ocsp` answers OCSP for the store's certificates, so online checks pass too.
public final class AppStoreServer: Sendable {
    /// How the server listens and what it says. Immutable.
    public struct Configuration: Sendable {
        /// Where and how the HTTP daemon listens.
        public var http: MicroHTTPDaemon.Configuration
        /// The environment to answer and sign as; nil follows the store's `environment` setting.
        public var environment: AppStoreEnvironment?
        /// Receives one line per request: method, path, status, milliseconds, and for a request
        /// refused because the store's files could not be read, the file and what is wrong.
        public var log: (@Sendable (String) -> Void)?
        /// Whether requests that only read are answered on the HTTP thread from the store as
        /// it is (`answerNow`); false sends every request through the store's actor. A switch
        /// for the bench's comparison only, hence `package`.
        package var answersReadsOnHTTPThreads = true
        /// Whether answers that follow from the store's state alone are kept until the state
        /// changes (`AnswerCache`); false computes each one. A switch for the bench's
        /// comparison only, hence `package`.
        package var keepsAnswers = true
        /// How the server sends the store's notifications; nil sends none.
        public var notifications: NotificationSender.Configuration?

        /// Creates a configuration.
        public init(
            http: MicroHTTPDaemon.Configuration = .init(), environment: AppStoreEnvironment? = nil,
            log: (@Sendable (String) -> Void)? = nil, notifications: NotificationSender.Configuration? = nil
        ) {
            self.http = http
            self.environment = environment
            self.log = log
            self.notifications = notifications
        }

        /// This configuration with the bench's switches set: reads answered on the HTTP
        /// threads or through the store's actor, answers kept or computed each time.
        package func benchmarking(answersReadsOnHTTPThreads: Bool = true, keepsAnswers: Bool) -> Self {
            var configuration = self
            configuration.answersReadsOnHTTPThreads = answersReadsOnHTTPThreads
            configuration.keepsAnswers = keepsAnswers
            return configuration
        }
    }

    /// The store answered from.
    public let store: LocalAppStore
    /// What tokens must carry.
    public let tokens: APITokenVerifier
    let configuration: Configuration
    private let daemon: MicroHTTPDaemon.Box
    private let answers = AnswerCache()
    /// Sends the store's notifications when the configuration asks for it (started by its
    /// owner with `start()`; `stop()` stops it with the server).
    public let notificationSender: NotificationSender?
    /// Runs the performance tests `Initiate Performance Test` starts (stopped with the server).
    let performanceTests: PerformanceTestRunner

    /// Starts the server over `store`, accepting tokens signed with `credentials`' key.
    /// - Throws: `APICredentials.Failure` for an unreadable key, `HTTPServerError` when it cannot listen.
    public init(store: LocalAppStore, credentials: APICredentials, configuration: Configuration = .init()) throws {
        self.store = store
        self.configuration = configuration
        self.tokens = APITokenVerifier(
            keyID: credentials.keyID, issuerID: credentials.issuerID, bundleID: store.configuration.bundleID,
            publicKey: try credentials.publicKey())
        self.notificationSender = configuration.notifications.map {
            NotificationSender(store: store, configuration: $0)
        }
        self.performanceTests = PerformanceTestRunner(store: store)
        self.daemon = MicroHTTPDaemon.Box()
        var immediate: MicroHTTPDaemon.ImmediateHandler?
        if configuration.answersReadsOnHTTPThreads {
            immediate = { @Sendable [weak self] request in self?.respondNow(to: request) }
        }
        var http = configuration.http
        if http.largeBodyPathPrefix == nil {
            // Upload Image's PNGs may be larger than any other body.
            http.largeBodyPathPrefix = Self.imagePathPrefix
            http.largeBodyBytes = RetentionRules.maximumImageBytes
        }
        let daemon = try MicroHTTPDaemon(configuration: http, immediate: immediate) {
            [weak self] request in
            guard let self else { return .empty(503) }
            return await self.respond(to: request)
        }
        self.daemon.value = daemon
    }

    /// The port the server listens on.
    public var port: UInt16 { daemon.value?.port ?? 0 }

    /// The base URL a backend points its client at, e.g. `http://127.0.0.1:8080`.
    public var baseURL: URL {
        let host = configuration.http.host == "localhost" ? "127.0.0.1" : configuration.http.host
        let shown = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        return URL(string: "http://\(shown):\(port)")!
    }

    /// Finishes the requests being answered and stops listening.
    public func stop() async {
        await daemon.value?.stop()
        await notificationSender?.stop()
        await performanceTests.stop()
    }

    /// Answers one request and logs it.
    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let start = ContinuousClock.now
        let answer = await answered(request)
        log(request, answer, since: start)
        return answer.response
    }

    /// Answers one request and logs it on the caller's thread, when that needs no wait for
    /// the store's actor (`answerNow`); nil otherwise.
    func respondNow(to request: HTTPRequest) -> HTTPResponse? {
        let start = ContinuousClock.now
        guard let answer = answeredNow(request) else { return nil }
        log(request, answer, since: start)
        return answer.response
    }

    private func log(_ request: HTTPRequest, _ answer: Answer, since start: ContinuousClock.Instant) {
        guard let log = configuration.log else { return }
        let elapsed = ContinuousClock.now - start
        let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        let reason = answer.failure.map { " (\(Self.reason($0)))" } ?? ""
        // A decoded NUL is logged as it came, not written into the log.
        let path =
            request.path.utf8.contains(0) ? request.path.replacingOccurrences(of: "\u{0}", with: "%00") : request.path
        log("\(request.method) \(path) \(answer.response.status) \(String(format: "%.2f", ms))ms\(reason)")
    }

    /// Routes, authenticates and answers one request (no logging).
    public func answer(_ request: HTTPRequest) async -> HTTPResponse {
        await answered(request).response
    }

    /// An answer, and the failure to read the store's files that made it a refusal, if one did.
    private struct Answer {
        var response: HTTPResponse
        var failure: LocalAppStoreError?
    }

    private func answered(_ request: HTTPRequest) async -> Answer {
        let route: Route
        switch admit(request) {
        case .answered(let response): return Answer(response: response)
        case .route(let admitted): route = admitted
        }
        if route == .ocsp { return Answer(response: ocsp(request)) }
        // What this request's lookups in the store's archives meet, whatever answers it.
        let reads = ArchiveReadWatch()
        if route == .verifyReceipt {
            // Apple's "internal data access error", retryable: verifyReceipt's own status codes.
            let response = await reads.watch { await verifyReceipt(request) }
            return reads.failure.map { Answer(response: Self.status(21009), failure: $0) } ?? Answer(response: response)
        }
        let snapshot: StoreSnapshot
        do {
            snapshot = try await store.server.snapshot()
        } catch {
            return Answer(response: APIError.generalInternal.response, failure: error)
        }
        let context = context(snapshot, reads)
        if let answer = read(route, request, context) { return answer }
        do {
            let response = try await reads.watch { try await write(route, request, context) }
            // A write may have journaled notifications (an extension's RENEWAL_EXTENDED).
            if request.method != "GET" { notificationSender?.wake() }
            return checked(response, reads)
        } catch let error as APIError {
            return checked(error.response, reads)
        } catch {
            return checked(APIError.generalInternal.response, reads)
        }
    }

    /// `response`, unless a lookup in the store's archives failed while it was made: then
    /// Apple's general internal error (what was read is not all there is), with the failure.
    private func checked(_ response: HTTPResponse, _ reads: ArchiveReadWatch) -> Answer {
        guard let failure = reads.failure else { return Answer(response: response) }
        return Answer(response: APIError.generalInternal.response, failure: failure)
    }

    /// What a log line says of a failure to read the store's files: the file, what is wrong.
    static func reason(_ failure: LocalAppStoreError) -> String {
        switch failure {
        case .corrupt(let path, _, let reason), .io(let path, let reason): "\(path): \(reason)"
        default: failure.description
        }
    }

    /// The answer to a request that only reads, made on the caller's thread from the store
    /// as it is now (`LocalAppStore.currentSnapshot()`, no wait for the store's actor), and
    /// every refusal (404, 405, 401). Nil when the request writes, is `verifyReceipt` or
    /// OCSP, or the journal changed since the store last read it: `answer` then answers it.
    /// Same bytes as `answer` would give: the same routing, checks and signing path.
    public func answerNow(_ request: HTTPRequest) -> HTTPResponse? {
        answeredNow(request)?.response
    }

    private func answeredNow(_ request: HTTPRequest) -> Answer? {
        switch admit(request) {
        case .answered(let response): return Answer(response: response)
        case .route(let route):
            guard route.readsOnly, let snapshot = store.server.currentSnapshot() else { return nil }
            return read(route, request, context(snapshot, ArchiveReadWatch()))
        }
    }

    /// What routing and authentication decide before the store is read.
    private enum Admission {
        /// Refused (404, 405, 401): the answer.
        case answered(HTTPResponse)
        /// Admitted to this route.
        case route(Route)
    }

    private func admit(_ request: HTTPRequest) -> Admission {
        let route: Route
        switch Route.resolve(method: request.method, path: request.path) {
        case .notFound: return .answered(APIError.pathNotFound.response)
        case .wrongMethod(let allowed):
            var response = APIError.methodNotAllowed.response
            response.headers.append(.init("Allow", allowed.joined(separator: ", ")))
            return .answered(response)
        case .found(let found): route = found
        }
        guard route.needsToken else { return .route(route) }
        let now = store.configuration.clock.now
        if case .failure = tokens.verify(authorization: request.header("Authorization"), now: now) {
            return .answered(.empty(401))
        }
        // A NUL in a value is refused by the parameter's own check (`HTTPRequest.parameter`).
        if request.hasNULInParameterName { return .answered(APIError.generalBadRequest.response) }
        return .route(route)
    }

    private func context(_ snapshot: StoreSnapshot, _ reads: ArchiveReadWatch) -> RequestContext {
        RequestContext(
            snapshot: snapshot, override: configuration.environment, bundleID: store.configuration.bundleID,
            reads: reads)
    }

    /// The answer of a route that only reads (`Route.readsOnly`), kept for the state when
    /// it follows from the state alone; nil for the other routes.
    private func read(_ route: Route, _ request: HTTPRequest, _ context: RequestContext) -> Answer? {
        guard configuration.keepsAnswers, route.answerFollowsFromState else {
            return context.reads.watch { compute(route, request, context) }.map { checked($0, context.reads) }
        }
        let key = AnswerCache.Key(path: request.path, query: request.query)
        let publication = context.snapshot.publication
        if let kept = answers.answer(for: key, publication: publication) { return Answer(response: kept) }
        guard let answer = context.reads.watch({ compute(route, request, context) }).map({ checked($0, context.reads) })
        else { return nil }
        // A failure to sign (a damaged chain) or to read is not kept: the next request tries again.
        if answer.response.status < 500 { answers.keep(answer.response, for: key, publication: publication) }
        return answer
    }

    private func compute(_ route: Route, _ request: HTTPRequest, _ context: RequestContext) -> HTTPResponse? {
        do {
            switch route {
            case .transactionInfo(let id): return try transactionInfo(id, context.viewing(accountOf: id))
            case .appTransactionInfo(let id): return try appTransactionInfo(id, context)
            case .historyV1(let id): return try history(id, request, context.viewing(accountOf: id), version: 1)
            case .historyV2(let id): return try history(id, request, context.viewing(accountOf: id), version: 2)
            case .orderLookup(let id): return try orderLookup(id, context)
            case .refundHistory(let id): return try refundHistory(id, request, context.viewing(accountOf: id))
            case .subscriptionStatuses(let id):
                return try subscriptionStatuses(id, request, context.viewing(accountOf: id))
            case .massExtendStatus(let product, let identifier):
                return try massExtendStatus(product, identifier, context)
            case .extendRenewalDate, .massExtendRenewalDate, .consumptionV1, .consumptionV2, .appAccountToken,
                .verifyReceipt, .ocsp,
                .requestTestNotification, .testNotificationStatus, .notificationHistory, .finishTransaction, .retention:
                return nil
            }
        } catch let error as APIError {
            return error.response
        } catch {
            return APIError.generalInternal.response
        }
    }

    /// The answer of a route that writes through the store's actor.
    private func write(_ route: Route, _ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        switch route {
        case .extendRenewalDate(let id): return try await extendRenewalDate(id, request, context)
        case .massExtendRenewalDate: return try await massExtendRenewalDate(request, context)
        case .consumptionV1(let id): return try await consumption(id, request, context, version: 1)
        case .consumptionV2(let id): return try await consumption(id, request, context, version: 2)
        case .appAccountToken(let id): return try await setAppAccountToken(id, request, context)
        case .requestTestNotification: return try await requestTestNotification(context)
        case .testNotificationStatus(let token): return try await testNotificationStatus(token, context)
        case .notificationHistory: return try await notificationHistory(request, context)
        case .finishTransaction(let id): return try await finishTransaction(id, context)
        case .retention(let route): return try await retention(route, request, context)
        case .verifyReceipt: return await verifyReceipt(request)
        case .ocsp: return ocsp(request)
        case .transactionInfo, .appTransactionInfo, .historyV1, .historyV2, .orderLookup, .refundHistory,
            .subscriptionStatuses,
            .massExtendStatus:
            return compute(route, request, context) ?? APIError.generalInternal.response
        }
    }

    /// `POST /ocsp`: the store's OCSP responder (RFC 6960), for the URL the leaf and
    /// intermediate certificates name (`server-url` + `/ocsp`); no token, as Apple's responder.
    func ocsp(_ request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: [.init("Content-Type", "application/ocsp-response")],
            body: store.receipts.respondToOCSP(request.body))
    }

    // MARK: - Helpers for the endpoints

    /// A JSON answer of an Apple model.
    func json<T: Encodable>(_ value: T, status: Int = 200) throws -> HTTPResponse {
        if let info = value as? TransactionInfoResponse, let data = FastJSON.encode(info) { return .json(status, data) }
        if let history = value as? HistoryResponse, let data = FastJSON.encode(history) { return .json(status, data) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return .json(status, try encoder.encode(value))
    }

    /// The transaction signed as the app gets it (the store's one signing path).
    func signed(_ t: StoreCore.Transaction, _ context: RequestContext) throws -> String {
        do {
            return try store.server.signedTransaction(t, in: context.snapshot, environment: context.override)
        } catch {
            throw APIError.generalInternal
        }
    }

    /// The account's transaction a path's ID names, checked as Apple checks it.
    func transaction(
        _ id: String, _ context: RequestContext, invalid: APIError = .invalidTransactionId
    ) throws -> StoreCore.Transaction {
        guard Self.isNumericID(id) else { throw invalid }
        guard let t = context.snapshot.transaction(id) else { throw APIError.transactionIdNotFound }
        return t
    }

    /// Whether `id` has the shape of an App Store transaction ID (digits, at most 20).
    static func isNumericID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 20 && id.allSatisfy { $0.isASCII && $0.isNumber }
    }
}

/// What every endpoint answers from: the store at the request, and what to say about the app
/// (the store's `environment` and `app-apple-id` settings, the environment overridden by
/// `Configuration.environment`).
struct RequestContext: Sendable {
    let snapshot: StoreSnapshot
    /// The server's own environment, when it answers as another than the store's.
    let override: AppStoreEnvironment?
    let bundleID: String
    /// What the request's lookups in the store's archives met (a failure refuses it).
    let reads: ArchiveReadWatch

    /// The context of a request about transaction `id`: the store as its customer's account
    /// sees it (`StoreSnapshot.viewing(accountOf:)`).
    func viewing(accountOf id: String) -> RequestContext {
        RequestContext(snapshot: snapshot.viewing(accountOf: id), override: override, bundleID: bundleID, reads: reads)
    }

    /// Throws Apple's general internal error when a lookup of this request failed: before a
    /// write (one decided on what could not be read is never made), or to stop a walk early.
    func checkReads() throws {
        if reads.failure != nil { throw APIError.generalInternal }
    }

    /// The environment answered and signed as.
    var environment: AppStoreEnvironment { override ?? snapshot.settings.environment }
    /// The app's Apple ID.
    var appAppleID: Int64 { snapshot.settings.appAppleID }
}

extension MicroHTTPDaemon {
    /// Holds the daemon for the server that made it (set once, after its handler exists).
    final class Box: @unchecked Sendable {
        var value: MicroHTTPDaemon?
    }
}
