import Foundation
import StoreCore

/// `storefront downloads [pause|resume|cancel ID]`: hosted-content downloads.
struct DownloadsCommand: Command {
    let name = "downloads"
    let summary = "List hosted-content downloads; pause, resume or cancel one."
    var forms: [UsageForm] { [UsageForm("[pause|resume|cancel ID]")] }
    let discussion = """
        Products with hosted content (the Demo's level pack, sticker set and sound pack) are
        downloaded after 'storefront buy' or 'storefront restore', checked against the catalog's
        SHA-256 digests and installed into DATA/Content/PRODUCT_ID/VERSION/. The transaction is
        finished with the store only once its content is installed.

        With no arguments, lists every download with its state (waiting, active, paused,
        finished, failed, cancelled) and progress. 'pause ID' and 'cancel ID' stop a download,
        also one running in another storefront process; cancel deletes the partial bytes.
        'resume ID' downloads in the foreground with a progress bar, continuing from the last
        durable offset (after a pause, a failure or a killed process). ID is the transaction ID
        or a product ID. The local store's 'bandwidth' and 'fail-downloads-at' settings
        ('storefront store set') shape the downloads. --json prints objects with id,
        transactionID, productID, contentVersion, state, bytesWritten, totalBytes, percent and,
        when known, contentPath and error.
        """

    func run(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        let arguments = invocation.arguments
        switch arguments.first {
        case nil:
            try await list(invocation, context: context)
        case "pause", "resume", "cancel":
            guard arguments.count == 2 else {
                throw .usage("downloads \(arguments[0]) needs exactly one download ID (see 'storefront downloads').")
            }
            try await control(arguments[0], arguments[1], invocation, context: context)
        default:
            throw .usage(
                "unknown downloads action '\(arguments[0])'; use pause, resume or cancel with an ID, or no arguments to list."
            )
        }
    }

    private func list(_ invocation: Invocation, context: CommandContext) async throws(CLIError) {
        let session = try await StoreSession.open(invocation, context: context)
        let downloads = await session.store.downloads?.downloads() ?? []
        await session.close()
        if invocation.global.json {
            context.output.write(JSONText.array(downloads.map(DownloadsOutput.json)).rendered())
            return
        }
        guard !downloads.isEmpty else {
            context.output.write("No downloads yet. Products with hosted content download after 'storefront buy'.\n")
            return
        }
        let table = TextTable(
            columns: [
                .init(header: "ID"), .init(header: "PRODUCT"), .init(header: "VERSION"), .init(header: "STATE"),
                .init(header: "DONE", alignment: .right), .init(header: "BYTES", alignment: .right),
                .init(header: "NOTE", maximumWidth: 90),
            ],
            rows: downloads.map(DownloadsOutput.row))
        context.output.write(table.render().joined(separator: "\n") + "\n")
    }

    /// The download `key` names for `action`: the one with that ID, else one of that
    /// product's. By product, `resume` continues the unfinished one furthest along (never a
    /// newer one that would start again from less), `pause` and `cancel` the one running or
    /// waiting first; failing those, the newest.
    static func target(_ key: String, for action: String, in downloads: [Download]) -> Download? {
        if let exact = downloads.first(where: { $0.id == key }) { return exact }
        let product = downloads.filter { $0.productID == key }
        let unfinished = product.filter { $0.state != .finished }
        let furthest = unfinished.enumerated().max { a, b in
            (a.element.bytesWritten, a.offset) < (b.element.bytesWritten, b.offset)
        }?.element
        switch action {
        case "resume":
            return furthest ?? product.last
        default:
            return unfinished.last { $0.state == .active || $0.state == .waiting } ?? furthest ?? product.last
        }
    }

    private func control(
        _ action: String, _ key: String, _ invocation: Invocation, context: CommandContext
    ) async throws(CLIError) {
        let session = try await StoreSession.open(invocation, context: context)
        guard let manager = session.store.downloads else {
            await session.close()
            throw .runtime("downloads are not enabled.")
        }
        let all = await manager.downloads()
        guard let target = Self.target(key, for: action, in: all) else {
            await session.close()
            throw .runtime("no download \(key); see 'storefront downloads' for the IDs.")
        }
        let localized = try? await session.store.requestProducts([target.productID]).products.first
        let name = localized?.displayName ?? target.productID
        let result: Download
        do throws(DownloadError) {
            switch action {
            case "pause": result = try await manager.pause(target.id)
            case "cancel": result = try await manager.cancel(target.id)
            default:
                result = try await DownloadsFollower.follow(
                    target.id, name: name, store: session.store, output: context.output, quiet: invocation.global.json)
            }
        } catch {
            await session.close()
            throw .runtime(error.description)
        }
        await session.close()
        if invocation.global.json {
            context.output.write(DownloadsOutput.json(result).rendered())
        } else if action != "resume" {
            context.output.write(DownloadsOutput.outcome(result, name: name) + "\n")
        }
        if action == "resume", result.state == .failed || result.state == .cancelled {
            throw .runtime("the download of \(target.productID) did not complete (\(result.state)).")
        }
    }
}
