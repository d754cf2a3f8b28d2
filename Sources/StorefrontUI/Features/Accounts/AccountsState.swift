extension AccountsFeature {
    /// The accounts listed, the selection, and the account chosen to sign in to.
    public struct State: ScreenState {
        /// The accounts, as last loaded.
        public var rows: [AccountRow] = []
        /// The selected row.
        public var selected = 0
        /// The account the storefront leaves to sign in to (it opens again on it); nil while none.
        public var signingInTo: String?

        /// Nothing loaded yet.
        public init() {}
    }
}
