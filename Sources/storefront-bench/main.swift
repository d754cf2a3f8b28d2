import Foundation

// Every benchmark section, in the order `make bench` runs them. Add yours as one line here and
// one file beside this one (see `BenchSection`). `storefront-bench NAME…` runs only those named.
let sections: [any BenchSection] = [
    CatalogBench(),
    StoreBench(),
    EngineBench(),
    HistoryBench(),
    ProcessesBench(),
    EntitlementBench(),
    ReceiptsBench(),
    VaultBench(),
    DownloadBench(),
    UIBench(),
    ServerBench(),
    NotificationBench(),
    OutboxBench(),
]

let wanted = Set(CommandLine.arguments.dropFirst())
print("storefront-bench (release build expected: make bench) — \(ProcessInfo.processInfo.activeProcessorCount) cores")
var failed = false
for section in sections where wanted.isEmpty || wanted.contains(section.name) {
    let report = BenchReport()
    report.section(section.name, section.summary)
    do {
        try section.run(report)
    } catch {
        report.note("FAILED: \(error)")
        failed = true
    }
}
exit(failed ? 1 : 0)
