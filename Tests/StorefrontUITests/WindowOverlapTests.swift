import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// A window covers what it overlaps: nothing of the status line shows beside it.
@Suite struct WindowOverlapTests {
    /// QA: `?`, `d`, `v` opened while a message was up left its first letter beside the window's
    /// bottom border (`R╰────…`).
    @Test(arguments: [(100, "?"), (100, "d"), (100, "v"), (100, "L"), (120, "?"), (120, "d")])
    func theStatusLineDoesNotShowBesideATallWindow(width: Int, key: Character) throws {
        var state = Fixtures.loaded(width: width, height: 30)
        send(&state, .menu(.restoreFinished(.failure(.networkError("connection refused by the store's host")))))
        let status = Layout(state: state).status
        send(&state, .key(.character(key)))
        let screen = render(state)
        var overlapped = 0
        for y in status.y..<status.maxY {
            let line = screen.line(y)
            guard let left = line.firstIndex(where: { "╰│".contains($0) }),
                let right = line.lastIndex(where: { "╯│┃".contains($0) })
            else { continue }
            overlapped += 1
            let outside = String(line[..<left]) + String(line[line.index(after: right)...])
            #expect(outside.allSatisfy { $0 == " " }, "row \(y) beside the window: \(line)")
        }
        #expect(overlapped > 0, "the window reaches the status line")
    }
}
