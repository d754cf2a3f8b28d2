import Testing

@testable import Crypto

@Suite struct SecureRandomTests {
    @Test func returnsTheRequestedCountAndDiffersBetweenCalls() throws {
        let a = try SecureRandom.bytes(count: 32)
        let b = try SecureRandom.bytes(count: 32)
        #expect(a.count == 32)
        #expect(a != b)
        #expect(try SecureRandom.bytes(count: 0).isEmpty)
    }
}
