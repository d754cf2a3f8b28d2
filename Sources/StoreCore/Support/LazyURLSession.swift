import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An ephemeral `URLSession` made on its first request, not when its owner is: setting one up
/// takes tens of milliseconds on Linux (libcurl's multi handle, a thread), which a process
/// that never sends a request (the storefront before its first frame) should not pay.
final class LazyURLSession: Sendable {
    private let timeout: TimeInterval
    private let cachePolicy: URLRequest.CachePolicy
    private let made = Mutex<URLSession?>(nil)

    /// A session whose requests and resources time out after `timeout` seconds.
    init(timeout: TimeInterval, cachePolicy: URLRequest.CachePolicy = .useProtocolCachePolicy) {
        self.timeout = timeout
        self.cachePolicy = cachePolicy
    }

    /// The session, made now if this is the first request.
    var session: URLSession {
        made.withLock { made in
            if let made { return made }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.timeoutIntervalForRequest = timeout
            configuration.timeoutIntervalForResource = timeout
            configuration.requestCachePolicy = cachePolicy
            let session = URLSession(configuration: configuration)
            made = session
            return session
        }
    }
}
