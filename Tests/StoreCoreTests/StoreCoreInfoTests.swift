import Testing
@testable import StoreCore

@Suite struct StoreCoreInfoTests {
    @Test func versionIsSemantic() { #expect(StoreCoreInfo.version.split(separator: ".").count == 3) }
}
