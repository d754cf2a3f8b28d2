import Foundation
import LocalAppStore
import Receipts
import StoreKitValues
import SystemIO

/// Sends a store's App Store Server Notifications to `notification-url`, in the order they
/// were made, and records every attempt in the journal; failed ones are retried when Apple's
/// schedule says (`notification-retries`, on the store clock). `storefront serve` runs one.
///
/// It sends only while it holds the store's `NotificationSenderLease`, so two senders never
/// make the same attempt. A notification is journaled with its event before anything is sent
/// and its attempt after the answer, so a sender killed mid-POST sends it again (same UUID) on
/// its next start. It wakes only when something happened: the next attempt falls due (a timer
/// on the store clock), `wake()` is called (after an event in this process), or the store's
/// files change (`StoreChanges`: another process journaled an event, or a process that owned a
/// purchase ended). It never polls.
public actor NotificationSender {
    /// How the sender runs. Immutable.
    public struct Configuration: Sendable {
        /// Watches the store's files for other processes' events (`StoreChanges`); nil wakes
        /// the sender only through `wake()` and its own timer (tests drive it so).
        public var watcher: (any FileWatcher)?
        /// Receives one line per attempt, once it is journaled: UUID, type, result.
        public var log: (@Sendable (String) -> Void)?

        /// Creates a configuration.
        /// - Parameters:
        ///   - watcher: watches the store's files; the system's file-change notification by default.
        ///   - log: receives one line per attempt.
        public init(watcher: (any FileWatcher)? = SystemFileWatcher(), log: (@Sendable (String) -> Void)? = nil) {
            self.watcher = watcher
            self.log = log
        }
    }

    private let store: LocalAppStore
    private let clock: any StoreClock
    private let configuration: Configuration
    private let delivery: NotificationDelivery
    private var lease: NotificationSenderLease?
    private var task: Task<Void, Never>?
    private let wakes: AsyncStream<Void>
    private let wakeContinuation: AsyncStream<Void>.Continuation
    /// Attempts made by this sender.
    public private(set) var attemptsMade = 0
    /// Times this sender looked for due notifications: once when it starts, then once a wake.
    /// Nothing but a change, a `wake()` or a due attempt adds one (a test counts them).
    public private(set) var passes = 0

    /// A sender for `store` (not started).
    public init(store: LocalAppStore, configuration: Configuration = .init(), delivery: NotificationDelivery = .init())
    {
        self.store = store
        self.clock = store.configuration.clock
        self.configuration = configuration
        self.delivery = delivery
        (wakes, wakeContinuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    /// Starts sending (once).
    public func start() {
        guard task == nil else { return }
        task = Task { await self.run() }
    }

    /// Stops: an attempt under way finishes (and is recorded) first; the lease is given up.
    public func stop() async {
        task?.cancel()
        wakeContinuation.yield()
        await task?.value
        task = nil
        lease?.release()
        lease = nil
    }

    /// Looks for due notifications now (call after an event journaled in this process).
    public nonisolated func wake() { wakeContinuation.yield() }

    /// Whether this sender holds the lease.
    public var isSending: Bool { lease != nil }

    private func run() async {
        // Watching starts before the first look, so nothing journaled in between goes unheard.
        let changes = configuration.watcher.map {
            StoreChanges(configuration: store.configuration, watcher: $0).stream()
        }
        let forwarding = changes.map { changes in
            Task { [wakeContinuation] in
                for await _ in changes { wakeContinuation.yield() }
            }
        }
        defer { forwarding?.cancel() }
        var signals = wakes.makeAsyncIterator()
        while !Task.isCancelled {
            let next = await sendDue()
            passes += 1
            guard !Task.isCancelled else { break }
            let timer = next.map { date in
                Task { [clock, wakeContinuation] in
                    guard (try? await clock.sleep(until: date)) != nil else { return }
                    wakeContinuation.yield()
                }
            }
            _ = await signals.next()
            timer?.cancel()
        }
    }

    /// Sends every notification due now, oldest first. Returns when the next falls due.
    private func sendDue() async -> Date? {
        if lease == nil {
            lease = try? NotificationSenderLease.take(stateDirectory: store.configuration.stateDirectory)
            // Another sender has it: try again at the next change (its holder's end is one only
            // when a journal write follows; `serve` allows one server a data directory).
            guard lease != nil else { return nil }
        }
        // The server renews subscriptions as their periods end (Apple's servers do), whoever
        // made them: a renewal's DID_RENEW exists only once it is journaled.
        await store.synchronize()
        guard let settings = try? await store.settings.current(), let text = settings.notificationURL,
            let url = URL(string: text),
            let (due, next) = try? await store.notifications.due()
        else { return nil }
        for notification in due {
            guard !Task.isCancelled else { return nil }
            if settings.notificationRetries == .off && notification.resendRequested != true { continue }
            let signed: String?
            if let kept = notification.signedPayload {
                signed = kept
            } else {
                signed = try? await store.notifications.signedPayload(of: notification)
            }
            guard let payload = signed else { continue }
            let result = await delivery.post(
                NotificationDelivery.body(signedPayload: payload), to: url, timeout: settings.notificationTimeout)
            attemptsMade += 1
            let attempt = SendAttemptItem(attemptDate: clock.now, sendAttemptResult: result)
            _ = try? await store.notifications.recordAttempt(
                notification.notificationUUID, attempt, signedPayload: payload)
            configuration.log?(
                "notification \(notification.notificationUUID) \(notification.notificationType) \(result)")
        }
        // What the attempts scheduled, and anything journaled meanwhile.
        guard let after = try? await store.notifications.due() else { return next }
        return after.due.isEmpty ? after.next : clock.now
    }
}
