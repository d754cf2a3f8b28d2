/// Where a command writes: standard output and standard error, injected so tests can capture them.
protocol TextOutput: AnyObject {
    /// Writes `text` to standard output as is.
    func write(_ text: String)
    /// Writes `text` to standard error as is.
    func writeError(_ text: String)
}

/// Collects output in memory (for tests of the pure parts of the CLI).
final class BufferedOutput: TextOutput {
    private(set) var standardOutput = ""
    private(set) var standardError = ""

    func write(_ text: String) { standardOutput += text }
    func writeError(_ text: String) { standardError += text }
}
