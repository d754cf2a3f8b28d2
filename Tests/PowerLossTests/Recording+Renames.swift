import TestSupport

extension Recording {
    /// Whether the scenario renamed a file, from and to names that `matches` accepts.
    func renamed(where matches: (_ from: String, _ to: String) -> Bool) -> Bool {
        operations.contains {
            if case .rename(let from, let to) = $0 { matches(from, to) } else { false }
        }
    }

    /// Whether the scenario put a new journal in place (a compaction's last step).
    var replacedTheJournal: Bool {
        renamed { from, to in to == "store/journal.jsonl" && from.hasPrefix("store/journal.jsonl.tmp") }
    }
}
