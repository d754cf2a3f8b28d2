extension LocalStoreSettings {
    /// The settings a new store starts with, read from a catalog's `settings` block.
    ///
    /// `_askToBuyEnabled` → Ask to Buy; `_failTransactionsEnabled` → purchases fail with
    /// `unknown`; enabled `_storeKitErrors` entries `Load Products`, `Purchase` and
    /// `App Store Sync` (StoreKit 2's restore) → the simulated error of that API, its
    /// `current` value mapped by `simulatedError(for:)`.
    ///
    /// - Parameters:
    ///   - catalog: the catalog's `settings`.
    ///   - latencyMilliseconds: the latency to start with (the catalog has none).
    public init(catalog: CatalogSettings, latencyMilliseconds: Int) {
        self.init(latencyMilliseconds: latencyMilliseconds)
        askToBuy = catalog.askToBuyEnabled ?? false
        timeRate = catalog.timeRate.flatMap { StoreTimeRate(rawValue: $0)?.rawValue } ?? 0
        billingRetryOnRenewal = catalog.renewalBillingIssuesEnabled ?? catalog.billingIssuesEnabled ?? false
        gracePeriod = catalog.billingGracePeriodEnabled ?? false
        if catalog.failTransactionsEnabled == true { failPurchases = .unknown }
        for entry in catalog.storeKitErrors where entry.enabled {
            let error = Self.simulatedError(for: entry.current)
            switch entry.api {
            case .loadProducts: failLoadProducts = error
            case .purchase: failPurchases = error
            case .appStoreSync: failRestore = error
            default: break
            }
        }
    }

    /// The error an Xcode `_storeKitErrors` entry's `current` value chooses.
    ///
    /// Xcode writes `{"type": KIND, "index": N}`: `generic` indexes StoreKit's
    /// `StoreKitError` cases (unknown, userCancelled, networkError, systemError,
    /// notAvailableInStorefront, notEntitled) and `purchase` indexes
    /// `Product.PurchaseError` cases (invalidQuantity, productUnavailable,
    /// purchaseNotAllowed, then the offer errors). A plain string naming one of our
    /// `SimulatedError`s is taken as is. Anything else (including `null`) is `unknown`.
    static func simulatedError(for current: JSONValue?) -> SimulatedError {
        switch current {
        case .string(let name):
            return SimulatedError.all.first { $0.rawValue == name } ?? .unknown
        case .object:
            guard case .string(let type)? = current?["type"], case .number(let text)? = current?["index"],
                let index = Int(text)
            else { return .unknown }
            let table: [SimulatedError]
            switch type {
            case "generic": table = [.unknown, .cancelled, .network, .system, .notAvailable, .clientInvalid]
            case "purchase":
                table = [.invalid, .notAvailable, .notAllowed, .invalid, .invalid, .invalid, .invalid, .invalid]
            default: return .unknown
            }
            return table.indices.contains(index) ? table[index] : .unknown
        default:
            return .unknown
        }
    }
}
