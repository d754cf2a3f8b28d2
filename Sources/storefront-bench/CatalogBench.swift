import Catalog
import Foundation

/// Catalog load of a generated 10,000-product, 20-locale `.storekit` file: time and peak memory,
/// beside Python's `json.load` of the same file and the time to read its bytes; then the longest
/// strings the limit accepts, and the refusal of a longer one.
struct CatalogBench: BenchSection {
    let name = "catalog"
    let summary = "load a 10,000-product, 20-locale .storekit file (peer: python3 json.load of the same file)"
    var runs = 5

    typealias Mismatch = BenchFailure

    func run(_ report: BenchReport) throws {
        try ScratchDirectory.with("catalog") { try run(report, in: $0) }
    }

    private func run(_ report: BenchReport, in directory: URL) throws {
        let file = directory.appendingPathComponent("Bench.storekit")
        let generator = CatalogGenerator(productCount: 10_000, localeCount: 20)
        try Data(generator.json().utf8).write(to: file)
        let size = (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        report.line("generated catalog", BenchReport.bytes(size), "10,000 products × 20 locales, \(runs) runs each")

        // Memory first, on a cold process heap: reset the high-water mark, load once, read it.
        let peakReset = ProcessMemory.resetPeak()
        let residentBefore = ProcessMemory.resident() ?? 0
        var catalog: StoreKitConfiguration? = try StoreKitConfiguration.load(contentsOf: file)
        let peakAfter = ProcessMemory.peak() ?? 0
        guard let loaded = catalog, loaded.products.count == 10_000,
            loaded.products.allSatisfy({ $0.localizations.count == 20 })
        else {
            throw Mismatch(description: "the generated catalog did not load as 10,000 products with 20 locales each")
        }
        catalog = nil

        let read = Timing.measure(runs: runs) { _ = try? Data(contentsOf: file) }
        let load = try Timing.measure(runs: runs) { _ = try StoreKitConfiguration.load(contentsOf: file) }
        let data = try Data(contentsOf: file)
        let decode = try Timing.measure(runs: runs) {
            _ = try StoreKitConfiguration.decode(data: data, file: file.path)
        }

        let pythonLoad = "import json; json.load(open(\(pythonLiteral(file.path))))"
        let python = try Timing.measure(runs: runs) { try ChildProcess.run("python3", ["-c", pythonLoad]) }
        let pythonPeak = ChildProcess.peakResidentOfChildren()
        let pythonStartup = try Timing.measure(runs: runs) { try ChildProcess.run("python3", ["-c", "import json"]) }

        report.line("StoreKitConfiguration.load (file → model)", BenchReport.duration(load.median), load.summary)
        report.line("  of which decode (bytes → model)", BenchReport.duration(decode.median), decode.summary)
        report.line("read the file's bytes (floor)", BenchReport.duration(read.median), read.summary)
        report.line("python3 -c 'import json; json.load(open(F))'", BenchReport.duration(python.median), python.summary)
        report.line(
            "  python3 -c 'import json' alone (startup)", BenchReport.duration(pythonStartup.median),
            pythonStartup.summary)
        report.line(
            "load / python3 json.load (median)", BenchReport.ratio(load.median / python.median),
            "below 1× means faster than Python")
        report.line(
            "load / python3 json.load (min)", BenchReport.ratio(load.minimum / python.minimum),
            "the minimum is the steadier figure on a busy machine")
        let pythonWork = max(python.median - pythonStartup.median, 1e-9)
        report.line(
            "load / python3 json.load minus startup", BenchReport.ratio(load.median / pythonWork),
            "Python's parse only; it builds dicts, we build the typed model")
        report.line(
            "load throughput", String(format: "%.0f MB/s", Double(size) / load.median / 1e6),
            "read floor \(String(format: "%.0f MB/s", Double(size) / read.median / 1e6))")

        let delta = peakAfter - residentBefore
        let method =
            peakReset
            ? "VmHWM after one load − VmRSS before, peak reset via /proc/self/clear_refs"
            : "VmHWM after − VmRSS before (peak could not be reset: an upper bound)"
        report.line(
            "peak memory of one load", BenchReport.bytes(delta),
            BenchReport.ratio(Double(delta) / Double(max(size, 1))) + " of the file size; " + method)
        report.line(
            "this process's peak RSS (VmHWM)", BenchReport.bytes(peakAfter),
            "whole process incl. Swift runtime and Foundation")
        report.line(
            "python3 json.load peak RSS", BenchReport.bytes(pythonPeak),
            "whole process (getrusage RUSAGE_CHILDREN maxrss); ours/python "
                + BenchReport.ratio(Double(peakAfter) / Double(max(pythonPeak, 1))))
        try longStrings(report, in: directory, pythonStartup: pythonStartup.median)
    }

    /// Long strings: 48 descriptions of the largest length accepted (1 MiB each, a 48 MiB file),
    /// beside Python; then a catalog with one 50 MB product ID, which is refused at its path.
    private func longStrings(_ report: BenchReport, in directory: URL, pythonStartup: Double) throws {
        let count = 48
        let description = String(repeating: "d", count: 1 << 20)
        var text = #"{"version":{"major":4,"minor":0},"products":["#
        for index in 0..<count {
            text += index == 0 ? "" : ","
            text += #"{"productID":"long.\#(index)","type":"Consumable","displayPrice":"0.99","referenceName":"Long","#
            text += #""localizations":[{"locale":"en_US","displayName":"Long","description":""# + description + #""}]}"#
        }
        text += "]}"
        let longFile = directory.appendingPathComponent("Long.storekit")
        try Data(text.utf8).write(to: longFile)
        let hugeFile = directory.appendingPathComponent("HugeID.storekit")
        let hugeID = String(repeating: "p", count: 50_000_000)
        try Data((#"{"products":[{"productID":""# + hugeID + #"","type":"Consumable","displayPrice":"0.99"}]}"#).utf8)
            .write(to: hugeFile)
        text = ""

        let long = try Timing.measure(runs: runs) {
            let catalog = try StoreKitConfiguration.load(contentsOf: longFile)
            guard catalog.products.count == count else {
                throw Mismatch(description: "the long-string catalog did not load")
            }
        }
        let pythonLong = try Timing.measure(runs: runs) {
            try ChildProcess.run("python3", ["-c", "import json; json.load(open(\(pythonLiteral(longFile.path))))"])
        }
        var refusal = ""
        let refuse = Timing.measure(runs: runs) {
            do throws(CatalogError) { _ = try StoreKitConfiguration.load(contentsOf: hugeFile) } catch {
                refusal = error.problem
            }
        }
        guard refusal.contains("1 MiB") else {
            throw Mismatch(description: "the 50 MB product ID was not refused: \(refusal)")
        }
        let pythonHuge = try Timing.measure(runs: runs) {
            try ChildProcess.run("python3", ["-c", "import json; json.load(open(\(pythonLiteral(hugeFile.path))))"])
        }

        let size = BenchReport.bytes(count << 20)
        report.line(
            "load \(count) × 1 MiB descriptions (\(size), the longest accepted)", BenchReport.duration(long.median),
            long.summary)
        report.line(
            "  python3 json.load of it minus startup", BenchReport.duration(max(pythonLong.median - pythonStartup, 0)),
            pythonLong.summary + " with startup")
        report.line(
            "  load / python3 json.load minus startup",
            BenchReport.ratio(long.median / max(pythonLong.median - pythonStartup, 1e-9)),
            String(format: "%.0f MB/s", Double(count << 20) / long.median / 1e6))
        report.line(
            "refuse a 50 MB product ID (file → error)", BenchReport.duration(refuse.median),
            refuse.summary + "; " + refusal)
        report.line(
            "  python3 json.load of it minus startup", BenchReport.duration(max(pythonHuge.median - pythonStartup, 0)),
            "Python accepts it; it has no limit")
    }

    private func pythonLiteral(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }
}
