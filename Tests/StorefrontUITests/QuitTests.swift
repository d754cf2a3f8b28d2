import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// Leaving (issue 17): `q` asks while downloads run; Ctrl-C and signals leave at once with
/// the status a shell expects (128 + the signal).
@Suite struct QuitTests {
    private func downloading() -> State {
        var state = Fixtures.loaded()
        let download = Download(
            id: "9", transactionID: "9", productID: "com.storefront.demo.levels.forest", contentVersion: "1",
            state: .active, bytesWritten: 10, totalBytes: 100)
        send(&state, .storeEvent(.downloadUpdated(download)))
        return state
    }

    @Test func quittingDuringADownloadAsksFirst() {
        var state = downloading()
        #expect(send(&state, .key(.character("q"))) == [])
        #expect(!state.isQuitting)
        #expect(render(state).lines.contains { $0.contains("1 download under way. Quit anyway?") })
        #expect(send(&state, .key(.escape)) == [])
        #expect(state.modal == nil)
        send(&state, .key(.character("q")))
        #expect(send(&state, .key(.character("y"))) == [.quit])
        #expect(state.isQuitting)
        #expect(state.exitStatus == 0)
    }

    @Test func quittingWithNothingRunningLeavesAtOnce() {
        var state = Fixtures.loaded()
        #expect(send(&state, .key(.character("q"))) == [.quit])
        #expect(state.exitStatus == 0)
    }

    @Test func ctrlCAndSignalsLeaveAtOnceWithTheirStatus() {
        var state = downloading()
        #expect(send(&state, .key(.control("c"))) == [.quit])
        #expect(state.exitStatus == 130)
        var terminated = downloading()
        #expect(send(&terminated, .signal(SIGTERM)) == [.quit])
        #expect(terminated.exitStatus == 143)
    }

    @Test func cancellingADownloadAsksFirst() {
        var state = downloading()
        #expect(send(&state, .key(.character("x"))) == [])
        #expect(send(&state, .key(.character("y"))) == [.cancelDownload(id: "9")])
    }
}
