import LocalAppStore

/// Apple's `PerformanceTestResponse` (Initiate Performance Test): the test's configuration
/// (Apple's `PerformanceTestConfig`, the store's `PerformanceTestRun.Config`) and its identifier.
struct PerformanceTestResponse: Codable, Hashable, Sendable {
    var config: PerformanceTestRun.Config
    var requestId: String
}
