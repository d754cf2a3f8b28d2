import Foundation
import TestSupport
import Testing

@testable import StorefrontUI

/// Compares a screen with a golden text file in `Golden/`; with `RECORD_SNAPSHOTS=1` it writes
/// the file instead (and the test still checks that the recorded file reads back equal).
enum GoldenScreen {
    static var directory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    }

    static func text(_ screen: Screen) -> String {
        ScreenText.trimmed(screen.lines) + "\n"
    }

    static func check(_ screen: Screen, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name + ".txt")
        let actual = text(screen)
        if ProcessInfo.processInfo.environment["RECORD_SNAPSHOTS"] != nil {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try actual.write(to: url, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(
            actual == expected, "screen differs from \(name).txt (re-record with RECORD_SNAPSHOTS=1)",
            sourceLocation: sourceLocation)
    }
}
