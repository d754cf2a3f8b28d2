import Foundation
import LocalAppStore
import Receipts
import StoreCore

/// Runs the performance tests `Initiate Performance Test` starts: each sends its
/// `totalRequests` signed Get Retention Message requests to the Sandbox realtime URL, at most
/// `maxConcurrentRequests` at once, measures each, and records the outcome in the store, where
/// `Get Performance Test Results` reads it. A request succeeds when a 200 with a
/// `RealtimeResponseBody` comes within `responseTimeThreshold`; a test passes when its success
/// rate reaches `successRateThreshold` (Docs/decisions/0114-performance-test.md).
///
/// The server owns the runner: `stop()` stops the tests (requests under way end within the
/// timeout) and records them with their unsent requests pending, so they fail.
actor PerformanceTestRunner {
    private let store: LocalAppStore
    private let realtime: RealtimeRetention
    private var running: [UUID: Task<Void, Never>] = [:]

    init(store: LocalAppStore) {
        self.store = store
        realtime = RealtimeRetention(store: store)
    }

    /// Starts `run` (already recorded as begun) with requests about `subscription`.
    func start(_ run: PerformanceTestRun, productID: String, userLocale: String, snapshot: StoreSnapshot) {
        let realtime = realtime
        let store = store
        running[run.requestID] = Task {
            let outcome = await Self.measure(run, productID: productID, userLocale: userLocale, snapshot: snapshot) {
                await realtime.send($0, to: run.target, in: snapshot)
            }
            try? store.retention.finish(performanceTest: run.requestID, outcome: outcome)
            self.ended(run.requestID)
        }
    }

    private func ended(_ id: UUID) { running[id] = nil }

    /// Stops every test and waits until each recorded its outcome.
    func stop() async {
        let tasks = running.values
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    /// Sends the test's requests through `send` and measures them.
    static func measure(
        _ run: PerformanceTestRun, productID: String, userLocale: String, snapshot: StoreSnapshot,
        send: @escaping @Sendable (DecodedRealtimeRequestBody) async -> OutboundPost.Answer
    ) async -> PerformanceTestRun.Outcome {
        let config = run.config
        var times: [Int] = []
        var failures: [String: Int] = [:]
        await withTaskGroup(of: (Int, String?).self) { group in
            var sent = 0
            func next() -> Bool {
                guard sent < config.totalRequests, !Task.isCancelled else { return false }
                sent += 1
                let request = DecodedRealtimeRequestBody(
                    originalTransactionId: run.originalTransactionID, appAppleId: snapshot.settings.appAppleID,
                    productId: productID, userLocale: userLocale, requestIdentifier: UUID(),
                    signedDate: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)),
                    environment: AppStoreEnvironment.sandbox.rawValue)
                group.addTask {
                    let answer = await send(request)
                    return (answer.milliseconds, failure(of: answer, threshold: config.responseTimeThreshold))
                }
                return true
            }
            for _ in 0..<config.maxConcurrentRequests where !next() { break }
            for await (milliseconds, failure) in group {
                times.append(milliseconds)
                if let failure { failures[failure, default: 0] += 1 }
                _ = next()
            }
        }
        return .measured(milliseconds: times, failures: failures, total: config.totalRequests)
    }

    /// Apple's word for a request that did not succeed, or nil for one that did.
    static func failure(of answer: OutboundPost.Answer, threshold: Int) -> String? {
        guard answer.result == .success else { return answer.result.rawValue }
        guard answer.status == 200 else { return SendAttemptResult.unsuccessfulHTTPResponseCode.rawValue }
        guard answer.milliseconds <= threshold else { return SendAttemptResult.timedOut.rawValue }
        guard (try? JSONDecoder().decode(RealtimeResponseBody.self, from: answer.body)) != nil else {
            return SendAttemptResult.invalidResponse.rawValue
        }
        return nil
    }
}
