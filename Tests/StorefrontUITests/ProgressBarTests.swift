import Testing

@testable import StorefrontUI

@Suite struct ProgressBarTests {
    @Test func emptyAndFull() {
        #expect(ProgressBar.text(fraction: 0, width: 4) == "    ")
        #expect(ProgressBar.text(fraction: 1, width: 4) == "████")
    }

    @Test func fractionalFillUsesEighths() {
        #expect(ProgressBar.text(fraction: 0.5, width: 5) == "██▌  ")
        #expect(ProgressBar.text(fraction: 1.0 / 32.0, width: 4) == "▏   ")
        #expect(ProgressBar.text(fraction: 7.0 / 8.0, width: 1) == "▉")
    }

    @Test func outOfRangeIsClamped() {
        #expect(ProgressBar.text(fraction: -1, width: 3) == "   ")
        #expect(ProgressBar.text(fraction: 3, width: 3) == "███")
        #expect(ProgressBar.text(fraction: .nan, width: 3) == "   ")
        #expect(ProgressBar.text(fraction: 0.5, width: 0) == "")
    }

    @Test func everyWidthIsExact() {
        for width in 1...40 {
            for step in 0...64 {
                let bar = ProgressBar.text(fraction: Double(step) / 64, width: width)
                #expect(bar.count == width)
            }
        }
    }

    @Test func drawnBarShowsTheTrack() {
        var screen = Screen(width: 6, height: 1)
        screen.progressBar(fraction: 0.5, x: 1, y: 0, width: 4)
        #expect(screen.lines == [" ██░░ "])
    }
}
