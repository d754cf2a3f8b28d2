import StoreCore
import StorefrontEffects
import StorefrontUI
import Testing

/// The download keys, run on the engine's downloads: what they change arrives as the engine's
/// events, so only a failure to act is sent.
struct DownloadCommandsTests {
    typealias F = Fixtures

    @Test func spacePausesTheSelectedProductsDownloadAndResumesItAgain() async {
        let downloads = FakeDownloads(FakeDownloads.Script(downloads: [F.download("7", F.coins, .active)]))
        var state = F.loaded()
        state.downloads.items = [F.download("7", F.coins, .active)]
        state.animationInterval = 250
        let store = TestStore(state, store: FakeStore(downloads: downloads))
        await store.send(.key(.character(" ")))
        #expect(store.effects == [.pauseDownload(id: "7")])
        let paused = F.download("7", F.coins, .paused)
        await store.send(.storeEvent(.downloadPaused(paused))) {
            $0.downloads.items = [paused]
            $0.eventLog.entries.append(LogEntry(time: F.start, text: "Download of 100 Coins paused at 0%"))
            $0.animationInterval = nil
        }
        await store.send(.key(.character(" ")))
        #expect(store.effects == [.resumeDownload(id: "7")])
        store.finish()
        #expect(downloads.calls == ["pause 7", "resume 7"])
    }

    @Test func aKeyThatCannotActSaysSo() async {
        let downloads = FakeDownloads(FakeDownloads.Script(failing: ["cancel": .unknownDownload("7")]))
        let sent = Sent()
        await StorefrontEffects(store: FakeStore(downloads: downloads)).perform(
            .cancelDownload(id: "7"), send: sent.append)
        #expect(
            sent.actions == [
                .storeEvent(.productsRequestFailed(.unknown("download 7: \(DownloadError.unknownDownload("7"))")))
            ])

        // Without hosted content there is no download to act on.
        let sentToo = Sent()
        await StorefrontEffects(store: FakeStore()).perform(.resumeDownload(id: "7"), send: sentToo.append)
        #expect(
            sentToo.actions == [
                .storeEvent(
                    .downloadFailed(
                        Download(
                            id: "7", transactionID: "7", productID: "7", contentVersion: "", state: .failed,
                            bytesWritten: 0, totalBytes: 0)))
            ])
    }
}
