import Catalog
import Foundation
import LocalAppStore
import StoreCore

/// `storefront store price-increase ID [accept|decline] [--price P]`: a price increase that
/// needs the subscriber's consent, or the subscriber's answer to it.
struct PriceIncreaseVerb: Verb {
    let name = "price-increase"
    let arguments = [Argument("ID"), Argument("accept|decline", optional: true, parse: consent)]
    var options: [any CommandOption] { [Self.price] }
    let abstract = """
        announce a price increase needing consent (PRICE_INCREASE, PENDING) to --price P (more than the \
        current price; renewal info's renewalPrice shows it), or the customer's answer: accept (ACCEPTED: \
        renewals charge P from then on) or decline (no consent: at its renewal date, or 'renew ID', it \
        expires with EXPIRED, PRICE_INCREASE, as one left unanswered does)
        """

    /// `--price P`: the new price, read as the catalog reads prices.
    static let price = Option<Decimal>(
        "price", valueName: "P",
        help: "store price-increase: the new price of a period in the subscriber's currency, e.g. 12.99."
    ) { (text: String) throws(CLIError) -> Decimal in
        do throws(Price.TextError) {
            return try Price.amount(parsing: text)
        } catch {
            throw .usage("invalid --price '\(text)': \(error.description).")
        }
    }

    /// `accept` or `decline`.
    static func consent(_ text: String) throws(CLIError) -> PriceConsent {
        guard let answer = PriceConsent(rawValue: text) else {
            throw .usage("store price-increase ID takes accept or decline, not \"\(text)\".")
        }
        return answer
    }

    func run(_ call: VerbCall) async throws(CLIError) {
        let newPrice = try call.value(Self.price)
        let consent = try call.arguments.dropFirst().first.map(Self.consent)
        if let consent, newPrice != nil {
            throw .usage(
                "--price goes with announcing a price increase ('store price-increase ID --price P'), not with \(consent.rawValue)."
            )
        }
        let increase = try await call.store {
            try await $0.subscriptions.priceIncrease(call.arguments[0], consent: consent, price: newPrice)
        }
        let price = increase.price.map { Price(amount: $0, currencyCode: increase.currencyCode ?? "") }
        let to = price.map { " to \($0.decimalString) \($0.currencyCode)" } ?? ""
        call.write(
            json: .object([
                ("originalTransactionID", .string(increase.originalTransactionID)),
                ("productID", .string(increase.productID)), ("status", .string(increase.status.rawValue)),
                ("price", .optional(price?.decimalString)), ("currency", .optional(increase.currencyCode)),
            ]),
            lines: [
                "Price increase of \(increase.productID)\(to) (subscription \(increase.originalTransactionID)): \(increase.status.rawValue)."
            ])
    }
}
