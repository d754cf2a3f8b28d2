extension HelpFeature {
    /// How far down the window is scrolled.
    public struct State: ScreenState {
        /// The first line shown.
        public var scroll = 0

        /// At the top.
        public init() {}
    }
}
