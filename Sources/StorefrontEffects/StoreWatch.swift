import StoreCore
import StorefrontUI
import Synchronization

/// The storefront's two ways of hearing the store: the engine's events as they happen, and a
/// look at the shared store's revision each time its files change, for what other processes
/// changed.
final class StoreWatch: Sendable {
    private let store: any StorefrontStore
    /// The store's revision at the last look (nil before the first).
    private let lookedAt = Mutex<Int?>(nil)

    init(store: any StorefrontStore) {
        self.store = store
    }

    /// Hears the engine until cancelled. The stream is taken first, so nothing the downloads
    /// carried on here report goes unheard; it ends when the task is cancelled.
    func observe(send: @escaping @Sendable (Action) -> Void) async {
        let events = store.events()
        async let carriedOn: Void = carryOnDownloads(send: send)
        for await event in events { send(.storeEvent(event)) }
        await carriedOn
    }

    /// Downloads left waiting by an earlier process (killed mid-download) carry on, and every
    /// known download shows in the pane.
    private func carryOnDownloads(send: @escaping @Sendable (Action) -> Void) async {
        guard let downloads = store.downloads else { return }
        for download in await downloads.downloads() where download.state == .waiting {
            try? await downloads.resume(download.id)
        }
        for download in await downloads.downloads() where !download.state.isTerminal {
            send(.storeEvent(.downloadUpdated(download)))
        }
    }

    /// Follows other processes' changes until cancelled: looks once, then once each time the
    /// store's files change. Watching starts before the first look, so a change made between
    /// the two is not missed; nothing runs between changes.
    func follow(send: @escaping @Sendable (Action) -> Void) async {
        let changes = store.changes()
        await look(send: send)
        for await _ in changes { await look(send: send) }
    }

    /// Looks once whether another process changed the shared store. What it changed (a
    /// decline, a cancel, a refund) may raise no engine event, so `.storeChanged` tells the
    /// reducer to reload; only when the store's revision moved (always after the first look:
    /// the start-up loads may predate what it pulled in).
    private func look(send: @escaping @Sendable (Action) -> Void) async {
        await store.synchronize()
        let revision = await store.revision()
        let previous = lookedAt.withLock { seen in
            defer { seen = revision }
            return seen
        }
        if previous != revision { send(.storeChanged) }
    }
}
