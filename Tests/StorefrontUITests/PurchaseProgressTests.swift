import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// Progress that tells the truth (issue 17): every step of a purchase is ticked before the
/// sheet closes, a download's last frame is 100 %, the sheet and the Downloads pane agree,
/// and the bar does not change width with the text beside it.
@Suite struct PurchaseProgressTests {
    private func download(_ state: DownloadState, written: Int64, total: Int64 = 1_000, rate: Double = 100) -> Download
    {
        Download(
            id: "7", transactionID: "7", productID: forest, contentVersion: "1", state: state,
            bytesWritten: written, totalBytes: total, bytesPerSecond: rate)
    }

    @Test func aFinishedPurchaseShowsEveryStepTickedAndTheBarFullBeforeTheSheetCloses() {
        var state = Fixtures.loaded()
        send(&state, .key(.enter), .key(.enter))
        send(
            &state, .buySheet(.phase(productID: coins, .authorizing)), .buySheet(.phase(productID: coins, .verifying)),
            .buySheet(.phase(productID: coins, .done)))
        send(&state, .buySheet(.finished(productID: coins, .success(.purchased(transactionID: "1000001")))))
        let screen = render(state).lines.joined(separator: "\n")
        #expect(screen.contains("✓ Verifying"))
        #expect(screen.contains("✓ Done"))
        #expect(screen.contains("100%"))
        #expect(state.message?.text == "Purchased 100 Coins")
        // It closes by itself a moment later, on the injected clock.
        send(&state, .tick(Fixtures.start.addingTimeInterval(State.settledLifetime + 0.1)))
        #expect(state.modal == nil)
        #expect(state.buySheet.flows[coins] == nil)
    }

    @Test func aFinishedDownloadsLastFrameIsAHundredPercent() {
        var state = Fixtures.loaded()
        send(&state, .storeEvent(.downloadUpdated(download(.active, written: 970))))
        send(&state, .storeEvent(.downloadFinished(download(.finished, written: 1_000))))
        let pane = render(state).lines.filter { $0.contains("Forest Level Pack") && $0.contains("█") }
        #expect(pane.count == 1)
        #expect(pane.first?.contains("100%") == true)
        #expect(pane.first?.contains("97%") == false)
        send(&state, .tick(Fixtures.start.addingTimeInterval(State.settledLifetime + 0.1)))
        #expect(Layout(state: state).downloads.isEmpty)
    }

    @Test func theSheetAndTheDownloadsPaneShowTheSamePercentage() {
        var state = Fixtures.loaded()
        send(&state, .key(.down), .key(.down), .key(.enter), .key(.enter))
        send(&state, .buySheet(.phase(productID: forest, .verifying)))
        send(&state, .buySheet(.needsDownload(productID: forest, downloadID: "7")))
        send(&state, .storeEvent(.downloadUpdated(download(.active, written: 140))))
        let lines = render(state).lines
        let percents = lines.flatMap { line in line.matches(of: /(\d+)%/).map { String($0.output.1) } }
        #expect(percents.contains("14"))
        #expect(!percents.contains { $0 != "14" }, "every percentage on screen is the download's: \(percents)")
    }

    /// QA: buying a product with content, the bar went 0 % → 25 % while authorizing, then back
    /// to 0 % as the download began. It only moves forward, and it is the download's own.
    @Test func theBarNeverGoesBackForAPurchaseWithADownload() {
        var state = Fixtures.loaded()
        send(&state, .key(.down), .key(.down), .key(.enter), .key(.enter))
        var shown: [[Int]] = []
        func look() {
            shown.append(
                render(state).lines.flatMap { line in line.matches(of: /(\d+)%/).compactMap { Int($0.output.1) } })
        }
        look()
        send(&state, .buySheet(.phase(productID: forest, .authorizing)))
        look()
        send(&state, .buySheet(.phase(productID: forest, .verifying)))
        look()
        send(&state, .buySheet(.needsDownload(productID: forest, downloadID: "7")))
        look()
        send(&state, .storeEvent(.downloadUpdated(download(.active, written: 0))))
        look()
        send(&state, .storeEvent(.downloadUpdated(download(.active, written: 500))))
        look()
        send(&state, .buySheet(.downloadSettled(productID: forest, download(.finished, written: 1_000))))
        look()
        let bar = shown.map { $0.max() ?? 0 }
        #expect(bar == bar.sorted(), "\(shown)")
        #expect(bar.last == 100)
        #expect(shown.allSatisfy { Set($0).count <= 1 }, "the sheet and the Downloads pane agree: \(shown)")
    }

    @Test func theDownloadBarKeepsItsWidthWhateverTheTimeLeft() {
        func barCells(rate: Double) -> [Int] {
            var state = Fixtures.loaded()
            send(
                &state, .storeEvent(.downloadUpdated(download(.active, written: 500, total: 1_000_000_000, rate: rate)))
            )
            let screen = render(state)
            guard let y = (0..<screen.height).first(where: { screen.line($0).contains("░") }) else { return [] }
            return (0..<screen.width).filter { "█▏▎▍▌▋▊▉░".contains(screen[$0, y].character) }
        }
        let fast = barCells(rate: 500_000_000)
        let slow = barCells(rate: 3)
        #expect(!fast.isEmpty)
        #expect(fast == slow)
    }
}

/// A purchase whose download does not finish is bought but not done: the message says what
/// happened to the download, never just "Purchased".
@Suite struct PurchaseDownloadOutcomeTests {
    private func following() -> State {
        var state = Fixtures.loaded()
        send(&state, .key(.down), .key(.down), .key(.enter), .key(.enter))
        send(&state, .buySheet(.needsDownload(productID: forest, downloadID: "7")))
        return state
    }

    private func download(_ state: DownloadState) -> Download {
        Download(
            id: "7", transactionID: "7", productID: forest, contentVersion: "1", state: state, bytesWritten: 500,
            totalBytes: 1_000, error: state == .failed ? .transferFailed("connection reset") : nil)
    }

    @Test func aFailedDownloadSaysItFailedAndWhere() {
        var state = following()
        send(&state, .storeEvent(.downloadFailed(download(.failed))))
        send(&state, .buySheet(.downloadSettled(productID: forest, download(.failed))))
        #expect(state.message?.kind == .error)
        #expect(state.message?.text.hasPrefix("Bought Forest Level Pack, but its download failed at 50%") == true)
        #expect(!state.eventLog.entries.contains { $0.text.hasPrefix("Purchased") })
        #expect(state.modal == nil)
    }

    @Test func aPausedOrCancelledDownloadSaysWhatToPress() {
        var paused = following()
        send(&paused, .buySheet(.downloadSettled(productID: forest, download(.paused))))
        #expect(paused.message?.text == "Bought Forest Level Pack; its download is paused at 50% (space resumes)")
        var cancelled = following()
        send(&cancelled, .buySheet(.downloadSettled(productID: forest, download(.cancelled))))
        #expect(
            cancelled.message?.text == "Bought Forest Level Pack; its download was cancelled (space starts it again)")
    }

    @Test func aFinishedDownloadCompletesThePurchase() {
        var state = following()
        send(&state, .buySheet(.downloadSettled(productID: forest, download(.finished))))
        #expect(state.message?.text == "Purchased Forest Level Pack")
        #expect(state.buySheet.flows[forest]?.phase == .done)
    }
}
