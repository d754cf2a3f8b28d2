import Foundation

/// One HTTP request as the daemon read it: method, path, query, headers and body.
public struct HTTPRequest: Sendable, Hashable {
    /// The method, e.g. `GET`.
    public var method: String
    /// The path without the query, percent-decoded by the daemon, e.g. `/inApps/v1/transactions/1`.
    /// A decoded NUL (`%00`) is kept as U+0000, never an end.
    public var path: String
    /// The query parameters in order, decoded; a name may repeat (`productId=a&productId=b`).
    /// A decoded NUL is kept in the name or value.
    public var query: [QueryItem]
    /// The headers, names lowercased (the last value of a repeated header wins).
    public var headers: [String: String]
    /// The body (at most the daemon's body limit).
    public var body: Data

    /// One query parameter; `value` is nil for a bare name (`?flag`).
    public struct QueryItem: Sendable, Hashable {
        /// The parameter's name.
        public var name: String
        /// Its value, nil when the parameter had none.
        public var value: String?

        /// Creates a query item.
        public init(name: String, value: String?) {
            self.name = name
            self.value = value
        }
    }

    /// Creates a request.
    public init(
        method: String, path: String, query: [QueryItem] = [], headers: [String: String] = [:], body: Data = Data()
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// Every value given for the query parameter `name`, in order.
    public func values(_ name: String) -> [String] {
        query.filter { $0.name == name }.map { $0.value ?? "" }
    }

    /// The header `name` (any case).
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}
