import StoreKitValues

/// A storefront switch's result: the new context and the products in it, delivered together so
/// the screen never shows one storefront's header over another's prices.
public struct StorefrontSwitch: Hashable, Sendable {
    /// The storefront, locale and account now.
    public var context: StoreContext
    /// The products localized for them.
    public var products: [Product]

    /// Creates a switch result.
    public init(context: StoreContext, products: [Product]) {
        self.context = context
        self.products = products
    }
}
