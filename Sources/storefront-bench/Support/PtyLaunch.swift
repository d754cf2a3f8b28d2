import Foundation

/// Times a terminal program to its first frame through a real pty, with `UIBench.harness`
/// (python3's `pty`): the seconds from its start until its output shows `marker`.
struct PtyLaunch {
    private let script: URL

    /// Writes the harness into `directory`.
    init(in directory: URL) throws {
        script = directory.appendingPathComponent("pty_launch_harness.py")
        try UIBench.harness.write(to: script, atomically: true, encoding: .utf8)
    }

    /// Seconds until `command`'s output shows `marker`.
    func firstFrame(_ marker: String, _ command: [String]) throws -> Double {
        let data = try ChildProcess.output("python3", [script.path, marker, "0"] + command)
        let text = String(decoding: data, as: UTF8.self)
        guard let first = text.split(separator: " ").first.flatMap({ Double($0) }), first >= 0 else {
            throw CommandTiming.Failure(description: "the pty harness saw no '\(marker)' from \(command): \(text)")
        }
        return first
    }
}
