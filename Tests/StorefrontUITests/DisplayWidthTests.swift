import Testing

@testable import StorefrontUI

@Suite struct DisplayWidthTests {
    @Test func asciiIsNarrow() {
        #expect(DisplayWidth.of("Coins") == 5)
    }

    @Test func cjkIsWide() {
        #expect(DisplayWidth.of("金币") == 4)
        #expect(DisplayWidth.of("コイン100枚") == 11)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("ＡＢ") == 4)
        #expect(DisplayWidth.of("￥") == 2)
        #expect(DisplayWidth.of("（月額）") == 8)
    }

    @Test func halfwidthKatakanaAndYenSignAreNarrow() {
        #expect(DisplayWidth.of("ｺｲﾝ") == 3)
        #expect(DisplayWidth.of("¥120") == 4)
    }

    @Test func combiningMarksTakeNoColumn() {
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("Cafe\u{301}") == 4)
        #expect(DisplayWidth.of("\u{301}") == 0)
        #expect(DisplayWidth.of("か\u{3099}") == 2)
    }

    @Test func emojiAreWide() {
        #expect(DisplayWidth.of("🪙") == 2)
        #expect(DisplayWidth.of("🎉") == 2)
        #expect(DisplayWidth.of("❤️") == 2)
        #expect(DisplayWidth.of("👍🏽") == 2)
        #expect(DisplayWidth.of("👨‍👩‍👧") == 2)
        #expect(DisplayWidth.of("🇯🇵") == 2)
    }

    @Test func zeroWidthScalars() {
        #expect(DisplayWidth.of("a\u{200B}b") == 2)
        #expect(DisplayWidth.of("\u{FEFF}") == 0)
        #expect(DisplayWidth.of("\u{7}") == 0)
        #expect(
            DisplayWidth.of("\u{200F}9,99\u{A0}€") == 6, "a right-to-left mark takes no column, a no-break space one")
    }

    @Test func truncationEndsInAnEllipsisWithinTheWidth() {
        #expect(TextLayout.truncate("シンセウェイブ", to: 7) == "シンセ…")
        #expect(TextLayout.truncate("short", to: 10) == "short")
        #expect(TextLayout.pad("金币", to: 6, alignRight: true) == "  金币")
    }

    @Test func ambiguousCharactersAreNarrow() {
        #expect(DisplayWidth.of("─│┌…▌") == 5)
    }
}
