import CMicroHTTPD
import Foundation

/// A numeric IPv4 or IPv6 address and port, as the `sockaddr` MHD binds to.
struct SocketAddress {
    private var v4 = sockaddr_in()
    private var v6 = sockaddr_in6()
    /// Whether it is an IPv6 address.
    let isIPv6: Bool

    /// Parses `host` (`localhost` means 127.0.0.1).
    /// - Throws: `HTTPServerError.invalidHost` when it is neither IPv4 nor IPv6.
    init(host: String, port: UInt16) throws(HTTPServerError) {
        let numeric = host == "localhost" ? "127.0.0.1" : host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if inet_pton(AF_INET, numeric, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            isIPv6 = false
        } else if inet_pton(AF_INET6, numeric, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            isIPv6 = true
        } else {
            throw .invalidHost(host)
        }
    }

    /// Runs `body` with a pointer to the `sockaddr` (valid only during the call).
    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>) -> T) -> T {
        if isIPv6 {
            var copy = v6
            return withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
        var copy = v4
        return withUnsafePointer(to: &copy) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
    }
}
