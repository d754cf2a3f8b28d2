import Catalog
import Foundation

/// ICU's first currency format, on a thread of its own while the catalog loads: the first
/// `Price.formatted` in a process loads ICU's data and builds its number formatter (the
/// largest part of `LocalAppStore.localizedProducts` at launch, issue 13 row 5); formatted
/// once here, on the machine's other core, the first frame's prices then cost what formatting
/// costs. The price formatted is thrown away: nothing the user sees changes.
enum PriceFormatWarmUp {
    /// Formats one price of `storefront`'s currency in `locale` on a new thread.
    static func start(storefront: Storefront, locale: String) {
        let thread = Thread {
            _ = Price(amount: 1, currencyCode: storefront.currencyCode).formatted(locale: Locale(identifier: locale))
        }
        thread.name = "storefront-warm-up"
        thread.start()
    }
}
