import StoreKitValues

extension MenuFeature {
    /// What happens to the menu.
    public enum Action: Hashable, Sendable {
        /// `m` or F2: open on the first item, and look whether a server runs.
        case open
        /// A key in the menu.
        case key(Key)
        /// Run an item (from the menu, or its key on the list).
        case run(MenuItem)
        /// A restore ended with the restored transactions.
        case restoreFinished(Result<[Transaction], StoreError>)
        /// A receipt refresh ended with the receipt's size in bytes.
        case receiptRefreshed(Result<Int, StoreError>)
    }
}
