import StoreKitValues

extension CancelSheetFeature {
    /// The sheet: the subscription asked about, what the App Store showed, the selected
    /// choice, and whether a choice is being carried out.
    public struct State: ScreenState {
        /// The product of the subscription being cancelled.
        public var productID = ""
        /// What the App Store showed; nil while the developer's endpoint is asked.
        public var sheet: RetentionSheet?
        /// The selected choice, an index into `sheet.choices`.
        public var selected = 0
        /// The choice being carried out, if any (keys wait until it ends).
        public var working: RetentionChoice?
        /// Why there is nothing to show (the subscription does not renew, the store failed).
        public var failure: String?

        /// No sheet.
        public init() {}

        /// Whether the sheet waits for the store (asking, or carrying out a choice): its
        /// spinner turns while it is open.
        var isWaiting: Bool { !productID.isEmpty && failure == nil && (sheet == nil || working != nil) }
    }
}
