import StoreKitValues

extension CancelSheetFeature {
    /// What happens to the cancel sheet.
    public enum Action: Hashable, Sendable {
        /// My Purchases' Subscriptions tab (`c`): begin to cancel the subscription to `productID`.
        case open(productID: String)
        /// The App Store's answer: what it shows, or why there is nothing to cancel.
        case asked(Result<RetentionSheet, StoreError>)
        /// A key in the sheet.
        case key(Key)
        /// A choice was carried out: the transaction it made (the offer's or the new
        /// subscription's), or none (cancelled); or why it failed.
        case chose(RetentionChoice, Result<String?, StoreError>)
    }
}
