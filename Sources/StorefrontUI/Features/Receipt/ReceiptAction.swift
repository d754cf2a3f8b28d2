import StoreKitValues

extension ReceiptFeature {
    /// What happens to the viewer.
    public enum Action: Hashable, Sendable {
        /// Show the app receipt.
        case openReceipt
        /// Show a transaction, over the window it was chosen in.
        case openTransaction(String, over: Modal?)
        /// A key in the window.
        case key(Key)
        /// A receipt or a transaction, decoded for the viewer.
        case loaded(Result<TextDocument, StoreError>)
    }
}
