import Foundation
import LocalAppStore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One POST the App Store makes to a developer's server (a notification, a Get Retention
/// Message request), over URLSession, and how it ended: Apple's `sendAttemptResult` word, the
/// answer's status and body, and how long it took.
public struct OutboundPost: Sendable {
    /// How a POST ended.
    public struct Answer: Sendable, Hashable {
        /// Apple's word for it: 200–206 is `SUCCESS`, another status `UNSUCCESSFUL_HTTP_RESPONSE_CODE`,
        /// no answer within the timeout `TIMED_OUT`, a refused connection `SOCKET_ISSUE`, a reset
        /// or a close mid-answer `PREMATURE_CLOSE`.
        public let result: SendAttemptResult
        /// The answer's HTTP status, when one came.
        public let status: Int?
        /// The answer's body (empty when none came).
        public let body: Data
        /// From sending to the answer's end (or the timeout).
        public let elapsed: Duration

        /// The elapsed time in whole milliseconds, rounded up.
        public var milliseconds: Int {
            let c = elapsed.components
            return Int(c.seconds) * 1000 + Int((c.attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        }
    }

    private let session: URLSession

    /// A POST over its own ephemeral session (no cookies, no cache). `followsRedirects: false`
    /// takes a redirect as the answer (its 3xx status), as the Get Retention Message call does.
    public init(followsRedirects: Bool = true) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpShouldSetCookies = false
        configuration.urlCache = nil
        session = URLSession(
            configuration: configuration, delegate: followsRedirects ? nil : RedirectRefusal(), delegateQueue: nil)
    }

    /// POSTs `body` as JSON to `url`, waiting at most `timeout` (real time) for the answer.
    ///
    /// The POST is a completion-handler data task, cancelled by a timer when the timeout
    /// passes: URLSession on Linux counts its own timeout in whole seconds (under one second an
    /// attempt times out at once), and cancelling its `async` API through Swift task
    /// cancellation deadlocks against its completion on corelibs-foundation. So the caller's
    /// cancellation does not reach the POST: an attempt under way ends within `timeout`.
    public func post(_ body: Data, to url: URL, timeout: Duration) async -> Answer {
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
        let start = ContinuousClock.now
        return await withCheckedContinuation { (continuation: CheckedContinuation<Answer, Never>) in
            let attempt = Attempt(continuation)
            let task = session.dataTask(with: request) { data, response, error in
                let elapsed = ContinuousClock.now - start
                let status = (response as? HTTPURLResponse)?.statusCode
                let result: SendAttemptResult
                if let error = error as? URLError {
                    result = Self.result(of: error.code)
                } else if error != nil {
                    result = .other
                } else if let status {
                    result = (200...206).contains(status) ? .success : .unsuccessfulHTTPResponseCode
                } else {
                    result = .invalidResponse
                }
                attempt.finish(Answer(result: result, status: status, body: data ?? Data(), elapsed: elapsed))
            }
            // A timer source, cancelled by the answer: a process that has posted sleeps until
            // its next event, with no timeout left to fire in the dark.
            let timer = DispatchSource.makeTimerSource(queue: .global())
            timer.schedule(deadline: .now() + seconds)
            timer.setEventHandler {
                let late = Answer(result: .timedOut, status: nil, body: Data(), elapsed: ContinuousClock.now - start)
                if attempt.finish(late) { task.cancel() }
            }
            attempt.arm(timer)
            task.resume()
        }
    }

    /// One POST's outcome, given once: by its completion or by its timer, which the outcome cancels.
    private final class Attempt: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Answer, Never>?
        private var timer: (any DispatchSourceTimer)?

        init(_ continuation: CheckedContinuation<Answer, Never>) { self.continuation = continuation }

        /// Starts `timer`, the attempt's timeout, unless the outcome is in already.
        func arm(_ timer: any DispatchSourceTimer) {
            lock.lock()
            let open = continuation != nil
            if open { self.timer = timer }
            lock.unlock()
            timer.resume()
            if !open { timer.cancel() }
        }

        /// Resumes the caller with `answer` unless it was resumed already; says whether it was.
        @discardableResult
        func finish(_ answer: Answer) -> Bool {
            lock.lock()
            let waiting = continuation
            continuation = nil
            let timer = self.timer
            self.timer = nil
            lock.unlock()
            timer?.cancel()
            waiting?.resume(returning: answer)
            return waiting != nil
        }
    }

    /// Takes a redirect as the answer instead of following it.
    private final class RedirectRefusal: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
        func urlSession(
            _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
            newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
        ) {
            completionHandler(nil)
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
