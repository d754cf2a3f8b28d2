import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LocalAppStore
import Receipts

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
    public func post(_ body: Data, to url: URL, timeout: Duration) async -> SendAttemptResult {
        // URLSession on Linux counts its timeout in whole seconds (under one second an attempt
        // times out at once), so the timeout is a race below, and URLSession's only a backstop.
        let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let backstop = seconds.rounded(.up) + 1
        let session = self.session
        return await withTaskGroup(of: SendAttemptResult?.self) { group in
            group.addTask { await Self.send(body, to: url, backstop: backstop, session: session) }
            group.addTask {
                guard (try? await Task.sleep(for: timeout)) != nil else { return nil }
                return .timedOut
            }
            var outcome = SendAttemptResult.other
            for await result in group {
                guard let result else { continue }
                outcome = result
                break
            }
            group.cancelAll()
            return outcome
        }
    }

    private static func send(_ body: Data, to url: URL, backstop: TimeInterval, session: URLSession) async -> SendAttemptResult? {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = body
        request.timeoutInterval = backstop
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        // curl (under URLSession on Linux) would ask `Expect: 100-continue` for bodies over
        // 1 KiB and wait for the answer before sending; Apple's POST sends the body at once.
        request.setValue("", forHTTPHeaderField: "Expect")
        do {
            let (_, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { return .invalidResponse }
            return (200...206).contains(http.statusCode) ? .success : .unsuccessfulHTTPResponseCode
        } catch let error as URLError {
            return error.code == .cancelled ? nil : result(of: error.code)
        } catch {
            return Task.isCancelled ? nil : .other
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
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected: .tlsIssue
        case .httpTooManyRedirects, .redirectToNonExistentLocation: .circularRedirect
        default: .other
        }
    }
}
