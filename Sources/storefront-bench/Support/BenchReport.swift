import Foundation

/// Prints benchmark figures in aligned `label  value  note` lines, and keeps them as the rows of
/// `Docs/performance.md`'s table (`PerformanceTable`).
final class BenchReport {
    /// The figures printed so far, in order.
    private(set) var rows: [PerformanceTable.Row] = []
    private var current = ""

    /// Starts a section.
    func section(_ name: String, _ summary: String) {
        current = name
        print("\n== \(name): \(summary)")
    }

    /// One figure line.
    func line(_ label: String, _ value: String, _ note: String = "") {
        rows.append(PerformanceTable.Row(section: current, figure: label, value: value, note: note))
        let padded = label.padding(toLength: max(label.count, 44), withPad: " ", startingAt: 0)
        // At least one space between a long label and a long value.
        let valuePadded = String(repeating: " ", count: max(22 - value.count, label.count >= 44 ? 1 : 0)) + value
        print("  \(padded)\(valuePadded)\(note.isEmpty ? "" : "  \(note)")")
    }

    /// A free-form note line.
    func note(_ text: String) {
        print("  \(text)")
    }

    /// `1.234 s`, `12.3 ms`, `456 µs`.
    static func duration(_ seconds: Double) -> String {
        if seconds >= 1 { return String(format: "%.3f s", seconds) }
        if seconds >= 0.001 { return String(format: "%.1f ms", seconds * 1000) }
        return String(format: "%.0f µs", seconds * 1_000_000)
    }

    /// `12.3 MiB` from bytes.
    static func bytes(_ count: Int) -> String {
        String(format: "%.1f MiB", Double(count) / 1_048_576)
    }

    /// `0.42×`.
    static func ratio(_ value: Double) -> String {
        String(format: "%.2f×", value)
    }
}
