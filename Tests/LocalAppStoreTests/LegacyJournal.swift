import Foundation
import TestSupport

@testable import LocalAppStore

/// A journal written line by line as an older (or newer) version of the store wrote it, for the
/// migration and refusal tests: its header names `version`, then each record as one JSON line.
struct LegacyJournal {
    private var lines: [String]
    private let encoder = JSONEncoder()

    init(version: Int) {
        lines = [
            #"{"kind":"header","format":"storefront-local-store-journal","nextTransactionID":2000000000000001,"version":\#(version)}"#
        ]
    }

    /// A journal of `version` whose header `settings` follow, as every version wrote it.
    init(version: Int, settings: LocalStoreSettings) throws {
        self.init(version: version)
        try append(JournalRecord.make(settings))
    }

    /// Appends `record` as its own line.
    mutating func append(_ record: JournalRecord) throws {
        lines.append(String(decoding: try encoder.encode(record), as: UTF8.self))
    }

    /// Appends `line` as written, whatever it holds.
    mutating func appendLine(_ line: String) {
        lines.append(line)
    }

    /// Writes the journal as the store of `directory` finds it.
    func write(to directory: TemporaryDirectory) throws {
        try FileManager.default.createDirectory(at: directory.stateDirectory, withIntermediateDirectories: true)
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: directory.journal)
    }
}
