import Foundation

/// The process's real standard output and standard error.
final class StandardStreams: TextOutput {
    func write(_ text: String) { FileHandle.standardOutput.write(Data(text.utf8)) }
    func writeError(_ text: String) { FileHandle.standardError.write(Data(text.utf8)) }
}
