import Testing
@testable import StorefrontUI

@Suite struct CellTests {
    @Test func defaultIsBlank() { #expect(Cell().character == " ") }
}
