import Testing

@testable import StorefrontUI

@Suite struct ScreenTests {
    @Test func blankScreenIsSpaces() {
        let screen = Screen(width: 3, height: 2)
        #expect(screen.lines == ["   ", "   "])
    }

    @Test func putClipsAtTheRightEdge() {
        var screen = Screen(width: 5, height: 1)
        let used = screen.put("Storefront", x: 1, y: 0)
        #expect(screen.lines == [" Stor"])
        #expect(used == 4)
    }

    @Test func putClipsToMaxWidth() {
        var screen = Screen(width: 8, height: 1)
        screen.put("abcdef", x: 1, y: 0, maxWidth: 3)
        #expect(screen.lines == [" abc    "])
    }

    @Test func wideCharacterTakesTwoCells() {
        var screen = Screen(width: 6, height: 1)
        let used = screen.put("金币", x: 1, y: 0)
        #expect(used == 4)
        #expect(screen[1, 0].character == "金")
        #expect(screen[2, 0].isContinuation)
        #expect(screen[3, 0].character == "币")
        #expect(screen[4, 0].isContinuation)
        #expect(screen.lines == [" 金币 "])
    }

    @Test func wideCharacterAtTheRightEdgeNeverSplits() {
        for width in 1...7 {
            var screen = Screen(width: width, height: 1)
            screen.put("aコイン", x: 0, y: 0)
            let last = screen[width - 1, 0]
            // The last column is either a continuation of a whole glyph or not wide at all.
            #expect(last.isContinuation || DisplayWidth.of(last.character) == 1, "width \(width)")
            #expect(DisplayWidth.of(screen.line(0)) == width, "width \(width)")
        }
        var screen = Screen(width: 4, height: 1)
        screen.put("aコイ", x: 0, y: 0)
        #expect(screen.lines == ["aコ "])
        #expect(!screen[3, 0].isContinuation)
    }

    /// Text put on a one-line screen, from column `x`, clipped to `maxWidth`.
    struct Put: Sendable {
        var text: String
        var x = 0
        var maxWidth: Int? = nil
    }

    /// The line a screen of `width` shows after `puts`, in turn: a wide character cut by the
    /// clip edge or the left edge leaves a blank, control characters become spaces.
    @Test(arguments: [
        (6, [Put(text: "xxxxxx"), Put(text: "日本", maxWidth: 3)], "日 xxx"),
        (4, [Put(text: "日本", x: -1)], " 本 "),
        (5, [Put(text: "a\tb\nc")], "a b c"),
        (4, [Put(text: "abcdef", x: -2)], "cdef"),
        (6, [Put(text: "abcdef", x: 2, maxWidth: 2)], "  ab  "),
        (4, [Put(text: "日本"), Put(text: "x", x: 1)], " x本"),
    ])
    func whatALineShows(width: Int, puts: [Put], line: String) {
        var screen = Screen(width: width, height: 1)
        for put in puts { screen.put(put.text, x: put.x, y: 0, maxWidth: put.maxWidth) }
        #expect(screen.lines == [line])
    }

    @Test func overwritingHalfOfAWideCharacterBlanksTheOtherHalf() {
        var screen = Screen(width: 4, height: 1)
        screen.put("日本", x: 0, y: 0)
        screen.put("x", x: 1, y: 0)
        #expect(screen.lines == [" x本"])
        screen.put("y", x: 2, y: 0)
        #expect(screen.lines == [" xy "])
        #expect(!screen[3, 0].isContinuation)
    }

    @Test func combiningMarksStayWithTheirBase() {
        var screen = Screen(width: 5, height: 1)
        screen.put("Cafe\u{301}!", x: 0, y: 0)
        #expect(screen.lines == ["Café!"])
        #expect(screen[3, 0].character == "e\u{301}")
    }

    @Test func emojiTakeTwoCells() {
        var screen = Screen(width: 6, height: 1)
        screen.put("🪙x👍🏽", x: 0, y: 0)
        #expect(screen[1, 0].isContinuation)
        #expect(screen[2, 0].character == "x")
        #expect(screen[3, 0].character == "👍🏽")
        #expect(screen.lines == ["🪙x👍🏽 "])
    }

    /// A cell keeps a cluster of several code points whole, with the width `DisplayWidth` gives
    /// it, measured once; the width costs the cell no size.
    @Test func aCellHoldsAWholeClusterAndItsWidth() {
        var screen = Screen(width: 8, height: 1)
        screen.put("🇯🇵a👍🏽", x: 0, y: 0)
        #expect(screen[0, 0].character == "🇯🇵" && screen[0, 0].width == 2)
        #expect(screen[1, 0].isContinuation && screen[1, 0].width == 0)
        #expect(screen[2, 0].character == "a" && screen[2, 0].width == 1)
        #expect(screen[3, 0].character == "👍🏽" && screen[3, 0].width == DisplayWidth.of("👍🏽"))
        #expect(Cell("\u{200B}").width == 1, "a zero-width cluster alone still takes its cell")
        #expect(MemoryLayout<Cell>.stride == 24)
    }

    @Test func writesOutsideAreIgnored() {
        var screen = Screen(width: 2, height: 1)
        screen.put("a", x: 0, y: 5)
        screen.set(Cell("b"), x: -1, y: 0)
        screen.fill(Rect(x: 1, y: -3, width: 10, height: 10), with: Cell("#"))
        #expect(screen.lines == [" #"])
    }

    @Test func boxDrawsBordersAndTitle() {
        var screen = Screen(width: 10, height: 3)
        let inside = screen.box(Rect(x: 0, y: 0, width: 10, height: 3), title: "商店")
        #expect(screen.lines == ["┌ 商店 ──┐", "│        │", "└────────┘"])
        #expect(inside == Rect(x: 1, y: 1, width: 8, height: 1))
    }

    @Test func restyleKeepsCharacters() {
        var screen = Screen(width: 3, height: 1)
        screen.put("abc", x: 0, y: 0)
        screen.restyle(Rect(x: 1, y: 0, width: 1, height: 1)) { $0.attributes.insert(.reverse) }
        #expect(screen.lines == ["abc"])
        #expect(screen[1, 0].style.attributes.contains(.reverse))
        #expect(!screen[0, 0].style.attributes.contains(.reverse))
    }
}
