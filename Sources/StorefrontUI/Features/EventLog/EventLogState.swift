import Foundation

extension EventLogFeature {
    /// The log, its pane, and its window's selection.
    public struct State: ScreenState {
        /// The entries, oldest first (the last `EventLogFeature.limit`).
        public var entries: [LogEntry] = []
        /// Whether the pane shows beside the list.
        public var showsPane = false
        /// The window's selected entry.
        public var selected = 0
        /// Whether the window shows the selected entry whole.
        public var showsDetail = false

        /// An empty log, its pane hidden.
        public init() {}
    }
}
