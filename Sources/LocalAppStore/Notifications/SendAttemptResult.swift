/// How one attempt to send a notification ended, as Apple's `sendAttemptResult`; stored raw.
public struct SendAttemptResult: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible {
    /// Apple's value, e.g. `SUCCESS`.
    public let rawValue: String
    /// Wraps a value, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The raw value.
    public var description: String { rawValue }

    /// The receiver answered 200–206.
    public static let success = SendAttemptResult(rawValue: "SUCCESS")
    /// No answer within the timeout (`notification-timeout`).
    public static let timedOut = SendAttemptResult(rawValue: "TIMED_OUT")
    /// The TLS handshake failed.
    public static let tlsIssue = SendAttemptResult(rawValue: "TLS_ISSUE")
    /// The receiver redirected in a circle (or too often).
    public static let circularRedirect = SendAttemptResult(rawValue: "CIRCULAR_REDIRECT")
    /// The receiver sent no answer (the connection ended before any byte of one).
    public static let noResponse = SendAttemptResult(rawValue: "NO_RESPONSE")
    /// The connection could not be made (refused, no route, unknown host).
    public static let socketIssue = SendAttemptResult(rawValue: "SOCKET_ISSUE")
    /// The answer's character set is not supported.
    public static let unsupportedCharset = SendAttemptResult(rawValue: "UNSUPPORTED_CHARSET")
    /// The answer was not HTTP.
    public static let invalidResponse = SendAttemptResult(rawValue: "INVALID_RESPONSE")
    /// The receiver closed (or reset) the connection in the middle.
    public static let prematureClose = SendAttemptResult(rawValue: "PREMATURE_CLOSE")
    /// The receiver answered with a status outside 200–206.
    public static let unsuccessfulHTTPResponseCode = SendAttemptResult(rawValue: "UNSUCCESSFUL_HTTP_RESPONSE_CODE")
    /// Anything else.
    public static let other = SendAttemptResult(rawValue: "OTHER")

    /// Whether the receiver took the notification.
    public var isSuccess: Bool { self == .success }
}
