import Foundation
import Testing
import TestSupport

/// Apple's own App Store Server Library (Python, pinned in scripts/python-venv) judges what the
/// built `storefront` signs: the suite in Tests/AppleLibrary drives the binary and verifies its
/// signed transactions, renewal info, app transactions and receipts with `SignedDataVerifier`
/// and `ReceiptUtility`, offline and with OCSP.
@Suite(.waitsOnProcesses, .timeLimit(.minutes(10)))
struct AppleLibraryTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Runs `executable arguments…` in the package root and returns its status and output. The
    /// wait happens on a dispatch thread, not on the 2-thread cooperative pool, which the suite
    /// (tens of seconds of child processes) would otherwise hold from every other test.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) async throws
        -> (status: Int32, output: String)
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = root
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        let data: Data = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                do { try process.run() } catch {
                    continuation.resume(throwing: error)
                    return
                }
                let data = output.fileHandleForReading.readDataToEndOfFile()
                process.waitUntilExit()
                continuation.resume(returning: data)
            }
        }
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func applesSignedDataVerifierAcceptsWhatTheStoreSignsAndRejectsTheRest() async throws {
        // Makes .build/venv with the pinned library when missing (the first run needs PyPI).
        let venv = try await Self.run(Self.root.appendingPathComponent("scripts/python-venv").path, [])
        try #require(venv.status == 0, "scripts/python-venv failed:\n\(venv.output)")
        let python = Self.root.appendingPathComponent(
            venv.output.split(separator: "\n").last.map(String.init) ?? ".build/venv/bin/python").path
        let suite = try await Self.run(
            python, ["-m", "unittest", "discover", "-v", "-s", "Tests/AppleLibrary", "-p", "test_*.py"],
            environment: ["STOREFRONT_BIN": StorefrontProcess.executable.path, "PYTHONDONTWRITEBYTECODE": "1"])
        #expect(suite.status == 0, "Apple's library refused something:\n\(suite.output)")
        #expect(suite.output.contains("\nOK"), "\(suite.output)")
        #expect(!suite.output.contains("Ran 0 tests"), "\(suite.output)")
    }
}
