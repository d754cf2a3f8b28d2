/// One entry of `_storeKitErrors`: a StoreKit API whose calls can be made to fail.
public struct StoreKitErrorSetting: Sendable, Hashable {
    /// A StoreKit API as Xcode names it in `_storeKitErrors`, kept raw so names a newer Xcode
    /// writes survive.
    public struct API: RawRepresentable, Sendable, Hashable {
        /// The name as written, e.g. `Load Products`.
        public let rawValue: String
        /// An API by its Xcode name.
        public init(rawValue: String) { self.rawValue = rawValue }

        /// `Product.products(for:)` / `SKProductsRequest`.
        public static let loadProducts = API(rawValue: "Load Products")
        /// `Product.purchase()` / `SKPaymentQueue.add(_:)`.
        public static let purchase = API(rawValue: "Purchase")
        /// `AppStore.sync()`: StoreKit 2's restore.
        public static let appStoreSync = API(rawValue: "App Store Sync")
    }

    /// The API, as Xcode names it (`Load Products`, `Purchase`, `Verification`, …).
    public var name: String

    /// The API as a value (`name`, typed).
    public var api: API { API(rawValue: name) }
    /// Whether failures are switched on for it.
    public var enabled: Bool
    /// The chosen error (`current`), `nil` when the file has `null` or nothing.
    public var current: JSONValue?
}
