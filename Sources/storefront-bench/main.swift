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

// The bench's own child (purchases counted under callgrind), not a section.
if CommandLine.arguments.count > 1, CommandLine.arguments[1] == BenchChild.flag {
    exit(BenchChild.run(Array(CommandLine.arguments.dropFirst(2))))
}

// `--table PATH` rewrites the figures table of that document (`make bench`: Docs/performance.md)
// with the rows of the sections run; a section that failed keeps its old rows.
var arguments = Array(CommandLine.arguments.dropFirst())
var tablePath: String?
if let flag = arguments.firstIndex(of: "--table"), flag + 1 < arguments.count {
    tablePath = arguments[flag + 1]
    arguments.removeSubrange(flag...(flag + 1))
}
let wanted = Set(arguments)
print("storefront-bench (release build expected: make bench) — \(ProcessInfo.processInfo.activeProcessorCount) cores")
var failed = false
var rows: [PerformanceTable.Row] = []
var ran: Set<String> = []
for section in sections where wanted.isEmpty || wanted.contains(section.name) {
    let report = BenchReport()
    report.section(section.name, section.summary)
    // The machine is shared: how busy it was says how far the absolute times can be trusted.
    if let load = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8).split(separator: " ").first {
        report.line(
            "load average at the start (1 minute)", String(load), "/proc/loadavg; ratios within a run still hold")
    }
    do {
        try section.run(report)
        rows += report.rows
        ran.insert(section.name)
    } catch {
        report.note("FAILED: \(error)")
        failed = true
    }
}
if let tablePath {
    do {
        try PerformanceTable.update(tablePath, with: rows, ran: ran, order: sections.map(\.name))
        print("\nfigures of \(ran.sorted().joined(separator: ", ")) written to \(tablePath)")
    } catch {
        print("\ncannot write the figures to \(tablePath): \(error)")
        failed = true
    }
}
exit(failed ? 1 : 0)
