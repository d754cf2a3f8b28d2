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
    /// The status line (messages, the filter field).
    public let status: Rect
    /// The key hints (bottom row).
    public let hints: Rect

    /// Columns from which the detail pane sits beside the list rather than below it.
    public static let sideBySideWidth = 110

    /// Lays out `state`'s screen.
    public init(state: State) {
        let screen = Rect(x: 0, y: 0, width: state.width, height: state.height)
        let (header, belowHeader) = screen.splitTop(1)
        let (body0, footer) = belowHeader.splitBottom(2)
        let (status, hints) = footer.splitTop(1)
        var body = body0
        let openDownloads = state.downloads.filter { !$0.state.isTerminal || $0.state == .failed }.count
        var downloads = Rect(x: 0, y: 0, width: 0, height: 0)
        if openDownloads > 0 {
            let rows = min(openDownloads, 3) + 2
            (body, downloads) = body.splitBottom(rows)
        }
        var log = Rect(x: 0, y: 0, width: 0, height: 0)
        if state.showsLog {
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
            let listWidth = body.width * 3 / 5
            (list, detail) = body.splitLeft(listWidth)
        } else if body.height >= 14 {
            (list, detail) = body.splitBottom(body.height >= 26 ? 9 : 6)
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
}
