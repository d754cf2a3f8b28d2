import Foundation

extension EventLogFeature {
    /// What happens to the event log.
    public enum Action: Hashable, Sendable {
        /// A line to keep.
        case record(LogEntry)
        /// `l` on the list: show or hide the pane.
        case togglePane
        /// The menu's item (or `L`): open the window on the newest entry.
        case open
        /// A key in the window.
        case key(Key)
    }
}
