import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// A download's state on its product's row and in messages (issue 17): paused says paused, a
/// cancelled one says so, and one the storefront first hears of waiting (an Ask to Buy
/// approval) starts.
@Suite struct DownloadStatusTests {
    private func download(_ state: DownloadState, written: Int64 = 550) -> Download {
        Download(
            id: "9", transactionID: "9", productID: forest, contentVersion: "1", state: state, bytesWritten: written,
            totalBytes: 1_000)
    }

    private func row(_ state: State) -> String? {
        render(state).lines.first {
            $0.contains("Forest Level Pack") && !$0.contains("█") && !$0.contains("Description")
        }
    }

    @Test func aPausedDownloadsRowSaysPaused() {
        var state = Fixtures.loaded(width: 120, height: 40)
        send(&state, .storeEvent(.downloadUpdated(download(.active))))
        send(&state, .storeEvent(.downloadPaused(download(.paused))))
        #expect(row(state)?.contains("Paused 55%") == true, "\(row(state) ?? "")")
        #expect(row(state)?.contains("Downloading") == false)
    }

    @Test func aCancelledDownloadSaysSoOnItsRowAndInAMessage() {
        var state = Fixtures.loaded(width: 120, height: 40)
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(owned: [forest]))))
        send(&state, .storeEvent(.downloadUpdated(download(.active))))
        send(&state, .storeEvent(.downloadCanceled(download(.cancelled, written: 0))))
        #expect(row(state)?.contains("Download cancelled") == true, "\(row(state) ?? "")")
        #expect(state.message?.text.contains("cancelled") == true)
    }

    @Test func aDownloadFirstHeardOfWaitingStartsAndOneAlreadyKnownDoesNot() {
        var state = Fixtures.loaded()
        // After an approval in the Transaction Manager the engine delivers the purchase and its
        // download waits: the storefront starts it.
        #expect(
            send(&state, .storeEvent(.downloadUpdated(download(.waiting, written: 0)))) == [.resumeDownload(id: "9")])
        // Resuming reports it waiting again: not a second start.
        #expect(send(&state, .storeEvent(.downloadUpdated(download(.waiting, written: 0)))) == [])
    }

    @Test func aFailedDownloadsRowSaysFailedWithItsPercentage() {
        var state = Fixtures.loaded(width: 120, height: 40)
        send(&state, .storeEvent(.downloadUpdated(download(.active, written: 500))))
        send(&state, .storeEvent(.downloadFailed(download(.failed, written: 500))))
        #expect(row(state)?.contains("Download failed 50%") == true, "\(row(state) ?? "")")
        #expect(state.message?.text.contains("failed at 50%") == true)
    }
}
