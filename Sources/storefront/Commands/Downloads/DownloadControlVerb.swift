import StoreCore

/// `storefront downloads pause ID`, `resume ID` and `cancel ID`: one download stopped, or
/// continued in the foreground.
struct DownloadControlVerb: Verb {
    /// What the verb does to the download.
    enum Action: String, Sendable {
        case pause, resume, cancel
    }

    let action: Action
    let abstract: String
    var name: String { action.rawValue }
    let arguments = [Argument("ID")]
    var footnote: String? { "ID is the transaction ID or a product ID." }

    static let pause = DownloadControlVerb(
        action: .pause, abstract: "stop a download, also one running in another storefront process")
    static let resume = DownloadControlVerb(
        action: .resume,
        abstract: """
            download in the foreground with a progress bar, continuing from the last durable offset (after a \
            pause, a failure or a killed process)
            """)
    static let cancel = DownloadControlVerb(
        action: .cancel,
        abstract: "stop a download, also one running in another storefront process, and delete its partial bytes")

    /// The download `key` names for `action`: the one with that ID, else one of that
    /// product's. By product, `resume` continues the unfinished one furthest along (never a
    /// newer one that would start again from less), `pause` and `cancel` the one running or
    /// waiting first; failing those, the newest.
    static func target(_ key: String, for action: Action, in downloads: [Download]) -> Download? {
        if let exact = downloads.first(where: { $0.id == key }) { return exact }
        let product = downloads.filter { $0.productID == key }
        let unfinished = product.filter { $0.state != .finished }
        let furthest = unfinished.enumerated().max { a, b in
            (a.element.bytesWritten, a.offset) < (b.element.bytesWritten, b.offset)
        }?.element
        switch action {
        case .resume:
            return furthest ?? product.last
        case .pause, .cancel:
            return unfinished.last { $0.state == .active || $0.state == .waiting } ?? furthest ?? product.last
        }
    }

    func run(_ call: VerbCall) async throws(CLIError) {
        let key = call.arguments[0]
        let session = try await StoreSession.open(call.invocation, context: call.context)
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
            case .pause: result = try await manager.pause(target.id)
            case .cancel: result = try await manager.cancel(target.id)
            case .resume:
                result = try await DownloadsFollower.follow(
                    target.id, name: name, store: session.store, output: call.output, quiet: call.json)
            }
        } catch {
            await session.close()
            throw .runtime(error.description)
        }
        await session.close()
        if call.json {
            call.output.write(DownloadsOutput.json(result).rendered())
        } else if action != .resume {
            call.output.write(DownloadsOutput.outcome(result, name: name) + "\n")
        }
        if action == .resume, result.state == .failed || result.state == .cancelled {
            throw .runtime("the download of \(target.productID) did not complete (\(result.state)).")
        }
    }
}
