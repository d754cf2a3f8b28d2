import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// What another process does to the shared store (the CLI's `store decline`, `store set`)
/// reaches the storefront as it reaches the rest of it: announced, and shown.
@Suite struct OtherProcessTests {
    /// QA: `store set ask-to-buy on` while Store Settings was open still showed Off, and ← →
    /// then started from the stale value.
    @Test func anOpenSettingsWindowFollowsAChangeMadeElsewhere() {
        var state = Fixtures.loaded()
        send(&state, .key(.character("o")))
        let off = SettingRow(name: "ask-to-buy", label: "Ask to Buy", value: "off", choices: ["off", "on"])
        send(&state, .settings(.loaded(.success([off]))))
        #expect(send(&state, .storeChanged).contains(.loadSettings))
        var on = off
        on.value = "on"
        send(&state, .settings(.loaded(.success([on]))))
        #expect(render(state).lines.contains { $0.contains("Ask to Buy") && $0.contains("On") })
        #expect(send(&state, .key(.right)) == [.setSetting(name: "ask-to-buy", value: "off")])
    }
}
