import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// The long-running and periodic work `reduce` asks the runtime for, with the identities the
/// runtime cancels them by.
@Suite struct EffectScheduleTests {
    @Test func startUpListensLoadsAndWatchesTheStore() {
        var state = State()
        let effects = reduce(state: &state, action: .started)
        #expect(
            effects == [
                .observeStore, .loadContext, .loadProducts, .loadPurchases, .loadSettings, .loadServer, .watchStore,
            ])
        #expect(effects.compactMap(\.id) == [.storeEvents, .storeWatch])
    }

    @Test func quitAsksOnlyForQuitAndSchedulesNothingAfter() {
        var state = Fixtures.loaded()
        _ = reduce(state: &state, action: .key(.enter))
        #expect(
            reduce(state: &state, action: .key(.enter)) == [
                .purchase(productID: coins, quantity: 1), .every(.milliseconds(100), .tick),
            ])
        // Ctrl-C while the purchase animates: the runtime cancels everything on `.quit`.
        #expect(reduce(state: &state, action: .key(.control("c"))) == [.quit])
        #expect(state.isQuitting)
        #expect(
            reduce(state: &state, action: .buySheet(.finished(productID: coins, .success(.cancelled)))) == [
                .loadPurchases
            ]
        )
    }

    @Test func theAnimationIsScheduledReplacedAndStoppedAsTheStateMoves() {
        var state = Fixtures.loaded()
        #expect(state.animationInterval == nil)
        _ = reduce(state: &state, action: .key(.enter))
        #expect(reduce(state: &state, action: .key(.enter)).last == .every(.milliseconds(100), .tick))
        #expect(state.animationInterval == 100)
        // Nothing new while the interval stays.
        #expect(reduce(state: &state, action: .tick(Fixtures.start.addingTimeInterval(0.1))) == [])
        // The purchase ends with a message: slower ticks replace the spinner's.
        let finished = reduce(state: &state, action: .buySheet(.finished(productID: coins, .success(.cancelled))))
        #expect(finished == [.loadPurchases, .every(.milliseconds(500), .tick)])
        #expect(finished.last?.id == .animation)
        // The message fades: the ticks stop.
        #expect(reduce(state: &state, action: .tick(Fixtures.start.addingTimeInterval(1))) == [])
        #expect(reduce(state: &state, action: .tick(Fixtures.start.addingTimeInterval(10))) == [.cancel(.animation)])
        #expect(state.animationInterval == nil)
        #expect(reduce(state: &state, action: .tick(Fixtures.start.addingTimeInterval(11))) == [])
    }

    @Test func aChangeFoundByALookReloadsThePurchases() {
        var state = Fixtures.loaded()
        #expect(reduce(state: &state, action: .storeChanged) == [.loadPurchases])
    }

    @Test func aPurchaseWithContentFollowsItsDownload() {
        var state = Fixtures.loaded()
        state.buySheet.flows[forest] = PurchaseFlow(productID: forest, phase: .verifying, hasDownloads: true)
        let effects = reduce(state: &state, action: .buySheet(.needsDownload(productID: forest, downloadID: "1000004")))
        #expect(effects.first == .followDownload(id: "1000004", productID: forest))
        #expect(effects.first?.id == .download(id: "1000004"))
        #expect(state.buySheet.flows[forest]?.phase == .downloading)
    }
}
