import Foundation

/// An amount of money in one currency, exact (`Decimal`), formatted through Foundation.
public struct Price: Sendable, Hashable {
    /// The amount, e.g. 9.99.
    public var amount: Decimal
    /// The ISO 4217 currency code, e.g. `USD`, `JPY`.
    public var currencyCode: String

    /// Creates a price.
    public init(amount: Decimal, currencyCode: String) {
        self.amount = amount
        self.currencyCode = currencyCode
    }

    /// The amount as plain decimal text for machines, e.g. `"9.99"`, `"160"`, `"1.50"`:
    /// a `.` point, no grouping, at least the currency's minor-unit digits, never rounded.
    public var decimalString: String {
        var text = amount.description
        let minor = Self.minorUnits(of: currencyCode)
        let have = DecimalText.fractionDigits(text)
        if have < minor {
            if have == 0 { text += "." }
            text += String(repeating: "0", count: minor - have)
        }
        return text
    }

    /// The price as a customer sees it in `locale`, e.g. `$9.99`, `¥160`, `9,99 €`, `R$ 5,90`.
    ///
    /// - Parameter locale: the display locale; the currency stays `currencyCode`.
    public func formatted(locale: Locale) -> String {
        amount.formatted(.currency(code: currencyCode).locale(locale))
    }

    /// The price rounded half up to its currency's minor units: 0.99 KRW is 1, 5.5 JPY is 6,
    /// 1.235 USD is 1.24; a price that has no more digits than its currency is unchanged.
    public var roundedToMinorUnits: Price {
        var amount = amount
        var rounded = Decimal()
        NSDecimalRound(&rounded, &amount, Self.minorUnits(of: currencyCode), .plain)
        return Price(amount: rounded, currencyCode: currencyCode)
    }

    /// The ISO 4217 minor-unit digits of a currency (0 for JPY, KRW…, 3 for KWD…, else 2).
    ///
    /// - Parameter currencyCode: an ISO 4217 code, any letter case.
    public static func minorUnits(of currencyCode: String) -> Int {
        switch currencyCode.uppercased() {
        case "JPY", "KRW", "CLP", "VND", "ISK", "UGX", "PYG", "XAF", "XOF", "RWF", "KMF", "GNF", "BIF", "DJF", "VUV",
            "XPF":
            0
        case "KWD", "BHD", "OMR", "JOD", "TND", "LYD", "IQD": 3
        default: 2
        }
    }
}
