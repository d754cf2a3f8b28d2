import Foundation

/// Instruction counts from valgrind's callgrind, which the machine's load does not move (the
/// bench's times do): a change that costs 10 % shows even on a busy machine. A count is of a
/// whole process; a count per operation is the difference between two runs that differ only
/// in how many operations they do, divided by that many (start-up and set-up cancel out).
enum Callgrind {
    /// The `valgrind` on the PATH, if any.
    static let valgrind: String? = {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = String(directory) + "/valgrind"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    /// What a row says when there is no valgrind.
    static let missing = "valgrind not found: no instruction count"

    /// The instructions `executable arguments…` executes, as callgrind counts them ("Collected");
    /// nil without valgrind.
    /// - Throws: when the program exits non-zero or callgrind reports no count.
    static func instructions(
        _ executable: String, _ arguments: [String], environment: [String: String]? = nil
    ) throws -> UInt64? {
        guard let valgrind else { return nil }
        let child = try SpawnedChild(
            valgrind, ["--tool=callgrind", "--callgrind-out-file=/dev/null", executable] + arguments,
            environment: environment, errors: .pipe)
        let text = String(decoding: SpawnedChild.readToEnd(child.errors), as: UTF8.self)
        let status = child.wait()
        guard status == 0 else {
            throw BenchFailure(
                description:
                    "callgrind: \(([executable] + arguments).joined(separator: " ")) exited \(status): \(text.suffix(600))"
            )
        }
        // "==1234== Collected : 123456789"
        guard let line = text.split(separator: "\n").last(where: { $0.contains("Collected :") }),
            let count = line.split(separator: ":").last.flatMap({ UInt64($0.trimmingCharacters(in: .whitespaces)) })
        else {
            throw BenchFailure(description: "callgrind gave no instruction count: \(text.suffix(600))")
        }
        return count
    }

    /// The instructions one operation costs: runs `arguments(n)` with `n` and with twice `n`
    /// operations, and divides the difference by `n`. Nil without valgrind.
    /// - Parameter environment: the children's whole environment; nil passes this process's on.
    static func perOperation(
        _ executable: String, count n: Int, environment: [String: String]? = nil, _ arguments: (Int) -> [String]
    ) throws -> Double? {
        guard let once = try instructions(executable, arguments(n), environment: environment),
            let twice = try instructions(executable, arguments(2 * n), environment: environment)
        else { return nil }
        return (Double(twice) - Double(once)) / Double(n)
    }

    /// `1.23 M instructions`, `456 k`.
    static func format(_ count: Double) -> String {
        count >= 1e9
            ? String(format: "%.3f G", count / 1e9)
            : count >= 1e6 ? String(format: "%.2f M", count / 1e6) : String(format: "%.1f k", count / 1e3)
    }
}
