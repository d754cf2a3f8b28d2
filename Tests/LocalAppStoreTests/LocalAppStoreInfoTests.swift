import Testing
@testable import LocalAppStore

@Suite struct LocalAppStoreInfoTests {
    @Test func hasAName() { #expect(LocalAppStoreInfo.name == "Local App Store") }
}
