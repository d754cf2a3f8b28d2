import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// The key bar names the keys that work where the keys go.
@Suite struct KeyBarTests {
    /// The bottom row.
    private func keyBar(_ state: State) -> String {
        render(state).lines.last ?? ""
    }

    /// QA: typing in the filter, the bar still said `Enter Buy … q Quit`, though Enter keeps the
    /// filter and q is typed into it.
    @Test func whileTypingAFilterTheBarNamesTheFiltersKeys() {
        var state = Fixtures.loaded()
        #expect(keyBar(state).contains("Enter Buy"))
        send(&state, .key(.character("/")), .key(.character("q")))
        let bar = keyBar(state)
        #expect(bar.contains("Enter Keep the filter"), "\(bar)")
        #expect(bar.contains("Esc Clear the filter"), "\(bar)")
        #expect(!bar.contains("Buy") && !bar.contains("Quit"), "\(bar)")
        // Enter keeps the filter: the list's keys again.
        send(&state, .key(.enter))
        #expect(keyBar(state).contains("Enter Buy"))
    }
}
