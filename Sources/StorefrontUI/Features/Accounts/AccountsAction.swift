import StoreKitValues

extension AccountsFeature {
    /// What happens to the Accounts window.
    public enum Action: Hashable, Sendable {
        /// The menu's item (or `A`, or the Transaction Manager's `F`): open, and load the accounts.
        case open
        /// A key in the window.
        case key(Key)
        /// The accounts arrived (`Effect.loadAccounts`).
        case loaded(Result<[AccountRow], StoreError>)
        /// The data directory is signed in to the account (`Effect.signIn`).
        case signedIn(Result<String, StoreError>)
        /// The account left the family (`Effect.removeFromFamily`).
        case removed(Result<String, StoreError>)
    }
}
