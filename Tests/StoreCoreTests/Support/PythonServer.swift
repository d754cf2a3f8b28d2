import Foundation

/// Starts a small python3 HTTP server script for a test and reads the port it chose.
enum PythonServer {
    /// Writes `script` into `directory`, runs it with `arguments` in `process`, and returns the
    /// port the script prints as its first line.
    /// - Throws: when python cannot start, or exits before printing a port.
    static func start(_ process: Process, script: String, in directory: URL, arguments: [String] = []) throws -> Int {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let scriptURL = directory.appendingPathComponent("server.py")
        try script.write(to: scriptURL, atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", scriptURL.path] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The first line is the port; an empty read means python exited.
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            line.append(chunk)
        }
        guard let text = String(data: line, encoding: .utf8), let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile)
        }
        return port
    }
}
