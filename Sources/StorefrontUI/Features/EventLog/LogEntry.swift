import Foundation

/// One line of the event log.
public struct LogEntry: Hashable, Sendable {
    /// When it happened, as far as the app knows (the last tick's time).
    public var time: Date?
    /// What happened, already localized.
    public var text: String
    /// Whether it reports a failure.
    public var isError: Bool

    /// Creates an entry.
    public init(time: Date?, text: String, isError: Bool = false) {
        self.time = time
        self.text = text
        self.isError = isError
    }
}
