import Foundation
import StoreCore
import Synchronization
import SystemIO

/// Runs one download in this process and shows its progress: a bar redrawn in place on a
/// terminal, plain lines (every 10 %) otherwise, and a closing line.
enum DownloadsFollower {
    /// Whether output goes to a terminal (the bar) or elsewhere (plain lines).
    static func isTerminal(_ output: any TextOutput) -> Bool {
        output is StandardStreams && CurrentProcess.isTerminal(.output)
    }

    /// Starts (or resumes) download `id`, shows progress until it is finished, failed, paused
    /// or cancelled, and returns it. With `quiet`, nothing is written (for `--json`).
    static func follow(
        _ id: String, name: String, store: Store, output: any TextOutput, quiet: Bool
    ) async throws(DownloadError) -> Download {
        guard let manager = store.downloads else { throw .unknownDownload(id) }
        let (updates, continuation) = AsyncStream<Download>.makeStream(bufferingPolicy: .bufferingNewest(64))
        let events = store.events()
        let forward = Task {
            for await event in events {
                if let download = event.download, download.id == id { continuation.yield(download) }
            }
        }
        try await manager.resume(id)
        let settle = Task {
            let final = try? await manager.waitUntilSettled(id)
            if let final { continuation.yield(final) }
            continuation.finish()
        }
        defer {
            forward.cancel()
            settle.cancel()
        }
        let terminal = isTerminal(output)
        var lastDecile = -1
        var drewBar = false
        for await download in updates {
            if quiet || download.state != .active { continue }
            if terminal {
                output.write("\r\u{1B}[2K" + DownloadsOutput.bar(download, name: name))
                drewBar = true
            } else {
                let decile = DownloadsOutput.percent(download) / 10
                if decile > lastDecile {
                    lastDecile = decile
                    output.write(DownloadsOutput.line(download, name: name) + "\n")
                }
            }
        }
        guard let final = await manager.download(id: id) else { throw .unknownDownload(id) }
        if !quiet {
            if drewBar { output.write("\r\u{1B}[2K" + DownloadsOutput.bar(final, name: name) + "\n") }
            // A download can settle before any progress reached us (a busy machine, a small
            // file): plain output still shows one progress line.
            if !terminal, lastDecile < 0 { output.write(DownloadsOutput.line(final, name: name) + "\n") }
            output.write(DownloadsOutput.outcome(final, name: name) + "\n")
        }
        return final
    }
}

extension DownloadsFollower {
    /// After `storefront buy`: follows the purchase's content download, if it has one.
    static func followPurchase(
        _ result: PurchaseResult, name: String, session: StoreSession, context: CommandContext, json: Bool
    ) async -> Download? {
        guard case .purchased(let transaction) = result, let manager = session.store.downloads,
            let download = await manager.download(id: transaction.transactionID)
        else { return nil }
        guard download.state != .finished else { return download }
        do {
            return try await follow(download.id, name: name, store: session.store, output: context.output, quiet: json)
        } catch {
            context.output.writeError("storefront: \(error.description)\n")
            return await manager.download(id: download.id)
        }
    }
}

extension DownloadsFollower {
    /// After `storefront restore`: follows the content download of each restored product that
    /// has one, one after the other.
    static func followRestore(
        _ restored: [Transaction], session: StoreSession, context: CommandContext, json: Bool
    ) async {
        guard let manager = session.store.downloads else { return }
        for transaction in restored {
            guard let download = await manager.download(id: transaction.transactionID), download.state != .finished
            else { continue }
            let product = try? await session.store.requestProducts([transaction.productID]).products.first
            do {
                _ = try await follow(
                    download.id, name: product?.displayName ?? transaction.productID,
                    store: session.store, output: context.output, quiet: json)
            } catch {
                context.output.writeError("storefront: \(error.description)\n")
            }
        }
    }
}
