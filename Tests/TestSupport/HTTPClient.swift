import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Real HTTP requests to a server on 127.0.0.1 through URLSession (an ephemeral session, no
/// cookies or cache), answered whole: status, headers (lowercased names) and body.
public struct HTTPClient: Sendable {
    /// `http://127.0.0.1:PORT`.
    public let base: URL
    private let session: URLSession

    /// A client of the server on `port` of 127.0.0.1.
    public init(port: UInt16) {
        self.init(base: URL(string: "http://127.0.0.1:\(port)")!)
    }

    /// A client of the server at `base` (scheme, host and port).
    public init(base: URL) {
        self.base = base
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 30
        configuration.timeoutIntervalForResource = 60
        session = URLSession(configuration: configuration)
    }

    /// One answer.
    public struct Answer: Sendable {
        /// The status code.
        public let status: Int
        /// The headers, by lowercased name.
        public let headers: [String: String]
        /// The body.
        public let body: Data

        /// The body as UTF-8 text.
        public var text: String { String(decoding: body, as: UTF8.self) }

        /// The body as a JSON object.
        /// - Throws: `NotAnObject` when it is not one.
        public func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                throw NotAnObject(text: text)
            }
            return object
        }
    }

    /// A body that is not a JSON object.
    public struct NotAnObject: Error, CustomStringConvertible {
        /// The body.
        public let text: String
        /// Says so, with the body.
        public var description: String { "not a JSON object: \(text.prefix(200))" }
    }

    /// Sends `method pathAndQuery` with `headers` and `body`.
    /// - Throws: URLSession's error when no answer came (refused, timed out).
    public func send(
        _ method: String, _ pathAndQuery: String, headers: [String: String] = [:], body: Data? = nil
    ) async throws -> Answer {
        var request = URLRequest(url: URL(string: base.absoluteString + pathAndQuery)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body
        let (data, response) = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<(Data, URLResponse), Error>) in
            session.dataTask(with: request) { data, response, error in
                if let error {
                    continuation.resume(throwing: error)
                } else {
                    continuation.resume(returning: (data ?? Data(), response!))
                }
            }.resume()
        }
        let http = response as! HTTPURLResponse
        var names: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            names[String(describing: key).lowercased()] = String(describing: value)
        }
        return Answer(status: http.statusCode, headers: names, body: data)
    }
}
