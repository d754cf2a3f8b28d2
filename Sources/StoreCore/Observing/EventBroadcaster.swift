import Foundation
import Synchronization

/// Sends each event to every registered observer, as a notification, and to every open
/// stream. Observers are held weakly, as RMStore holds them.
final class EventBroadcaster: Sendable {
    private struct WeakObserver {
        weak var observer: (any StoreObserver)?
    }

    private struct State {
        var observers: [WeakObserver] = []
        var eventStreams: [UUID: AsyncStream<StoreEvent>.Continuation] = [:]
        var updateStreams: [UUID: AsyncStream<Transaction>.Continuation] = [:]
    }

    private let state = Mutex(State())
    private let notificationCenter: NotificationCenter
    private let sender: (any AnyObject & Sendable)?

    init(notificationCenter: NotificationCenter, sender: (any AnyObject & Sendable)?) {
        self.notificationCenter = notificationCenter
        self.sender = sender
    }

    func add(_ observer: any StoreObserver) {
        state.withLock { state in
            state.observers.removeAll { $0.observer == nil || $0.observer === observer }
            state.observers.append(WeakObserver(observer: observer))
        }
    }

    func remove(_ observer: any StoreObserver) {
        state.withLock { $0.observers.removeAll { $0.observer == nil || $0.observer === observer } }
    }

    func events() -> AsyncStream<StoreEvent> {
        let (stream, continuation) = AsyncStream<StoreEvent>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        state.withLock { $0.eventStreams[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.eventStreams.removeValue(forKey: id) }
        }
        return stream
    }

    func transactionUpdates() -> AsyncStream<Transaction> {
        let (stream, continuation) = AsyncStream<Transaction>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        state.withLock { $0.updateStreams[id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.updateStreams.removeValue(forKey: id) }
        }
        return stream
    }

    /// Reports `event` to observers, notification subscribers and event streams.
    func send(_ event: StoreEvent) {
        let (observers, streams) = state.withLock { state in
            (state.observers.compactMap(\.observer), Array(state.eventStreams.values))
        }
        for observer in observers { event.deliver(to: observer) }
        notificationCenter.post(
            name: event.notificationName, object: sender, userInfo: [storeEventUserInfoKey: event])
        for stream in streams { stream.yield(event) }
    }

    /// Delivers a transaction on the StoreKit 2-shaped update streams.
    func sendUpdate(_ transaction: Transaction) {
        let streams = state.withLock { Array($0.updateStreams.values) }
        for stream in streams { stream.yield(transaction) }
    }

    func finishStreams() {
        let (events, updates) = state.withLock { state in
            let pair = (Array(state.eventStreams.values), Array(state.updateStreams.values))
            state.eventStreams.removeAll()
            state.updateStreams.removeAll()
            return pair
        }
        events.forEach { $0.finish() }
        updates.forEach { $0.finish() }
    }
}
