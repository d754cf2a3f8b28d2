import Foundation

/// A message in the status line that never blocks: it fades after a few seconds.
public struct StatusMessage: Hashable, Sendable {
    /// What kind of news it is (its color).
    public enum Kind: Hashable, Sendable { case info, success, error }

    /// The text, already localized.
    public var text: String
    public var kind: Kind
    /// When it was shown (nil until the runtime's first tick after it); it fades `lifetime` later.
    public var shownAt: Date?

    /// How long a message stays, in seconds (errors stay longer).
    public var lifetime: TimeInterval { kind == .error ? 8 : 4 }

    /// Creates a message.
    public init(_ text: String, kind: Kind = .info, shownAt: Date? = nil) {
        self.text = text
        self.kind = kind
        self.shownAt = shownAt
    }
}
