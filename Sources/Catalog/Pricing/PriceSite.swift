import Foundation

/// Where the file writes one price that some currency cannot charge exactly (it has a
/// fractional part), kept so a warning can name it once the storefront in use is known.
///
/// The path is kept in parts and joined only for a warning: a large catalog has one site per price.
struct PriceSite: Sendable, Hashable {
    /// The path of the array or object holding the priced object.
    let parentPath: String
    /// The priced object's index in that array, `nil` when `parentPath` is the object itself.
    let index: Int?
    /// The price member's name, e.g. `displayPrice`.
    let key: String
    /// The price as written in the file.
    let text: String
    /// The price as read.
    let amount: Decimal
    /// The product the price belongs to (a sidecar price for the storefront replaces its estimate).
    let productID: String

    /// The JSON path of the price member.
    var path: String {
        JSONPath.member(key, of: index.map { JSONPath.element($0, of: parentPath) } ?? parentPath)
    }

    /// Whether some currency could not charge `amount` exactly: it has a fractional part.
    static func needsCheck(_ amount: Decimal) -> Bool {
        var value = amount
        var whole = Decimal()
        NSDecimalRound(&whole, &value, 0, .down)
        return whole != amount
    }
}
