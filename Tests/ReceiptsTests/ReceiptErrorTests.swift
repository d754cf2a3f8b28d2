import StoreKitValues
import Testing

@testable import Receipts

@Suite struct ReceiptErrorTests {
    @Test func malformedCarriesOffset() {
        #expect(ReceiptError.malformed(offset: 3, reason: "x") != .malformed(offset: 4, reason: "x"))
    }
}
