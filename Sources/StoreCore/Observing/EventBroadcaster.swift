import Foundation
import Synchronization

/// Sends each event to every registered observer, as a notification, and to every open
/// stream. Observers are held weakly, as RMStore holds them; a purchase's own observer
/// (`PurchaseOptions.observer`) is held until the purchase ends and hears only its events.
final class EventBroadcaster: Sendable {
    private struct WeakObserver {
        weak var observer: (any StoreObserver)?
    }

    private struct State {
        var observers: [WeakObserver] = []
        var eventStreams: [UUID: AsyncStream<StoreEvent>.Continuation] = [:]
        var updateStreams: [UUID: AsyncStream<Transaction>.Continuation] = [:]
        var storefrontStreams: [UUID: AsyncStream<Storefront>.Continuation] = [:]
        /// Each purchase's own observer, by `Payment.requestID`.
        var requestObservers: [String: any StoreObserver] = [:]
        /// Delivered transactions whose content downloads, by transaction ID: their download
        /// events name them, and reach their purchase's own observer.
        var downloading: [String: Transaction] = [:]
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

    /// Tells `observer` the events of the purchase `requestID` only, until `removeObserver(forRequest:)`.
    func addObserver(_ observer: any StoreObserver, forRequest requestID: String) {
        state.withLock { $0.requestObservers[requestID] = observer }
    }

    /// Forgets the own observer of the purchase `requestID`.
    func removeObserver(forRequest requestID: String) {
        _ = state.withLock { $0.requestObservers.removeValue(forKey: requestID) }
    }

    /// Notes the transaction a download is about to start for, so its download events carry it.
    func noteDownloadTransaction(_ transaction: Transaction) {
        state.withLock { $0.downloading[transaction.transactionID] = transaction }
    }

    func events() -> AsyncStream<StoreEvent> { stream(\.eventStreams) }

    func transactionUpdates() -> AsyncStream<Transaction> { stream(\.updateStreams) }

    /// A stream of each storefront the account moves to (StoreKit 2's `Storefront.updates`).
    func storefrontUpdates() -> AsyncStream<Storefront> { stream(\.storefrontStreams) }

    /// A new unbounded stream, its continuation kept in `streams` until the stream ends.
    private func stream<Element>(
        _ streams: WritableKeyPath<State, [UUID: AsyncStream<Element>.Continuation]> & Sendable
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
        let id = UUID()
        state.withLock { $0[keyPath: streams][id] = continuation }
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0[keyPath: streams].removeValue(forKey: id) }
        }
        return stream
    }

    /// Reports `event` to observers (the purchase's own observer included), notification
    /// subscribers and event streams.
    func send(_ event: StoreEvent) {
        let (observers, streams, storefrontStreams, transaction) = state.withLock { state in
            var observers = state.observers.compactMap(\.observer)
            var transaction = event.transaction
            if let download = event.download {
                transaction = state.downloading[download.transactionID]
                // Only a finished download is over: a failed or cancelled one may be resumed.
                if download.state == .finished {
                    state.downloading.removeValue(forKey: download.transactionID)
                }
            }
            if let requestID = transaction?.payment.requestID, let own = state.requestObservers[requestID],
                !observers.contains(where: { $0 === own })
            {
                observers.append(own)
            }
            let storefrontStreams =
                if case .storefrontChanged = event { Array(state.storefrontStreams.values) } else {
                    [AsyncStream<Storefront>.Continuation]()
                }
            return (observers, Array(state.eventStreams.values), storefrontStreams, transaction)
        }
        for observer in observers { event.deliver(to: observer) }
        var userInfo: [String: any Sendable] = [storeEventUserInfoKey: event]
        if event.download != nil, let transaction { userInfo[storeTransactionUserInfoKey] = transaction }
        notificationCenter.post(name: event.notificationName, object: sender, userInfo: userInfo)
        for stream in streams { stream.yield(event) }
        if case .storefrontChanged(let storefront) = event {
            for stream in storefrontStreams { stream.yield(storefront) }
        }
    }

    /// Delivers a transaction on the StoreKit 2-shaped update streams.
    func sendUpdate(_ transaction: Transaction) {
        let streams = state.withLock { Array($0.updateStreams.values) }
        for stream in streams { stream.yield(transaction) }
    }

    func finishStreams() {
        let (events, updates, storefronts) = state.withLock { state in
            let streams = (
                Array(state.eventStreams.values), Array(state.updateStreams.values),
                Array(state.storefrontStreams.values)
            )
            state.eventStreams.removeAll()
            state.updateStreams.removeAll()
            state.storefrontStreams.removeAll()
            return streams
        }
        for stream in events { stream.finish() }
        for stream in updates { stream.finish() }
        for stream in storefronts { stream.finish() }
    }
}
