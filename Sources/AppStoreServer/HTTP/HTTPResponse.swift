import Foundation

/// One HTTP response: status, headers and body.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code, e.g. 200.
    public var status: Int
    /// Headers in order.
    public var headers: [Header]
    /// The body.
    public var body: Data

    /// One response header.
    public struct Header: Sendable, Hashable {
        /// The header's name, e.g. `Content-Type`.
        public var name: String
        /// Its value.
        public var value: String

        /// Creates a header.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Creates a response.
    public init(status: Int, headers: [Header] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A JSON response (`Content-Type: application/json`, as Apple's servers send it).
    public static func json(_ status: Int, _ body: Data) -> HTTPResponse {
        HTTPResponse(status: status, headers: [Header("Content-Type", "application/json")], body: body)
    }

    /// A response with no body.
    public static func empty(_ status: Int, headers: [Header] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers)
    }

    /// The value of the header `name` (any case), if present.
    public func header(_ name: String) -> String? {
        headers.last { $0.name.lowercased() == name.lowercased() }?.value
    }
}
