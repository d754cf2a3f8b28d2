import Foundation
import TestSupport
import Testing

/// The fuzz targets (Fuzz/*.swift) are compiled outside SwiftPM, so no `swift build` sees them:
/// this suite type-checks every one as `make fuzz` compiles it (`make fuzz-typecheck`, the
/// Makefile's own flags and file lists) against this test run's modules, so a change that
/// breaks a target fails `make test`, not the next fuzzing campaign
/// (Docs/decisions/0148-make-test-type-checks-the-fuzz-targets.md).
@Suite(.waitsOnProcesses, .timeLimit(.minutes(15)))
struct FuzzTargetsTests {
    @Test func everyFuzzTargetTypeChecks() throws {
        let check = try Self.typecheck()
        #expect(check.status == 0, "make fuzz-typecheck failed:\n\(check.output)")
        for target in ["receipts", "catalog", "vault", "journal", "http", "jws", "archive", "vaultfile"] {
            #expect(check.output.contains("fuzz-typecheck: \(target)\n"), "\(target) was not checked:\n\(check.output)")
        }
    }

    /// The check can fail: a copy of Fuzz/ whose journal target calls a member the store's
    /// journal does not have is refused, naming the file and the member.
    @Test func aTargetThatNoLongerCompilesFailsTheCheck() throws {
        let copy = try TemporaryDirectory(prefix: "fuzz-sources")
        try FileManager.default.copyItem(at: Repository.url("Fuzz"), to: copy.url("Fuzz"))
        let journalTarget = copy.url("Fuzz/JournalFuzz.swift")
        let broken =
            try String(contentsOf: journalTarget, encoding: .utf8)
            + "\nfunc removedAPI(_ journal: StoreJournal) { journal.aMemberThatIsGone() }\n"
        try broken.write(to: journalTarget, atomically: true, encoding: .utf8)
        let check = try Self.typecheck(["FUZZ_SOURCES=\(copy.url("Fuzz").path)", "FUZZ_CHECK_TARGETS=journal"])
        #expect(check.status != 0, "the check passed a target that does not compile:\n\(check.output)")
        #expect(check.output.contains("JournalFuzz.swift"), "\(check.output)")
        #expect(check.output.contains("aMemberThatIsGone"), "\(check.output)")
    }

    /// `make fuzz-typecheck` over this run's modules, its interfaces emitted into a directory of
    /// the test's own.
    private static func typecheck(_ variables: [String] = []) throws -> ChildProcess.Result {
        let scratch = try TemporaryDirectory(prefix: "fuzz-typecheck")
        return try ChildProcess.run(
            URL.tool("make"),
            [
                "--no-print-directory", "-s", "-C", Repository.root.path, "fuzz-typecheck",
                "FUZZ_CHECK_MODULES=\(Repository.modules.path)", "FUZZ_CHECK_DIR=\(scratch.url("interfaces").path)",
            ] + variables, standardError: .standardOutput)
    }
}
