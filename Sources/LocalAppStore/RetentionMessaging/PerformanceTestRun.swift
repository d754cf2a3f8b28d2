import Foundation

/// One performance test of an app's Get Retention Message endpoint (Apple's `Initiate
/// Performance Test`): what it was asked to do, and once done, what it measured.
public struct PerformanceTestRun: Codable, Hashable, Sendable {
    /// Apple's `PerformanceTestConfig`: the test's parameters (made by `standard(responseTimeThreshold:)`).
    public struct Config: Codable, Hashable, Sendable {
        /// The most requests under way at once.
        public let maxConcurrentRequests: Int
        /// How many requests the test sends.
        public let totalRequests: Int
        /// The longest the test takes, in milliseconds.
        public let totalDuration: Int
        /// The most a request may take to count as a success, in milliseconds.
        public let responseTimeThreshold: Int
        /// The share of successes, in percent, the test needs to pass.
        public let successRateThreshold: Int

        /// The store's test for a response time threshold (its `realtime-timeout` setting): 100
        /// requests, 10 at a time, 95 % of them answered well within the threshold; it lasts at
        /// most as long as ten rounds that each wait the threshold out.
        public static func standard(responseTimeThreshold: Int) -> Config {
            let total = 100
            let concurrent = 10
            return Config(
                maxConcurrentRequests: concurrent, totalRequests: total,
                totalDuration: (total + concurrent - 1) / concurrent * responseTimeThreshold,
                responseTimeThreshold: responseTimeThreshold, successRateThreshold: 95)
        }
    }

    /// What a finished test measured: Apple's `PerformanceTestResultResponse` members (made by
    /// `measured(milliseconds:failures:total:)`).
    public struct Outcome: Codable, Hashable, Sendable {
        /// The share of requests answered well in time, in whole percent (rounded down).
        public let successRate: Int
        /// Response times in milliseconds: average, 50th, 90th, 95th and 99th percentiles.
        public let average: Int
        /// The 50th percentile.
        public let p50: Int
        /// The 90th percentile.
        public let p90: Int
        /// The 95th percentile.
        public let p95: Int
        /// The 99th percentile.
        public let p99: Int
        /// How many requests failed, by Apple's `sendAttemptResult` word.
        public let failures: [String: Int]
        /// Requests that never ended (the test was stopped).
        public let pending: Int

        /// The outcome of requests that took `milliseconds` (all that ended) and failed as
        /// `failures` say, out of `total`; percentiles are nearest-rank.
        public static func measured(milliseconds: [Int], failures: [String: Int], total: Int) -> Outcome {
            let sorted = milliseconds.sorted()
            func rank(_ p: Int) -> Int {
                guard !sorted.isEmpty else { return 0 }
                return sorted[max(0, (p * sorted.count + 99) / 100 - 1)]
            }
            let failed = failures.values.reduce(0, +)
            let succeeded = sorted.count - failed
            return Outcome(
                successRate: total == 0 ? 0 : max(0, succeeded) * 100 / total,
                average: sorted.isEmpty ? 0 : sorted.reduce(0, +) / sorted.count, p50: rank(50), p90: rank(90),
                p95: rank(95), p99: rank(99), failures: failures, pending: total - sorted.count)
        }
    }

    /// Apple's `PerformanceTestStatus`.
    public enum Status: String, Codable, Hashable, Sendable {
        /// Still sending.
        case pending = "PENDING"
        /// The success rate reached the threshold.
        case pass = "PASS"
        /// It did not, or the test was stopped before it ended.
        case fail = "FAIL"
    }

    /// The test's identifier (`requestId`).
    public let requestID: UUID
    /// The subscription the test's requests name.
    public let originalTransactionID: String
    /// The URL the test sends to (`target`).
    public let target: String
    /// Its parameters.
    public let config: Config
    /// When it began, on the store clock.
    public let started: Date
    /// What it measured, once it ended.
    public var outcome: Outcome?

    /// How long past its `totalDuration` a test that has not ended is taken for stopped (its
    /// process died): it then fails, with every request pending.
    public static let abandonment: TimeInterval = 60

    /// Whether, at `now`, the test is over without an outcome (its process died).
    public func isAbandoned(at now: Date) -> Bool {
        outcome == nil && now.timeIntervalSince(started) > Double(config.totalDuration) / 1000 + Self.abandonment
    }

    /// Its status at `now`.
    public func status(at now: Date) -> Status {
        guard let outcome else { return isAbandoned(at: now) ? .fail : .pending }
        return outcome.pending == 0 && outcome.successRate >= config.successRateThreshold ? .pass : .fail
    }
}

extension PerformanceTestRun {
    /// A run that begins at `started`, under a request identifier of its own.
    package init(originalTransactionID: String, target: String, config: Config, started: Date) {
        self.init(
            requestID: UUID(), originalTransactionID: originalTransactionID, target: target, config: config,
            started: started, outcome: nil)
    }
}
