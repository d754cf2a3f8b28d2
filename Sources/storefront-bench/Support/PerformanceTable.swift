import Foundation

/// The figures table of `Docs/performance.md`, between its markers: one row per figure a section
/// printed (section, figure, value, what it is beside). `make bench` passes `--table` and the run's
/// rows replace those of the sections it ran; the rows of sections it did not run stay.
struct PerformanceTable {
    /// The line before the table and the line after it.
    static let start = "<!-- bench-table:start (written by `make bench`; edit the text around it, not this) -->"
    static let end = "<!-- bench-table:end -->"
    static let header = ["| section | figure | value | beside it |", "|---|---|---|---|"]

    /// One figure.
    struct Row: Equatable {
        let section: String
        let figure: String
        let value: String
        let note: String

        /// The row as a line of the Markdown table (pipes escaped, spaces collapsed).
        var line: String {
            "| " + [section, figure, value, note].map(Self.cell).joined(separator: " | ") + " |"
        }

        private static func cell(_ text: String) -> String {
            text.trimmingCharacters(in: .whitespaces).split(separator: " ", omittingEmptySubsequences: true)
                .joined(separator: " ").replacingOccurrences(of: "|", with: "\\|")
        }

        /// The row a table line holds; nil for a line that is no row of four cells.
        init?(line: String) {
            guard line.hasPrefix("| "), line.hasSuffix(" |") else { return nil }
            var cells: [String] = []
            var cell = ""
            var escaped = false
            for character in line.dropFirst(2).dropLast(2) {
                if escaped {
                    cell.append(character == "|" ? "|" : "\\\(character)")
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "|" {
                    cells.append(cell.trimmingCharacters(in: .whitespaces))
                    cell = ""
                } else {
                    cell.append(character)
                }
            }
            cells.append(cell.trimmingCharacters(in: .whitespaces))
            guard cells.count == 4, cells != ["section", "figure", "value", "beside it"],
                !cells[0].hasPrefix("---")
            else { return nil }
            self.init(section: cells[0], figure: cells[1], value: cells[2], note: cells[3])
        }

        init(section: String, figure: String, value: String, note: String) {
            self.section = section
            self.figure = figure
            self.value = value
            self.note = note
        }
    }

    /// What went wrong with the document.
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `document` with its table made of `rows` for the sections in `ran` and the rows it held for
    /// every other section, in the order of `order` (the bench's sections).
    /// - Throws: `Failure` when the document lacks the markers.
    static func updating(_ document: String, with rows: [Row], ran: Set<String>, order: [String]) throws -> String {
        guard let from = document.range(of: start),
            let to = document.range(of: end, range: from.upperBound..<document.endIndex)
        else { throw Failure(description: "the document lacks the lines \(start) and \(end)") }
        let kept = document[from.upperBound..<to.lowerBound].split(separator: "\n").compactMap { Row(line: String($0)) }
            .filter { !ran.contains($0.section) }
        let all = kept + rows
        let rank = Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        // Stable: rows keep their printed order within a section.
        let sorted = all.enumerated().sorted {
            (rank[$0.element.section] ?? order.count, $0.offset) < (rank[$1.element.section] ?? order.count, $1.offset)
        }.map(\.element)
        let table = ([""] + header + sorted.map(\.line) + [""]).joined(separator: "\n")
        return String(document[..<from.upperBound]) + table + String(document[to.lowerBound...])
    }

    /// Rewrites the table of the document at `path` (see `updating`).
    static func update(_ path: String, with rows: [Row], ran: Set<String>, order: [String]) throws {
        let url = URL(fileURLWithPath: path)
        let document = try String(contentsOf: url, encoding: .utf8)
        let updated = try updating(document, with: rows, ran: ran, order: order)
        try Data(updated.utf8).write(to: url, options: .atomic)
    }
}
