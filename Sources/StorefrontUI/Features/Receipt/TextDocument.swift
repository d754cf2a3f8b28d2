/// A decoded receipt or transaction as the viewer shows it: a title and lines, some of them
/// headings. The executable decodes (Receipts' decoder, the JWS payload); this only shows.
public struct TextDocument: Hashable, Sendable {
    /// One line of the document.
    public struct Line: Hashable, Sendable {
        /// The text (wrapped by the viewer, never cut).
        public var text: String
        /// Whether it heads a section.
        public var isHeading: Bool

        /// Creates a line.
        public init(_ text: String, isHeading: Bool = false) {
            self.text = text
            self.isHeading = isHeading
        }
    }

    /// The title, in English (localized through `Strings`), e.g. `App Receipt`.
    public var title: String
    /// What the title names, e.g. a transaction ID (shown after the title).
    public var subject: String
    /// The lines in order.
    public var lines: [Line]

    /// Creates a document.
    public init(title: String, subject: String = "", lines: [Line]) {
        self.title = title
        self.subject = subject
        self.lines = lines
    }
}
