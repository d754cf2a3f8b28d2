import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Verifies purchases with a server that speaks Apple's `verifyReceipt` JSON protocol (Apple's
/// own endpoints, or the app's server relaying them): the receipt goes to production first, to
/// the sandbox on status 21007, and back to production on 21008. A malformed answer or a
/// timeout is "unable to complete", never "valid".
public struct RemoteReceiptVerifier: PurchaseVerifier {
    /// Where and how to ask. Immutable.
    public struct Configuration: Sendable, Hashable {
        /// The production endpoint (Apple's: https://buy.itunes.apple.com/verifyReceipt).
        public var productionURL: URL
        /// The sandbox endpoint (Apple's: https://sandbox.itunes.apple.com/verifyReceipt).
        public var sandboxURL: URL
        /// The app's shared secret (`password`), for auto-renewable subscriptions.
        public var sharedSecret: String?
        /// Ask for only the latest renewal of each subscription (`exclude-old-transactions`).
        public var excludeOldTransactions: Bool
        /// The app's bundle identifier; the answer's receipt must be for it.
        public var bundleID: String?
        /// How long one request may take, in seconds.
        public var timeout: TimeInterval
        /// Which endpoint to ask first.
        public var startWithSandbox: Bool

        /// Creates a configuration.
        public init(
            productionURL: URL, sandboxURL: URL, sharedSecret: String? = nil, excludeOldTransactions: Bool = false,
            bundleID: String? = nil, timeout: TimeInterval = 30, startWithSandbox: Bool = false
        ) {
            self.productionURL = productionURL
            self.sandboxURL = sandboxURL
            self.sharedSecret = sharedSecret
            self.excludeOldTransactions = excludeOldTransactions
            self.bundleID = bundleID
            self.timeout = timeout
            self.startWithSandbox = startWithSandbox
        }
    }

    /// Sends one request and returns the HTTP status and body.
    public typealias Transport = @Sendable (URLRequest) async throws -> (status: Int, body: Data)

    private let configuration: Configuration
    private let transport: Transport

    /// Creates a verifier.
    /// - Parameters:
    ///   - configuration: endpoints, secret and timeout.
    ///   - transport: sends one request; the default uses `URLSession` with the configured timeout.
    public init(configuration: Configuration, transport: Transport? = nil) {
        self.configuration = configuration
        self.transport = transport ?? Self.urlSessionTransport(timeout: configuration.timeout)
    }

    /// Sends `receipt` to the endpoints as the protocol says and returns the decoded answer.
    public func verifyReceipt(_ receipt: Data) async -> Result<VerifyReceiptResponse, VerifyReceiptError> {
        var url = configuration.startWithSandbox ? configuration.sandboxURL : configuration.productionURL
        var redirected = false
        while true {
            let response: VerifyReceiptResponse
            switch await post(receipt, to: url) {
            case .failure(let error): return .failure(error)
            case .success(let decoded): response = decoded
            }
            // Each redirect is followed once, so two misdirected servers cannot loop.
            if response.status == 21007, !redirected, url != configuration.sandboxURL {
                url = configuration.sandboxURL
                redirected = true
                continue
            }
            if response.status == 21008, !redirected, url != configuration.productionURL {
                url = configuration.productionURL
                redirected = true
                continue
            }
            if let error = VerifyReceiptError(status: response.status) { return .failure(error) }
            if let bundleID = configuration.bundleID, response.receipt?.bundleId != bundleID {
                return .failure(.bundleIDMismatch(expected: bundleID, found: response.receipt?.bundleId))
            }
            return .success(response)
        }
    }

    /// Verifies that the server confirms the receipt and that it holds this transaction.
    public func verify(_ transaction: Transaction, receipt: Data?) async -> VerificationOutcome {
        guard let receipt, !receipt.isEmpty else {
            return .unableToComplete(reason: "there is no app receipt to send for verification")
        }
        switch await verifyReceipt(receipt) {
        case .failure(let error):
            return error.isRetryable
                ? .unableToComplete(reason: error.description) : .invalid(reason: error.description)
        case .success(let response):
            let listed =
                (response.receipt?.inApp ?? []).compactMap(\.transactionId)
                + (response.latestReceiptInfo ?? []).compactMap(\.transactionId)
            let ids: Set<String> =
                transaction.state == .restored
                ? [transaction.transactionID, transaction.originalTransactionID] : [transaction.transactionID]
            guard listed.contains(where: ids.contains) else {
                return .invalid(
                    reason: VerifyReceiptError.transactionNotInReceipt(transactionID: transaction.transactionID)
                        .description)
            }
            return .valid
        }
    }

    private func post(_ receipt: Data, to url: URL) async -> Result<VerifyReceiptResponse, VerifyReceiptError> {
        var body: [String: Any] = [
            "receipt-data": receipt.base64EncodedString(),
            "exclude-old-transactions": configuration.excludeOldTransactions,
        ]
        if let secret = configuration.sharedSecret { body["password"] = secret }
        var request = URLRequest(url: url, timeoutInterval: configuration.timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        do {
            request.httpBody = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        } catch {
            return .failure(.malformedResponse("could not encode the request: \(error)"))
        }
        let status: Int
        let data: Data
        do {
            (status, data) = try await transport(request)
        } catch {
            return .failure(.transport("\(url.absoluteString): \(error.localizedDescription)"))
        }
        guard status == 200 else { return .failure(.httpStatus(status)) }
        do {
            return .success(try JSONDecoder().decode(VerifyReceiptResponse.self, from: data))
        } catch {
            return .failure(
                .malformedResponse("\(url.absoluteString) answered \(data.count) bytes that are not verifyReceipt JSON")
            )
        }
    }

    /// A transport over an ephemeral `URLSession` whose requests and resources time out after `timeout`.
    public static func urlSessionTransport(timeout: TimeInterval) -> Transport {
        // Made on the first request, not with the verifier.
        let lazySession = LazyURLSession(timeout: timeout)
        return { request in
            try await withCheckedThrowingContinuation { continuation in
                let task = lazySession.session.dataTask(with: request) { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else {
                        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                        continuation.resume(returning: (status, data ?? Data()))
                    }
                }
                task.resume()
            }
        }
    }
}
