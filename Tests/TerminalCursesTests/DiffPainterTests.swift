import StorefrontUI
import Testing

@testable import TerminalCurses

/// What `Terminal` sends to ncurses for a frame, recorded: `DiffPainter` drawing a
/// `ScreenDiff` on a surface that writes the calls down.
@Suite struct DiffPainterTests {
    /// A surface that records each call.
    struct Recorder: CellSurface {
        enum Call: Equatable {
            case erase
            case put(Character, x: Int, y: Int, style: CellStyle)
            case refresh
        }

        var calls: [Call] = []
        mutating func erase() { calls.append(.erase) }
        mutating func put(_ cell: Cell, x: Int, y: Int) {
            calls.append(.put(cell.character, x: x, y: y, style: cell.style))
        }
        mutating func refresh() { calls.append(.refresh) }
    }

    /// Paints the change from `old` to `new` and returns the calls and the count reported.
    func paint(from old: Screen?, to new: Screen) -> (calls: [Recorder.Call], drawn: Int) {
        var recorder = Recorder()
        let drawn = DiffPainter.paint(ScreenDiff(from: old, to: new), on: &recorder)
        return (recorder.calls, drawn)
    }

    static func screen(_ lines: [String], width: Int) -> Screen {
        var screen = Screen(width: width, height: lines.count)
        for (y, line) in lines.enumerated() { screen.put(line, x: 0, y: y) }
        return screen
    }

    static func put(_ character: Character, _ x: Int, _ y: Int, _ style: CellStyle = .plain) -> Recorder.Call {
        .put(character, x: x, y: y, style: style)
    }

    @Test func theFirstFrameErasesThenDrawsEveryCellInPlaceThenRefreshes() {
        let frame = Self.screen(["ab", "c"], width: 3)
        let (calls, drawn) = paint(from: nil, to: frame)
        #expect(
            calls == [
                .erase,
                Self.put("a", 0, 0), Self.put("b", 1, 0), Self.put(" ", 2, 0),
                Self.put("c", 0, 1), Self.put(" ", 1, 1), Self.put(" ", 2, 1),
                .refresh,
            ])
        #expect(drawn == 6)
    }

    @Test func anUnchangedFrameOnlyRefreshes() {
        let frame = Self.screen(["ab", "c"], width: 3)
        let (calls, drawn) = paint(from: frame, to: frame)
        #expect(calls == [.refresh])
        #expect(drawn == 0)
    }

    @Test func oneChangedCellIsTheOnlyOneDrawn() {
        let old = Self.screen(["hello world", "second row"], width: 12)
        let new = Self.screen(["hello world", "second rod"], width: 12)
        let (calls, drawn) = paint(from: old, to: new)
        #expect(calls == [Self.put("d", 9, 1), .refresh])
        #expect(drawn == 1)
    }

    @Test func cellsInsideARunAreEachDrawnAtTheirOwnColumn() {
        // Two changes three cells apart merge into one run; every cell of it is sent.
        let old = Self.screen(["abcdefgh"], width: 8)
        let new = Self.screen(["aXcdeYgh"], width: 8)
        let (calls, _) = paint(from: old, to: new)
        #expect(
            calls == [
                Self.put("X", 1, 0), Self.put("c", 2, 0), Self.put("d", 3, 0), Self.put("e", 4, 0), Self.put("Y", 5, 0),
                .refresh,
            ])
    }

    @Test func aWideCharacterIsDrawnOnceOverItsRightHalfClearedFirst() {
        let frame = Self.screen(["aコb"], width: 5)
        let (calls, drawn) = paint(from: nil, to: frame)
        #expect(
            calls == [
                .erase, Self.put("a", 0, 0), Self.put(" ", 2, 0), Self.put("コ", 1, 0), Self.put("b", 3, 0),
                Self.put(" ", 4, 0),
                .refresh,
            ])
        #expect(drawn == 5)
    }

    /// QA: a flag (two code points, two cells) drawn where ncurses counts one column left the
    /// previous screen in its second cell: the right half is cleared, then the whole cluster
    /// drawn over it.
    @Test func aClusterReplacingNarrowCharactersClearsItsRightHalf() {
        let old = Self.screen(["ab"], width: 3)
        let new = Self.screen(["🇯🇵"], width: 3)
        #expect(new[0, 0].character == "🇯🇵" && new[1, 0].isContinuation)
        #expect(paint(from: old, to: new).calls == [Self.put(" ", 1, 0), Self.put("🇯🇵", 0, 0), .refresh])
    }

    @Test func narrowCharactersReplacingAWideOneAreBothDrawn() {
        let old = Self.screen(["コ"], width: 4)
        let new = Self.screen(["ab"], width: 4)
        #expect(paint(from: old, to: new).calls == [Self.put("a", 0, 0), Self.put("b", 1, 0), .refresh])
        #expect(paint(from: new, to: old).calls == [Self.put(" ", 1, 0), Self.put("コ", 0, 0), .refresh])
    }

    @Test func aNewSizeRedrawsEverything() {
        let old = Self.screen(["ab"], width: 2)
        let new = Self.screen(["ab"], width: 3)
        let (calls, drawn) = paint(from: old, to: new)
        #expect(calls == [.erase, Self.put("a", 0, 0), Self.put("b", 1, 0), Self.put(" ", 2, 0), .refresh])
        #expect(drawn == 3)
    }

    @Test func eachCellKeepsItsStyle() {
        let bold = CellStyle.plain.with(.bold)
        let red = CellStyle(foreground: .red, background: .blue, attributes: [.reverse, .underline])
        var old = Screen(width: 3, height: 1)
        old.put("xyz", x: 0, y: 0)
        var new = old
        new.set(Cell("y", style: bold), x: 1, y: 0)
        new.set(Cell("z", style: red), x: 2, y: 0)
        #expect(paint(from: old, to: new).calls == [Self.put("y", 1, 0, bold), Self.put("z", 2, 0, red), .refresh])
    }
}

/// How `CursesSurface` hands a cell to ncurses: its grapheme cluster whole.
@Suite struct CursesSurfaceTests {
    /// The pieces of `text`'s one cell as (column offset, code points without the final zero).
    private func pieces(_ text: String) -> [[UInt32]] {
        var screen = Screen(width: 4, height: 1)
        screen.put(text, x: 0, y: 0)
        return CursesSurface.pieces(of: screen[0, 0]).map { piece in
            [UInt32(piece.offset)] + piece.characters.dropLast().map { UInt32(bitPattern: $0) }
        }
    }

    @Test func aCharacterIsItsScalars() {
        #expect(pieces("a") == [[0, 0x61]])
        #expect(pieces("コ") == [[0, 0x30B3]])
        #expect(pieces("e\u{301}") == [[0, 0x65, 0x301]])  // a combining accent stays with its base
        #expect(CursesSurface.pieces(of: Cell("a")).allSatisfy { $0.characters.last == 0 })
    }

    /// QA: 🇯🇵 showed 🇯. Two regional indicators of one column each fill the flag's two cells
    /// one a column, so ncurses counts what the screen counts and writes both.
    @Test func aFlagGoesOneCodePointAColumn() {
        #expect(pieces("🇯🇵") == [[0, 0x1F1EF], [1, 0x1F1F5]])
    }

    /// QA: 👍🏽 showed 👍 (setcchar drops a second spacing character). A cluster whose parts are
    /// wider than its cell goes whole into one, as do ZWJ sequences and keycaps.
    @Test func anEmojiWithASkinToneOrAJoinerGoesWholeIntoOneCell() {
        #expect(pieces("👍🏽") == [[0, 0x1F44D, 0x1F3FD]])
        #expect(pieces("👨\u{200D}👩\u{200D}👧") == [[0, 0x1F468, 0x200D, 0x1F469, 0x200D, 0x1F467]])
        #expect(pieces("1\u{FE0F}\u{20E3}") == [[0, 0x31, 0xFE0F, 0x20E3]])
    }

    @Test func aLongClusterIsCutToWhatOneCellHolds() {
        // 👨‍👩‍👧‍👦 is seven scalars; a cell holds CCHARW_MAX (5 in ncurses' wide build).
        #expect(
            pieces("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466}") == [
                [0, 0x1F468, 0x200D, 0x1F469, 0x200D, 0x1F467]
            ])
    }

    @Test func eachAttributeSetsItsOwnBit() {
        let plain = CursesSurface.attributes(of: .plain)
        let singles: [CellAttributes] = [.bold, .dim, .reverse, .underline]
        let bits = singles.map { CursesSurface.attributes(of: CellStyle(attributes: $0)) }
        #expect(bits.allSatisfy { $0 != plain })
        #expect(Set(bits).count == singles.count)
        let all = CursesSurface.attributes(of: CellStyle(attributes: [.bold, .dim, .reverse, .underline]))
        #expect(all == bits.reduce(plain) { $0 | $1 })
        #expect(CursesSurface.attributes(of: CellStyle(foreground: .red)) == plain)  // colors are pairs, not attributes
    }
}
