import Foundation

/// Runs a peer program (e.g. `python3`) to completion, for timing beside our own code.
enum ChildProcess {
    typealias Failure = BenchFailure

    /// Runs `executable arguments…`, discarding output; throws unless it exits 0.
    static func run(_ executable: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(executable) exited with status \(process.terminationStatus)")
        }
    }

    /// The largest resident size any waited-for child reached (`getrusage(RUSAGE_CHILDREN)`), in bytes.
    static func peakResidentOfChildren() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }
}
