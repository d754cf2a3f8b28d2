import CMicroHTTPD
import Foundation
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd: the only Swift code that knows it.
///
/// MHD parses HTTP, runs an internal `epoll` thread pool and enforces its limits: idle
/// connections close after `connectionTimeoutSeconds`, each connection's headers fit in
/// `connectionMemoryLimit` bytes, and a body over `maxBodyBytes` is answered 413 (read and
/// dropped first unless it is huge or the client waits for "100 Continue"). A slow client
/// occupies a connection slot, never a thread.
///
/// MHD calls back synchronously on its own threads. A complete request goes first to the
/// `immediate` handler, on MHD's thread: what it answers is queued at once (no task, no
/// wake-up of another thread). What it leaves (nil) goes to the `async` handler: the
/// connection is suspended (`MHD_suspend_connection`), the handler runs as a task, and the
/// connection is resumed with the answer (`MHD_resume_connection`), so no MHD thread ever
/// waits on Swift's cooperative pool and no pool thread waits on MHD.
public final class MicroHTTPDaemon: Sendable {
    /// How the daemon listens and what it tolerates. Immutable.
    public struct Configuration: Sendable, Hashable {
        /// The address to bind: a numeric IPv4/IPv6 address, or `localhost` (127.0.0.1).
        public var host: String
        /// The port; 0 lets the kernel choose a free one (read it from `port`).
        public var port: UInt16
        /// MHD's worker threads (each polls many connections).
        public var threads: Int
        /// Seconds after which an idle connection is closed.
        public var connectionTimeoutSeconds: Int
        /// Bytes each connection may use for its request line and headers.
        public var connectionMemoryLimit: Int
        /// The largest request body accepted; larger ones get 413.
        public var maxBodyBytes: Int
        /// The most connections open at once.
        public var connectionLimit: Int
        /// Paths whose PUT bodies may be larger than `maxBodyBytes` (retention images), and
        /// their limit: a PUT to a path with this prefix may send up to `largeBodyBytes`.
        public var largeBodyPathPrefix: String?
        /// The largest body of a PUT under `largeBodyPathPrefix`.
        public var largeBodyBytes: Int

        /// Creates a configuration; by default loopback, any free port, 1 MiB bodies.
        public init(
            host: String = "127.0.0.1", port: UInt16 = 0, threads: Int = 4, connectionTimeoutSeconds: Int = 10,
            connectionMemoryLimit: Int = 64 * 1024, maxBodyBytes: Int = 1 << 20, connectionLimit: Int = 1000,
            largeBodyPathPrefix: String? = nil, largeBodyBytes: Int = 1 << 20
        ) {
            self.host = host
            self.port = port
            self.threads = threads
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
            self.connectionMemoryLimit = connectionMemoryLimit
            self.maxBodyBytes = maxBodyBytes
            self.connectionLimit = connectionLimit
            self.largeBodyPathPrefix = largeBodyPathPrefix
            self.largeBodyBytes = largeBodyBytes
        }

        /// The largest body `method` on `path` may send.
        func bodyLimit(method: String, path: String) -> Int {
            guard method == "PUT", let prefix = largeBodyPathPrefix, path.hasPrefix(prefix) else { return maxBodyBytes }
            return max(maxBodyBytes, largeBodyBytes)
        }
    }

    /// Answers one request.
    public typealias Handler = @Sendable (HTTPRequest) async -> HTTPResponse
    /// Answers one request on MHD's thread when it can without waiting (computing only);
    /// nil hands the request to the `Handler`.
    public typealias ImmediateHandler = @Sendable (HTTPRequest) -> HTTPResponse?

    /// The configuration the daemon was started with.
    public let configuration: Configuration
    /// The port it listens on (the chosen one when `configuration.port` was 0).
    public var port: UInt16 { daemon.port }

    private let handler: Handler
    private let immediate: ImmediateHandler?
    private let daemon: Daemon
    private let state = Mutex(Lifecycle())

    private struct Lifecycle {
        var inFlight = 0
        var stopping = false
        var stopped = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    /// MHD's daemon pointer, set once at start.
    private final class Daemon: @unchecked Sendable {
        var pointer: OpaquePointer?
        var port: UInt16 = 0
    }

    /// Starts listening.
    /// - Parameters:
    ///   - immediate: tried first for each complete request, on MHD's thread.
    ///   - handler: answers what `immediate` leaves.
    /// - Throws: `HTTPServerError.invalidHost` or `.cannotListen`.
    public init(
        configuration: Configuration, immediate: ImmediateHandler? = nil, handler: @escaping Handler
    ) throws(HTTPServerError) {
        self.configuration = configuration
        self.immediate = immediate
        self.handler = handler
        self.daemon = Daemon()
        let address = try SocketAddress(host: configuration.host, port: configuration.port)
        var flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
        if address.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started: OpaquePointer? = address.withSockaddr { sockaddr in
            var options: [MHD_OptionItem] = [
                MHD_OptionItem(option: .SOCK_ADDR, value: 0, ptr_value: UnsafeMutableRawPointer(mutating: sockaddr)),
                MHD_OptionItem(option: .THREAD_POOL_SIZE, value: max(1, configuration.threads), ptr_value: nil),
                MHD_OptionItem(
                    option: .CONNECTION_TIMEOUT, value: max(1, configuration.connectionTimeoutSeconds), ptr_value: nil),
                MHD_OptionItem(
                    option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryLimit, ptr_value: nil),
                MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.connectionLimit, ptr_value: nil),
                MHD_OptionItem(
                    option: .NOTIFY_COMPLETED,
                    value: Int(bitPattern: unsafeBitCast(requestCompleted, to: UnsafeRawPointer.self)),
                    ptr_value: context),
                MHD_OptionItem(
                    option: .URI_LOG_CALLBACK,
                    value: Int(bitPattern: unsafeBitCast(requestTargetRead, to: UnsafeRawPointer.self)),
                    ptr_value: nil),
                MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
            ]
            return options.withUnsafeMutableBufferPointer { buffer in
                storefront_mhd_start(UInt32(flags), configuration.port, accessHandler, context, buffer.baseAddress)
            }
        }
        guard let started else { throw .cannotListen(host: configuration.host, port: Int(configuration.port)) }
        daemon.pointer = started
        daemon.port = storefront_mhd_bound_port(started)
    }

    deinit {
        if let pointer = daemon.pointer, !state.withLock({ $0.stopped }) { MHD_stop_daemon(pointer) }
    }

    /// Stops accepting work, waits for the requests being answered, then stops the daemon
    /// and closes every connection. Later requests on open connections get 503 meanwhile.
    public func stop() async {
        let mustWait = state.withLock { state -> Bool in
            state.stopping = true
            return state.inFlight > 0
        }
        if mustWait {
            await withCheckedContinuation { continuation in
                let ready = state.withLock { state -> Bool in
                    if state.inFlight == 0 { return true }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        }
        let pointer = state.withLock { state -> OpaquePointer? in
            guard !state.stopped else { return nil }
            state.stopped = true
            return daemon.pointer
        }
        if let pointer { MHD_stop_daemon(pointer) }
    }

    // MARK: - MHD callbacks (on MHD's threads)

    /// The state of one request across MHD's calls, kept in MHD's per-request pointer: made
    /// when MHD has read the request line (`requestTargetRead`), before it decodes anything.
    final class Exchange: @unchecked Sendable {
        /// The request target as sent: the path and query, still percent-encoded.
        let target: String
        /// The request, once its headers are in (`headersRead`).
        var request = HTTPRequest(method: "", path: "")
        var headersRead = false
        var tooLarge = false
        /// The largest body this request may send (`Configuration.bodyLimit`).
        var bodyLimit = 0
        var started = false
        let answer = Mutex<HTTPResponse?>(nil)

        init(target: String) { self.target = target }
    }

    /// The request's path, decoded: MHD's, unless the target's path holds `%00`. MHD hands
    /// the path over as a C string, which ends at a decoded NUL (`/transactions/25%00xyz` read
    /// as `/transactions/25`); then the target's path is decoded again, by MHD's own decoder,
    /// keeping every byte, so the NUL reaches the routes, which refuse it.
    static func path(_ url: String, target: String) -> String {
        let encoded = target.prefix { $0 != "?" }
        guard encoded.contains("%00") else { return url }
        var bytes = Array(String(encoded).utf8CString)
        let length = bytes.withUnsafeMutableBufferPointer { MHD_http_unescape($0.baseAddress) }
        return String(decoding: bytes.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    fileprivate func handle(
        _ connection: OpaquePointer, url: String, method: String, upload: UnsafePointer<CChar>?,
        uploadSize: UnsafeMutablePointer<Int>, slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        // `requestTargetRead` made the exchange from the request line; without one, MHD broke its
        // contract, and the connection is closed rather than served from a guessed target.
        guard let raw = slot.pointee else { return .NO }
        let exchange = Unmanaged<Exchange>.fromOpaque(raw).takeUnretainedValue()
        if !exchange.headersRead {
            // The headers are in: decide at once about an oversized body, before reading it.
            exchange.headersRead = true
            let headers = Self.values(connection, kind: .HEADER_KIND)
            var names: [String: String] = [:]
            for (name, value) in headers { names[name.lowercased()] = value ?? "" }
            let query = Self.values(connection, kind: .GET_ARGUMENT_KIND).map {
                HTTPRequest.QueryItem(name: $0.0, value: $0.1)
            }
            exchange.request = HTTPRequest(
                method: method, path: Self.path(url, target: exchange.target), query: query, headers: names)
            exchange.bodyLimit = configuration.bodyLimit(method: method, path: exchange.request.path)
            if let length = names["content-length"].flatMap(Int.init), length > exchange.bodyLimit {
                exchange.tooLarge = true
                // A client that waits for "100 Continue" has sent nothing yet: answer now. One
                // that is already sending would see its connection reset mid-body (EPIPE) before
                // it reads the answer, so its body is read and dropped, up to a bound, first.
                let waitsToSend = names["expect"]?.lowercased() == "100-continue"
                if waitsToSend || length > exchange.bodyLimit * Self.drainedBodyFactor {
                    return Self.queue(connection, Self.tooLarge(exchange.bodyLimit))
                }
            }
            return .YES
        }
        if uploadSize.pointee > 0 {
            let count = uploadSize.pointee
            uploadSize.pointee = 0
            if !exchange.tooLarge, let upload {
                if exchange.request.body.count + count > exchange.bodyLimit {
                    exchange.tooLarge = true
                    exchange.request.body = Data()
                } else {
                    exchange.request.body.append(
                        UnsafeRawPointer(upload).assumingMemoryBound(to: UInt8.self), count: count)
                }
            }
            return .YES
        }
        if exchange.tooLarge { return Self.queue(connection, Self.tooLarge(exchange.bodyLimit)) }
        if let answer = exchange.answer.withLock({ $0 }) { return Self.queue(connection, answer) }
        guard !exchange.started else { return .YES }
        exchange.started = true
        let admitted = state.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.inFlight += 1
            return true
        }
        guard admitted else {
            return Self.queue(
                connection, .json(503, Data(#"{"errorCode":5000001,"errorMessage":"The server is stopping."}"#.utf8)))
        }
        if let immediate, let response = immediate(exchange.request) {
            finishedOne()
            return Self.queue(connection, response)
        }
        MHD_suspend_connection(connection)
        let suspended = SuspendedConnection(pointer: connection)
        let request = exchange.request
        let handler = self.handler
        let work: @Sendable () async -> Void = {
            let response = await handler(request)
            exchange.answer.withLock { $0 = response }
            MHD_resume_connection(suspended.pointer)
            self.finishedOne()
        }
        if #available(macOS 15.0, *) {
            Task(executorPreference: HandlerExecutor.shared, operation: work)
        } else {
            Task(operation: work)
        }
        return .YES
    }

    private func finishedOne() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.inFlight -= 1
            guard state.inFlight == 0, state.stopping else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// A suspended connection handed to the task that answers it; MHD keeps it alive until resumed.
    private struct SuspendedConnection: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    fileprivate static func completed(_ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let slot, let raw = slot.pointee else { return }
        Unmanaged<Exchange>.fromOpaque(raw).release()
        slot.pointee = nil
    }

    /// An oversized body up to this many times `maxBodyBytes` is read and dropped before the
    /// 413, so the client reads the answer instead of a reset; a larger one is cut off.
    private static let drainedBodyFactor = 16

    private static func tooLarge(_ limit: Int) -> HTTPResponse {
        HTTPResponse(
            status: 413,
            headers: [HTTPResponse.Header("Content-Type", "text/plain"), HTTPResponse.Header("Connection", "close")],
            body: Data("Request bodies are limited to \(limit) bytes.\n".utf8))
    }

    private static func queue(_ connection: OpaquePointer, _ response: HTTPResponse) -> MHD_Result {
        let made: OpaquePointer? = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(
                bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let made else { return .NO }
        defer { MHD_destroy_response(made) }
        for header in response.headers { _ = MHD_add_response_header(made, header.name, header.value) }
        return MHD_queue_response(connection, UInt32(clamping: response.status), made)
    }

    /// Collects MHD's key/value pairs of one kind (headers or query arguments).
    private final class Collector {
        var pairs: [(String, String?)] = []
    }

    /// MHD's pairs of one kind with their lengths, so a decoded NUL (`%00`) stays in the name
    /// or value instead of ending it there.
    private static func values(_ connection: OpaquePointer, kind: MHD_ValueKind) -> [(String, String?)] {
        let collector = Collector()
        let context = Unmanaged.passUnretained(collector).toOpaque()
        _ = MHD_get_connection_values_n(
            connection, kind,
            { cls, _, key, keySize, value, valueSize in
                guard let cls, let key else { return .YES }
                let collector = Unmanaged<Collector>.fromOpaque(cls).takeUnretainedValue()
                func text(_ start: UnsafePointer<CChar>, _ count: Int) -> String {
                    String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
                }
                collector.pairs.append((text(key, keySize), value.map { text($0, valueSize) }))
                return .YES
            }, context)
        return collector.pairs
    }
}

/// MHD's access handler: every call for a request (headers, each body chunk, the end, the resume).
private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, upload, uploadSize, slot in
    guard let cls, let connection, let uploadSize, let slot else { return .NO }
    let daemon = Unmanaged<MicroHTTPDaemon>.fromOpaque(cls).takeUnretainedValue()
    return daemon.handle(
        connection, url: url.map { String(cString: $0) } ?? "/", method: method.map { String(cString: $0) } ?? "GET",
        upload: upload, uploadSize: uploadSize, slot: slot)
}

/// MHD's request-line callback (`MHD_OPTION_URI_LOG_CALLBACK`): the target as sent, before MHD
/// decodes it; what it returns is the request's pointer in every later call.
private let requestTargetRead:
    @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?)
        -> UnsafeMutableRawPointer? = { _, target, _ in
            Unmanaged.passRetained(MicroHTTPDaemon.Exchange(target: target.map { String(cString: $0) } ?? ""))
                .toOpaque()
        }

/// MHD's completion callback: the request is done (answered, timed out or dropped).
private let requestCompleted: MHD_RequestCompletedCallback = { _, _, slot, _ in
    MicroHTTPDaemon.completed(slot)
}
