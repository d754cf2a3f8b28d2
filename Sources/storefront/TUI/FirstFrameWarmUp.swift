import Catalog
import Foundation
import LocalAppStore
import StoreCore
import StorefrontUI

/// The first frame's first-use costs, paid on a thread of its own while the catalog loads
/// (issue 13 row 5). The first price formatted in a process loads ICU's data and builds its
/// number formatter; the first `reduce` and `render` of products instantiate their generic
/// types, each a scan of the runtime's protocol conformances. Here they are paid once, on the
/// machine's other core, for two made-up products in the storefront and locale the launch
/// most likely shows, in the reverse of the order the launch needs them (the frame's render
/// last), so the real catalog's products are then localized, reduced and drawn warm.
/// Everything computed here is thrown away: nothing the user sees changes.
enum FirstFrameWarmUp {
    /// Starts the warm-up for `storefront` and `locale` on a new thread.
    static func start(storefront: Storefront, locale: String) {
        let thread = Thread { run(storefront: storefront, locale: locale) }
        thread.name = "storefront-warm-up"
        thread.start()
    }

    /// Formats a price, then reduces and renders a state of two products.
    static func run(storefront: Storefront, locale: String) {
        let price = Price(amount: 1, currencyCode: storefront.currencyCode)
        let displayPrice = price.formatted(locale: Locale(identifier: locale))
        var state = State(width: 100, height: 30)
        _ = reduce(
            state: &state,
            action: .contextLoaded(
                .success(
                    StoreContext(
                        storefront: storefront.code, locale: locale, account: StoreAccount.localTester.displayName,
                        storefronts: Storefront.all))))
        let products = [ProductType.consumable, .nonConsumable].map { type in
            Product(
                id: "warm-up.\(type.rawValue)", type: type, displayName: "Warm-up", description: "Warm-up",
                price: price.amount, displayPrice: displayPrice, currencyCode: price.currencyCode,
                hasDownloads: type == .nonConsumable)
        }
        _ = reduce(state: &state, action: .catalog(.productsLoaded(.success(products))))
        _ = render(state)
    }
}
