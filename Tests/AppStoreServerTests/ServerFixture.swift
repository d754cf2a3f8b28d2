import AppStoreServer
import Catalog
import Crypto
import Foundation
import LocalAppStore
import Receipts
import StoreCore
import StoreTesting
import SystemIO
import TestSupport
import Testing

/// A real LocalAppStore in a temporary directory, a real AppStoreServer over it on 127.0.0.1,
/// and a client that signs its own JWTs with the API key.
final class ServerFixture: @unchecked Sendable {
    static let coins = "com.test.coins"
    static let pro = "com.test.pro"
    static let monthly = "com.test.plus.monthly"
    static let yearly = "com.test.plus.yearly"

    /// The data directory, removed when the last fixture serving it goes away.
    let scratch: TemporaryDirectory
    var directory: URL { scratch.url }
    let clock: ManualClock
    let store: LocalAppStore
    let credentials: APICredentials
    let server: AppStoreServer
    let client: HTTPClient
    private var events: AsyncStream<BackendEvent>.Iterator

    /// - Parameters:
    ///   - directory: the data directory to serve (another fixture's `scratch`, its server
    ///     stopped); a new one by default.
    ///   - log: receives the server's log lines.
    init(
        http: MicroHTTPDaemon.Configuration = .init(), environment: AppStoreEnvironment? = nil,
        directory: TemporaryDirectory? = nil,
        log: (@Sendable (String) -> Void)? = nil
    ) async throws {
        scratch = try directory ?? TemporaryDirectory(prefix: "AppStoreServerTests")
        clock = ManualClock()
        store = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: Self.catalog(),
                stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: scratch.url),
                clock: clock, initialLatencyMilliseconds: 0))
        credentials = try APICredentials.loadOrCreate(dataDirectory: scratch.url)
        server = try AppStoreServer(
            store: store, credentials: credentials, configuration: .init(http: http, environment: environment, log: log)
        )
        client = HTTPClient(port: server.port)
        events = await store.events().makeAsyncIterator()
    }

    /// Stops the server (the directory goes with the fixture).
    func close() async {
        await server.stop()
    }

    var journal: URL {
        LocalAppStoreConfiguration.stateDirectory(inDataDirectory: directory).appendingPathComponent("journal.jsonl")
    }

    /// Every file of the store's state (the journal, its history file and index, the chain…),
    /// by path relative to the state directory: what "changes nothing" compares. Lock files,
    /// which hold no state, are left out.
    func stateFiles() throws -> [String: Data] {
        let state = LocalAppStoreConfiguration.stateDirectory(inDataDirectory: directory).standardizedFileURL
        var files: [String: Data] = [:]
        let walker = FileManager.default.enumerator(at: state, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true,
                !url.lastPathComponent.hasSuffix(".lock")
            else { continue }
            files[String(url.standardizedFileURL.path.dropFirst(state.path.count))] = try Data(contentsOf: url)
        }
        return files
    }

    /// Buys a product and waits until the store decided it.
    @discardableResult
    func buy(_ productID: String) async throws -> StoreCore.Transaction {
        let queued = try await store.add(Payment(productID: productID))
        while let event = await events.next() {
            if case .transactionsUpdated(let updated) = event,
                let decided = updated.first(where: { $0.transactionID == queued.transactionID })
            {
                try await store.finish(transactionID: decided.transactionID)
                return decided
            }
        }
        throw StoreError.unknown("the event stream ended")
    }

    // MARK: - Tokens

    struct Claims {
        var kid: String?
        var alg = "ES256"
        var iss: String?
        var aud: String = "appstoreconnect-v1"
        var bid: String = "com.storefront.demo"
        var iat: Double?
        var exp: Double?
    }

    /// A token as Apple's libraries make it (iat now, exp in 5 minutes), changed by `change`.
    func token(key: PrivateKey? = nil, _ change: (inout Claims) -> Void = { _ in }) throws -> String {
        let now = clock.now.timeIntervalSince1970
        var claims = Claims(kid: credentials.keyID, iss: credentials.issuerID, iat: now, exp: now + 300)
        change(&claims)
        var header: [String: Any] = ["alg": claims.alg, "typ": "JWT"]
        if let kid = claims.kid { header["kid"] = kid }
        var payload: [String: Any] = ["aud": claims.aud, "bid": claims.bid]
        if let iss = claims.iss { payload["iss"] = iss }
        if let iat = claims.iat { payload["iat"] = Int(iat) }
        if let exp = claims.exp { payload["exp"] = Int(exp) }
        let input =
            Base64URL.encode(try JSONSerialization.data(withJSONObject: header, options: .sortedKeys))
            + "." + Base64URL.encode(try JSONSerialization.data(withJSONObject: payload, options: .sortedKeys))
        let signingKey = try key ?? PrivateKey(pem: credentials.privateKeyPEM())
        return input + "." + Base64URL.encode(try ECDSA.signES256(Array(input.utf8), key: signingKey))
    }

    /// An authenticated API request.
    func api(_ method: String, _ path: String, body: Any? = nil) async throws -> HTTPClient.Answer {
        let data = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        return try await client.send(
            method, path, headers: ["Authorization": "Bearer \(try token())", "Content-Type": "application/json"],
            body: data)
    }

    /// The payload of a JWS, decoded as JSON.
    static func payload(_ jws: String) throws -> [String: Any] {
        let parts = jws.split(separator: ".")
        try #require(parts.count == 3)
        let bytes = try #require(Base64URL.decode(parts[1]))
        return try #require(JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    static func catalog() throws -> StoreKitConfiguration {
        let json = StoreKitDocument.document(
            identifier: "SERVER",
            products: [
                StoreKitDocument.product(coins, type: "Consumable", price: "0.99", name: "Coins"),
                StoreKitDocument.product(pro, type: "NonConsumable", price: "9.99", name: "Pro"),
            ],
            subscriptions: [
                StoreKitDocument.subscription(monthly, period: "P1M", price: "2.99", name: "Monthly", level: 2),
                StoreKitDocument.subscription(yearly, period: "P1Y", price: "29.99", name: "Yearly", level: 1),
            ])
        return try StoreKitConfiguration.decode(data: Data(json.utf8), file: "Server.storekit")
    }
}
