import Foundation
import LocalAppStore
import Receipts

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One POST of a notification's body (`{"signedPayload": JWS}`) to the receiver, over
/// URLSession, and how it ended in Apple's `sendAttemptResult` words: 200–206 is `SUCCESS`,
/// another status `UNSUCCESSFUL_HTTP_RESPONSE_CODE`, no answer within the timeout `TIMED_OUT`,
/// a refused connection `SOCKET_ISSUE`, a reset or a close mid-answer `PREMATURE_CLOSE`.
public struct NotificationDelivery: Sendable {
    private let session: URLSession

    /// A delivery over its own ephemeral session (no cookies, no cache).
    public init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    /// The body Apple POSTs: `{"signedPayload":"…"}`.
    public static func body(signedPayload: String) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return (try? encoder.encode(ResponseBodyV2(signedPayload: signedPayload))) ?? Data()
    }

    /// POSTs `body` to `url`, waiting at most `timeout` (real time) for the answer.
    ///
    /// The POST is a completion-handler data task, cancelled by a timer when the timeout
    /// passes: URLSession on Linux counts its own timeout in whole seconds (under one second an
    /// attempt times out at once), and cancelling its `async` API through Swift task
    /// cancellation deadlocks against its completion on corelibs-foundation. So the caller's
    /// cancellation does not reach the POST: an attempt under way ends within `timeout`.
    public func post(_ body: Data, to url: URL, timeout: Duration) async -> SendAttemptResult {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        // curl (under URLSession on Linux) would ask `Expect: 100-continue` for bodies over
        // 1 KiB and wait for the answer before sending; Apple's POST sends the body at once.
        request.setValue("", forHTTPHeaderField: "Expect")
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        request.timeoutInterval = seconds.rounded(.up) + 1
        let session = self.session
        return await withCheckedContinuation { (continuation: CheckedContinuation<SendAttemptResult, Never>) in
            let attempt = Attempt(continuation)
            let task = session.dataTask(with: request) { _, response, error in
                if let error = error as? URLError {
                    attempt.finish(Self.result(of: error.code))
                } else if error != nil {
                    attempt.finish(.other)
                } else if let http = response as? HTTPURLResponse {
                    attempt.finish((200...206).contains(http.statusCode) ? .success : .unsuccessfulHTTPResponseCode)
                } else {
                    attempt.finish(.invalidResponse)
                }
            }
            task.resume()
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                if attempt.finish(.timedOut) { task.cancel() }
            }
        }
    }

    /// One POST's outcome, given once: by its completion or by its timer.
    private final class Attempt: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<SendAttemptResult, Never>?

        init(_ continuation: CheckedContinuation<SendAttemptResult, Never>) { self.continuation = continuation }

        /// Resumes the caller with `result` unless it was resumed already; says whether it was.
        @discardableResult
        func finish(_ result: SendAttemptResult) -> Bool {
            lock.lock()
            let waiting = continuation
            continuation = nil
            lock.unlock()
            waiting?.resume(returning: result)
            return waiting != nil
        }
    }

    /// Apple's result for a URLSession failure.
    static func result(of code: URLError.Code) -> SendAttemptResult {
        switch code {
        case .timedOut: .timedOut
        case .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet: .socketIssue
        case .networkConnectionLost: .prematureClose
        case .badServerResponse, .cannotParseResponse, .cannotDecodeRawData, .cannotDecodeContentData: .invalidResponse
        case .zeroByteResource: .noResponse
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            .tlsIssue
        case .httpTooManyRedirects, .redirectToNonExistentLocation: .circularRedirect
        default: .other
        }
    }
}
