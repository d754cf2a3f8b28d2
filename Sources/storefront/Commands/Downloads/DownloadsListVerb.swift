/// `storefront downloads`: every hosted-content download, with its state and progress.
struct DownloadsListVerb: Verb {
    let name = ""
    var options: [any CommandOption] { [GlobalOptions.json] }
    let abstract =
        "list every download with its state (waiting, active, paused, finished, failed, cancelled) and progress"

    func run(_ call: VerbCall) async throws(CLIError) {
        let session = try await StoreSession.open(call.invocation, context: call.context)
        let downloads = await session.store.downloads?.downloads() ?? []
        await session.close()
        let table = TextTable(
            columns: [
                .init(header: "ID"), .init(header: "PRODUCT"), .init(header: "VERSION"), .init(header: "STATE"),
                .init(header: "DONE", alignment: .right), .init(header: "BYTES", alignment: .right),
                .init(header: "NOTE", maximumWidth: 90),
            ],
            rows: downloads.map(DownloadsOutput.row))
        call.write(
            json: .array(downloads.map(DownloadsOutput.json)),
            lines: downloads.isEmpty
                ? ["No downloads yet. Products with hosted content download after 'storefront buy'."] : table.render())
    }
}
