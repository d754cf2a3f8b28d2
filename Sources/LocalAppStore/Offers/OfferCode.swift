import Foundation

/// A one-time offer code the local store issued for a subscription's code offer (the
/// catalog's `codeOffers`), as App Store Connect issues them; redeemed once, by one account.
public struct OfferCode: Codable, Hashable, Sendable {
    /// The code as the customer types it: 12 upper-case letters and digits.
    public var code: String
    /// The subscription it is for.
    public var productID: String
    /// The code offer's identifier in the catalog.
    public var offerID: String
    /// When the store issued it.
    public var issuedAt: Date
    /// When it was redeemed, if it was.
    public var redeemedAt: Date?
    /// The account that redeemed it.
    public var redeemedBy: String?
    /// The transaction its redemption made.
    public var transactionID: String?

    /// Whether it was redeemed.
    public var isRedeemed: Bool { redeemedAt != nil }

    /// `text` as codes are compared: upper case, without spaces or dashes.
    public static func normalized(_ text: String) -> String {
        String(text.uppercased().filter { $0 != " " && $0 != "-" })
    }
}
