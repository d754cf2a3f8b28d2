import StoreKitValues

extension ReceiptFeature {
    /// The document shown and how far down it is scrolled.
    public struct State: ScreenState {
        /// The receipt or transaction shown (nil while it loads).
        public var document: TextDocument?
        /// How far down the window is scrolled.
        public var scroll = 0

        /// Nothing shown yet.
        public init() {}
    }
}
