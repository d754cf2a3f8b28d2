/// Where each pane goes for a state's terminal size: pure arithmetic shared by the views and
/// by `reduce` (which needs the list's height to scroll and page).
public struct Layout: Hashable, Sendable {
    /// The title bar (top row).
    public let header: Rect
    /// The product list panel, border included.
    public let list: Rect
    /// The detail panel, border included (empty when there is no room).
    public let detail: Rect
    /// The event log panel, border included (empty when hidden).
    public let log: Rect
    /// The downloads panel, border included (empty without downloads).
    public let downloads: Rect
    /// The status line (messages, the filter field): one row, more for a long message.
    public let status: Rect
    /// The key hints (bottom row).
    public let hints: Rect

    /// Columns from which the detail pane sits beside the list rather than below it.
    public static let sideBySideWidth = 110
    /// The fewest columns the detail pane gets beside the list.
    public static let detailMinimumWidth = 40
    /// The most rows a long message takes in the status line.
    public static let statusMaximumRows = 3

    /// Lays out `state`'s screen.
    public init(state: State) {
        self.init(state: state, catalog: state.catalog)
    }

    /// Lays out `state`'s screen with `catalog` for its product list (the catalog screen lays
    /// out its own state while it changes it, out of the root).
    init(state: State, catalog: CatalogFeature.State) {
        let screen = Rect(x: 0, y: 0, width: state.width, height: state.height)
        let (header, belowHeader) = screen.splitTop(1)
        let statusRows = min(
            Self.statusMaximumRows, max(1, Self.messageLines(state, isFiltering: catalog.isFiltering).count))
        let (body0, footer) = belowHeader.splitBottom(statusRows + 1)
        let (status, hints) = footer.splitTop(statusRows)
        var body = body0
        var downloads = Rect(x: 0, y: 0, width: 0, height: 0)
        let shownDownloads = DownloadsView.shown(state).count
        if shownDownloads > 0 {
            let rows = min(shownDownloads, 3) + 2
            (body, downloads) = body.splitBottom(rows)
        }
        var log = Rect(x: 0, y: 0, width: 0, height: 0)
        if state.eventLog.showsPane {
            if body.width >= 140 {
                let (left, right) = body.splitLeft(body.width - 48)
                body = left
                log = right
            } else {
                (body, log) = body.splitBottom(min(8, max(3, body.height / 3)))
            }
        }
        var detail = Rect(x: 0, y: 0, width: 0, height: 0)
        var list = body
        if body.width >= Self.sideBySideWidth {
            // The list as wide as its columns want (within reason), the description the rest.
            let wanted = ProductListView.naturalWidth(state, catalog) + 2
            let listWidth = max(body.width * 2 / 5, min(wanted, body.width - Self.detailMinimumWidth))
            (list, detail) = body.splitLeft(listWidth)
        } else if body.height >= 14 {
            let detailRows = body.height >= 30 ? 12 : (body.height >= 18 ? 9 : 6)
            (list, detail) = body.splitBottom(detailRows)
        }
        self.header = header
        self.list = list
        self.detail = detail
        self.log = log
        self.downloads = downloads
        self.status = status
        self.hints = hints
    }

    /// How many list rows fit inside the list panel's border.
    public var listRows: Int { max(0, list.height - 2) }

    /// The status line's text as wrapped lines: the message, whole.
    static func messageLines(_ state: State, isFiltering: Bool? = nil) -> [String] {
        guard !(isFiltering ?? state.catalog.isFiltering), let message = state.message else { return [] }
        return TextLayout.wrap(message.text, width: max(1, state.width - 2))
    }
}
