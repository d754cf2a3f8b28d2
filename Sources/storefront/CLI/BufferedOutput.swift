/// Collects output in memory (for tests of the pure parts of the CLI).
final class BufferedOutput: TextOutput {
    private(set) var standardOutput = ""
    private(set) var standardError = ""

    func write(_ text: String) { standardOutput += text }
    func writeError(_ text: String) { standardError += text }
}
