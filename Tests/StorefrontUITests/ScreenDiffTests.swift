import TestSupport
import Testing

@testable import StorefrontUI

/// Applies a diff to a screen the way a terminal would: each run's cells from its column.
private func apply(_ diff: ScreenDiff, to screen: Screen) -> Screen {
    var result = diff.isFullRedraw ? Screen(width: screen.width, height: screen.height) : screen
    for run in diff.runs {
        for (offset, cell) in run.cells.enumerated() { result.set(cell, x: run.x + offset, y: run.y) }
    }
    return result
}

@Suite struct ScreenDiffTests {
    @Test func identicalScreensHaveNoRuns() {
        var screen = Screen(width: 10, height: 3)
        screen.put("hello", x: 2, y: 1)
        let diff = ScreenDiff(from: screen, to: screen)
        #expect(diff.runs.isEmpty)
        #expect(!diff.isFullRedraw)
    }

    @Test func firstFrameAndResizeRedrawEverything() {
        let screen = Screen(width: 4, height: 2)
        let first = ScreenDiff(from: nil, to: screen)
        #expect(first.isFullRedraw)
        #expect(first.cellCount == 8)
        let resized = ScreenDiff(from: Screen(width: 5, height: 2), to: screen)
        #expect(resized.isFullRedraw)
    }

    @Test func onlyChangedCellsAreDrawn() {
        var old = Screen(width: 20, height: 3)
        old.put("Coins 100   $0.99", x: 0, y: 1)
        var new = old
        new.put("Coins 500", x: 0, y: 1)
        let diff = ScreenDiff(from: old, to: new)
        #expect(diff.runs == [ScreenDiff.Run(y: 1, x: 6, cells: [Cell("5")])])
    }

    @Test func nearbyChangesMergeAndFarOnesDoNot() {
        let old = Screen(width: 20, height: 1)
        var near = old
        near.put("a", x: 2, y: 0)
        near.put("b", x: 5, y: 0)
        #expect(ScreenDiff(from: old, to: near).runs.map(\.x) == [2])
        var far = old
        far.put("a", x: 2, y: 0)
        far.put("b", x: 12, y: 0)
        #expect(ScreenDiff(from: old, to: far).runs.map(\.x) == [2, 12])
    }

    @Test func runsHoldWholeWideCharacters() {
        var old = Screen(width: 8, height: 1)
        old.put("日本語", x: 0, y: 0)
        var new = old
        // Only the style of the continuation half differs: the run must start at its lead.
        new.set(Cell(" ", style: CellStyle(attributes: .bold), isContinuation: true), x: 3, y: 0)
        let diff = ScreenDiff(from: old, to: new)
        #expect(diff.runs.first?.x == 2)
        #expect(diff.runs.allSatisfy { !($0.cells.first?.isContinuation ?? true) })
        var narrowToWide = Screen(width: 8, height: 1)
        narrowToWide.put("ab", x: 0, y: 0)
        var wide = narrowToWide
        wide.put("金", x: 0, y: 0)
        let runs = ScreenDiff(from: narrowToWide, to: wide).runs
        #expect(runs.count == 1)
        #expect(runs[0].cells.count == 2)
    }

    @Test func applyingTheDiffAlwaysGivesTheNewScreen() {
        var rng = SeededGenerator(state: 42)  // the same random screens on every run
        let pieces = ["a", "bc", "金币", "コイン", "x", "é", "🪙", " ", "¥120", "─"]
        for _ in 0..<300 {
            let width = Int.random(in: 1...24, using: &rng)
            let height = Int.random(in: 1...4, using: &rng)
            var old = Screen(width: width, height: height)
            var new = old
            for _ in 0..<12 {
                old.put(
                    pieces.randomElement(using: &rng) ?? "", x: Int.random(in: -1..<width, using: &rng),
                    y: Int.random(in: 0..<height, using: &rng))
                let style = CellStyle(foreground: TerminalColor.allCases.randomElement(using: &rng) ?? .default)
                new.put(
                    pieces.randomElement(using: &rng) ?? "", x: Int.random(in: -1..<width, using: &rng),
                    y: Int.random(in: 0..<height, using: &rng), style: style)
            }
            let diff = ScreenDiff(from: old, to: new)
            #expect(apply(diff, to: old) == new)
            for run in diff.runs {
                #expect(!(run.cells.first?.isContinuation ?? true))
                let end = run.x + run.cells.count
                #expect(end == width || !new[end, run.y].isContinuation)
            }
        }
    }
}
