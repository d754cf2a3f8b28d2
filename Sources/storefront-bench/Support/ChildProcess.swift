import Foundation

/// Runs a peer program (e.g. `python3`) to completion, for timing beside our own code.
enum ChildProcess {
    typealias Failure = BenchFailure

    /// Runs `executable arguments…` (a name on `PATH` or a path), discarding its output;
    /// throws unless it exits 0.
    static func run(_ executable: String, _ arguments: [String]) throws {
        try finish(SpawnedChild.onPath(executable, arguments), executable)
    }

    /// Runs `executable arguments…` to completion and returns what it wrote to standard
    /// output; throws unless it exits 0.
    static func output(_ executable: String, _ arguments: [String]) throws -> Data {
        let child = try SpawnedChild.onPath(executable, arguments, output: .pipe)
        let data = SpawnedChild.readToEnd(child.output)
        try finish(child, executable)
        return data
    }

    private static func finish(_ child: SpawnedChild, _ executable: String) throws {
        let status = child.wait()
        guard status == 0 else { throw Failure(description: "\(executable) exited with status \(status)") }
    }

    /// The largest resident size any waited-for child reached (`getrusage(RUSAGE_CHILDREN)`), in bytes.
    static func peakResidentOfChildren() -> Int {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)
        return usage.ru_maxrss * 1024
    }
}
