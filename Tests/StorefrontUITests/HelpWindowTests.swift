import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// The help window (`?`) says what each key does.
@Suite struct HelpWindowTests {
    /// QA: `n c b  Renew / Cancel / Auto-renew on / Billing issue` listed four actions for three
    /// keys; each key is its own row, with what it does (and what it does again).
    @Test func theSubscriptionKeysEachSayWhatTheyDo() {
        let rows = HelpView.rows(Strings(.english))
        #expect(!rows.contains { $0.0 == "n c b" })
        #expect(rows.contains { $0 == ("n", "Renew") })
        #expect(rows.contains { $0 == ("c", "Cancel / Auto-renew on") })
        #expect(rows.contains { $0 == ("b", "Billing issue / Resolve billing issue") })
    }
}
