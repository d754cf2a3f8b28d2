import Testing
@testable import Vault

@Suite struct VaultFormatTests {
    @Test func magicIsEightBytes() { #expect(VaultFormat.magic.count == 8) }
}
