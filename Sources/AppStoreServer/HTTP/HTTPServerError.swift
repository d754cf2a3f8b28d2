/// Why the HTTP server could not start.
public enum HTTPServerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The host is not a numeric IPv4 or IPv6 address (or `localhost`).
    case invalidHost(String)
    /// libmicrohttpd could not listen there (the port is taken, or not allowed).
    case cannotListen(host: String, port: Int)

    public var description: String {
        switch self {
        case .invalidHost(let host):
            "cannot serve on \"\(host)\": give a numeric IPv4 or IPv6 address (127.0.0.1, ::1, 0.0.0.0) or localhost"
        case .cannotListen(let host, let port):
            "cannot listen on \(host) port \(port): is the port taken by another server, or below 1024 without root?"
        }
    }
}
