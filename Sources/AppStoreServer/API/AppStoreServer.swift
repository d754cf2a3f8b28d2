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
        /// Receives one line per request: method, path, status, milliseconds.
        public var log: (@Sendable (String) -> Void)?
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
    }

    /// The store answered from.
    public let store: LocalAppStore
    /// What tokens must carry.
    public let tokens: APITokenVerifier
    let configuration: Configuration
    private let daemon: MicroHTTPDaemon.Box
    /// Sends the store's notifications when the configuration asks for it (started by its
    /// owner with `start()`; `stop()` stops it with the server).
    public let notificationSender: NotificationSender?

    /// Starts the server over `store`, accepting tokens signed with `credentials`' key.
    /// - Throws: `APICredentials.Failure` for an unreadable key, `HTTPServerError` when it cannot listen.
    public init(store: LocalAppStore, credentials: APICredentials, configuration: Configuration = .init()) throws {
        self.store = store
        self.configuration = configuration
        self.tokens = APITokenVerifier(
            keyID: credentials.keyID, issuerID: credentials.issuerID, bundleID: store.configuration.bundleID,
            publicKey: try credentials.publicKey())
        self.notificationSender = configuration.notifications.map { NotificationSender(store: store, configuration: $0) }
        self.daemon = MicroHTTPDaemon.Box()
        let daemon = try MicroHTTPDaemon(configuration: configuration.http) { [weak self] request in
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
    }

    /// Answers one request and logs it.
    func respond(to request: HTTPRequest) async -> HTTPResponse {
        let clock = ContinuousClock()
        let start = clock.now
        let response = await answer(request)
        if let log = configuration.log {
            let elapsed = clock.now - start
            let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            log("\(request.method) \(request.path) \(response.status) \(String(format: "%.2f", ms))ms")
        }
        return response
    }

    /// Routes, authenticates and answers one request (no logging).
    public func answer(_ request: HTTPRequest) async -> HTTPResponse {
        let route: Route
        switch Route.resolve(method: request.method, path: request.path) {
        case .notFound: return .empty(404)
        case .wrongMethod(let allowed): return .empty(405, headers: [.init("Allow", allowed.joined(separator: ", "))])
        case .found(let found): route = found
        }
        if route == .verifyReceipt { return await verifyReceipt(request) }
        if route == .ocsp { return ocsp(request) }
        let now = store.configuration.clock.now
        if case .failure = tokens.verify(authorization: request.header("Authorization"), now: now) { return .empty(401) }
        let snapshot: StoreSnapshot
        do {
            snapshot = try await store.snapshot()
        } catch {
            return APIError.generalInternal.response
        }
        let context = RequestContext(snapshot: snapshot, override: configuration.environment, bundleID: store.configuration.bundleID)
        do {
            let response = try await answer(route, request, context)
            // A write may have journaled notifications (an extension's RENEWAL_EXTENDED).
            if request.method != "GET" { notificationSender?.wake() }
            return response
        } catch let error as APIError {
            return error.response
        } catch {
            return APIError.generalInternal.response
        }
    }

    private func answer(_ route: Route, _ request: HTTPRequest, _ context: RequestContext) async throws -> HTTPResponse {
        switch route {
        case .transactionInfo(let id): return try transactionInfo(id, context)
        case .appTransactionInfo(let id): return try appTransactionInfo(id, context)
        case .historyV1(let id): return try history(id, request, context, version: 1)
        case .historyV2(let id): return try history(id, request, context, version: 2)
        case .orderLookup(let id): return try orderLookup(id, context)
        case .refundHistory(let id): return try refundHistory(id, request, context)
        case .subscriptionStatuses(let id): return try subscriptionStatuses(id, request, context)
        case .extendRenewalDate(let id): return try await extendRenewalDate(id, request, context)
        case .massExtendRenewalDate: return try await massExtendRenewalDate(request, context)
        case .massExtendStatus(let product, let identifier): return try massExtendStatus(product, identifier, context)
        case .consumptionV1(let id): return try await consumption(id, request, context, version: 1)
        case .consumptionV2(let id): return try await consumption(id, request, context, version: 2)
        case .appAccountToken(let id): return try await setAppAccountToken(id, request, context)
        case .requestTestNotification: return try await requestTestNotification(context)
        case .testNotificationStatus(let token): return try await testNotificationStatus(token, context)
        case .notificationHistory: return try await notificationHistory(request, context)
        case .verifyReceipt: return await verifyReceipt(request)
        case .ocsp: return ocsp(request)
        }
    }

    /// `POST /ocsp`: the store's OCSP responder (RFC 6960), for the URL the leaf and
    /// intermediate certificates name (`server-url` + `/ocsp`); no token, as Apple's responder.
    func ocsp(_ request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(
            status: 200, headers: [.init("Content-Type", "application/ocsp-response")], body: store.respondToOCSP(request.body))
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
            return try store.signedTransaction(t, in: context.snapshot, environment: context.override)
        } catch {
            throw APIError.generalInternal
        }
    }

    /// The account's transaction a path's ID names, checked as Apple checks it.
    func transaction(_ id: String, _ context: RequestContext, invalid: APIError = .invalidTransactionId) throws -> StoreCore.Transaction {
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
