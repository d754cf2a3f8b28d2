import Foundation
import Testing

/// Plain-text baselines in `Snapshots/NAME.txt`, compared exactly.
enum Snapshot {
    static var directory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots")
    }

    /// Whether this run records baselines (`RECORD_SNAPSHOTS` set) instead of only checking them.
    static var recording: Bool { ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil }

    /// The recorded text of `name`.
    static func baseline(named name: String) throws -> String {
        try String(contentsOf: directory.appendingPathComponent(name + ".txt"), encoding: .utf8)
    }

    /// Checks `actual` against `Snapshots/NAME.txt`, after writing it there when recording.
    static func check(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name + ".txt")
        if recording {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
        }
        guard let expected = try? baseline(named: name) else {
            Issue.record(
                "no snapshot \(name).txt; record it with RECORD_SNAPSHOTS=1 swift test", sourceLocation: sourceLocation)
            return
        }
        guard actual != expected else { return }
        let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
        let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let line =
            zip(actualLines, expectedLines).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(actualLines.count, expectedLines.count)
        Issue.record(
            """
            \(name).txt differs at line \(line + 1) (re-record with RECORD_SNAPSHOTS=1 if the change is meant):
              expected: \(line < expectedLines.count ? String(expectedLines[line]) : "<end>")
              actual:   \(line < actualLines.count ? String(actualLines[line]) : "<end>")
            """, sourceLocation: sourceLocation)
    }
}
