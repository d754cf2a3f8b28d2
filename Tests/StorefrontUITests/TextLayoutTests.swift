import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

@Suite struct TextLayoutTests {
    @Test func wrapBreaksAtSpacesAndBetweenCJKCharacters() {
        #expect(
            TextLayout.wrap("A chest of coins for big plans.", width: 12) == ["A chest of", "coins for", "big plans."])
        #expect(TextLayout.wrap("大きな計画のための宝箱", width: 8) == ["大きな計", "画のため", "の宝箱"])
        #expect(TextLayout.wrap("Supercalifragilistic", width: 8) == ["Supercal", "ifragili", "stic"])
    }

    @Test func truncateNeverSplitsAWideCharacter() {
        #expect(TextLayout.truncate("プレミアム（年額）", to: 7) == "プレミ…")
        #expect(TextLayout.truncate("Premium", to: 7) == "Premium")
        #expect(DisplayWidth.of(TextLayout.pad("森の", to: 5)) == 5)
    }
}
