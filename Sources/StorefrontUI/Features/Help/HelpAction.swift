extension HelpFeature {
    /// What happens to the help window.
    public enum Action: Hashable, Sendable {
        /// `?` or F1: open at the top.
        case open
        /// A key in the window.
        case key(Key)
    }
}
