import Foundation
import StoreKitValues
import StorefrontRuntime
import StorefrontUI
import Testing

/// The runtime owns every effect's task: periodic ones sleep on the injected clock, effects
/// with an identity are replaced and cancelled by it, and quitting cancels them all.
/// The time limit only turns a runtime that never lets go into a failure instead of a hang.
@Suite(.timeLimit(.minutes(10))) struct EffectRuntimeTests {
    private let clock = ObservedClock()
    private let sink = Recorder<Action>()

    private func runtime(_ handler: RecordingHandler) -> EffectRuntime {
        let sink = sink
        return EffectRuntime(handler: handler, clock: clock, send: { sink.append($0) })
    }

    @Test func aPeriodicEffectFiresAtEachIntervalOfTheClockAndStopsWhenCancelled() async {
        let handler = RecordingHandler()
        let runtime = runtime(handler)
        runtime.run(.every(.seconds(2), .loadPurchases))
        #expect(runtime.runningIDs == [.every(.loadPurchases)])
        for look in 1...3 {
            await clock.sleepsBegun(look)
            #expect(handler.performed.items.count == look - 1)
            clock.advance(by: 2)
            await handler.performed.waitUntil(count: look)
        }
        #expect(handler.performed.items == [.loadPurchases, .loadPurchases, .loadPurchases])
        #expect(sink.items.count == 3)
        // Sleeping for the fourth look when cancelled: the sleep ends, and the schedule with it.
        await clock.sleepsBegun(4)
        runtime.run(.cancel(.every(.loadPurchases)))
        #expect(runtime.runningIDs.isEmpty)
        await runtime.waitUntilIdle()
        #expect(clock.base.sleeperCount == 0)
        clock.advance(by: 20)
        #expect(handler.performed.items.count == 3)
        #expect(clock.sleeps.items == Array(repeating: .seconds(2), count: 4))
    }

    @Test func quittingCancelsEveryRunningEffectAndDropsWhatTheySendAfter() async {
        let longRunning: Set<Effect> = [
            .observeStore, .watchStore, .followDownload(id: "9", productID: "p"),
            .purchase(productID: "p", quantity: 1),
        ]
        let handler = RecordingHandler { longRunning.contains($0) }
        let runtime = runtime(handler)
        for effect in longRunning { runtime.run(effect) }
        runtime.run(.every(.milliseconds(100), .tick))
        await handler.performed.waitUntil(count: 4)
        await clock.sleepsBegun(1)
        #expect(runtime.runningIDs == [.storeEvents, .download(id: "9"), .storeWatch, .animation])

        runtime.run(.quit)
        #expect(runtime.runningIDs.isEmpty)
        await runtime.waitUntilIdle()
        #expect(Set(handler.cancelled.items) == longRunning)
        #expect(clock.base.sleeperCount == 0)
        // Each cancelled effect sent an action after its cancellation: none arrived.
        #expect(sink.items.isEmpty)

        // Nothing starts once quit.
        runtime.run(.loadProducts)
        await runtime.waitUntilIdle()
        #expect(handler.performed.items.count == 4)
    }

    @Test func anEffectWithTheSameIdentityReplacesTheRunningOne() async {
        let handler = RecordingHandler { if case .followDownload = $0 { true } else { false } }
        let runtime = runtime(handler)
        runtime.run(.followDownload(id: "9", productID: "a"))
        runtime.run(.followDownload(id: "10", productID: "c"))
        await handler.performed.waitUntil(count: 2)
        runtime.run(.followDownload(id: "9", productID: "b"))
        await handler.cancelled.waitUntil(count: 1)
        await runtime.waitForCancelledTasks()
        #expect(handler.cancelled.items == [.followDownload(id: "9", productID: "a")])
        #expect(runtime.runningIDs == [.download(id: "9"), .download(id: "10")])

        // Slower ticks replace faster ones: the old schedule is gone before the clock moves.
        runtime.run(.every(.milliseconds(100), .tick))
        await clock.sleepsBegun(1)
        runtime.run(.every(.milliseconds(250), .tick))
        await runtime.waitForCancelledTasks()
        await clock.sleepsBegun(2)
        clock.advance(by: 0.25)
        await sink.waitUntil(count: 1)
        runtime.run(.quit)
        await runtime.waitUntilIdle()
        let ticks = sink.items.compactMap { if case .tick(let date) = $0 { date } else { nil } }
        #expect(ticks == [clock.now])
        #expect(Array(clock.sleeps.items.prefix(2)) == [.milliseconds(100), .milliseconds(250)])
        #expect(
            Set(handler.cancelled.items) == [
                .followDownload(id: "9", productID: "a"), .followDownload(id: "9", productID: "b"),
                .followDownload(id: "10", productID: "c"),
            ])
    }

    @Test func cancellingWhatDoesNotRunIsHarmlessAndOneShotWorkEndsByItself() async {
        let handler = RecordingHandler()
        let runtime = runtime(handler)
        runtime.run(.cancel(.storeEvents))
        runtime.run(.loadProducts)
        runtime.run(.loadSettings)
        await runtime.waitUntilIdle()
        #expect(Set(handler.performed.items) == [.loadProducts, .loadSettings])
        #expect(sink.items.count == 2)
        #expect(runtime.runningIDs.isEmpty)
    }
}
