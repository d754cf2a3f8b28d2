import Foundation
import Testing

@testable import Catalog

/// Prices built from their digits equal what Foundation's decimal parser gives, to the digit.
@Suite struct DecimalTextTests {
    static let posix = Locale(identifier: "en_US_POSIX")

    @Test(arguments: [
        "0", "0.00", "0.99", "1.50", "000.10", "1200", "10", "99.999", "4.99", "999999999999999999",
        "9999999999.999999999", "99999999999.999999999",
        "123456789012345678.123456789012345678", "0.000000000000000001", "000.000", "0.000000000000000000",
        "000000000000000000.000000000000000000",
    ])
    func matchesFoundation(_ text: String) throws {
        let parsed = try DecimalText.parse(text).get()
        let expected = try #require(Decimal(string: text, locale: Self.posix))
        #expect(parsed == expected)
        #expect(parsed.description == expected.description)
        #expect(parsed.exponent == expected.exponent)
        #expect(parsed.significand == expected.significand)
    }
}
