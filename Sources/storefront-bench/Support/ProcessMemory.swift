import Foundation

/// This process's resident memory from `/proc/self/status` (Linux), in bytes.
///
/// `resetPeak()` writes `5` to `/proc/self/clear_refs`, which sets the high-water mark
/// (`VmHWM`) back to the current RSS, so the peak of one operation can be read afterwards.
enum ProcessMemory {
    /// `VmRSS`: resident now.
    static func resident() -> Int? { field("VmRSS:") }

    /// `VmHWM`: the highest resident size since start or the last `resetPeak()`.
    static func peak() -> Int? { field("VmHWM:") }

    /// Resets the high-water mark; `false` when the kernel refuses.
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }

    private static func field(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let digits = line.dropFirst(name.count).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap {
                Int($0)
            }
            return digits.map { $0 * 1024 }
        }
        return nil
    }
}
