/// Where a command writes: standard output and standard error, injected so tests can capture them.
protocol TextOutput: AnyObject {
    /// Writes `text` to standard output as is.
    func write(_ text: String)
    /// Writes `text` to standard error as is.
    func writeError(_ text: String)
}
