/// Apple's `PerformanceTestRequest` (Initiate Performance Test).
struct PerformanceTestRequest: Codable, Hashable, Sendable {
    var originalTransactionId: String?
}
