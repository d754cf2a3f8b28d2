import LocalAppStore

/// Apple's `PerformanceTestResultResponse` (Get Performance Test Results).
struct PerformanceTestResultResponse: Codable, Hashable, Sendable {
    /// Apple's `PerformanceTestResponseTimes`, in milliseconds.
    struct ResponseTimes: Codable, Hashable, Sendable {
        var average: Int
        var p50: Int
        var p90: Int
        var p95: Int
        var p99: Int
    }

    var config: PerformanceTestRun.Config
    var target: String
    /// `PENDING`, `PASS` or `FAIL`.
    var result: String
    var successRate: Int?
    var numPending: Int
    var responseTimes: ResponseTimes?
    /// Failures by Apple's `sendAttemptResult` word.
    var failures: [String: Int]?
}
