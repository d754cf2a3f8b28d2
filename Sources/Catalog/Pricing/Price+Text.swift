import Foundation

/// Prices written as text outside a catalog (a command line), read by the catalog's own rule.
extension Price {
    /// Why a text is not a usable price, in words that name it.
    public struct TextError: Error, Equatable, CustomStringConvertible {
        /// E.g. `malformed price "abc"; expected a decimal such as "0.99"`.
        public let description: String
    }

    /// Reads an amount as a catalog's `displayPrice` is read: plain non-negative decimal text
    /// such as `"12.99"`, exact, never through a float.
    /// - Throws: `TextError` for a malformed, negative or overlong text.
    public static func amount(parsing text: String) throws(TextError) -> Decimal {
        switch DecimalText.parse(text) {
        case .success(let amount): return amount
        case .failure(let problem): throw TextError(description: problem.message)
        }
    }
}

extension Price.TextError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
