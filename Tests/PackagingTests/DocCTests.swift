import Foundation
import TestSupport
import Testing

/// The StoreCore guide builds with the toolchain's docc from the symbol graphs of this test run's
/// modules, as `make docs` builds it (`scripts/make-docs`), without a warning: a symbol link to
/// an API that is gone, or an article the catalog cannot resolve, fails here.
@Suite(.waitsOnProcesses, .timeLimit(.minutes(10)))
struct DocCTests {
    @Test func theGuideBuildsWithoutWarnings() throws {
        let output = try TemporaryDirectory(prefix: "docc")
        let archive = output.url("StoreCore.doccarchive")
        let result = try ChildProcess.run(
            Repository.url("scripts/make-docs"), [Repository.modules.path, archive.path])
        let diagnostics = result.output
        #expect(result.status == 0, "scripts/make-docs failed:\n\(diagnostics)")
        #expect(!diagnostics.contains("warning:"), "docc warned:\n\(diagnostics)")
        for article in [
            "gettingstarted", "purchasing", "observingthestore", "downloadinghostedcontent", "thelocalstore",
        ] {
            #expect(
                FileManager.default.fileExists(
                    atPath: archive.appendingPathComponent("data/documentation/storecore/\(article).json").path),
                "the archive lacks the article \(article)")
        }
    }
}
