import Foundation
import StoreCore
import Testing

@testable import storefront

/// How downloads are shown, as text: the bar a terminal gets, the plain lines other output
/// gets, and the closing lines.
@Suite struct DownloadOutputTests {
    static let sample = Download(
        id: "42", transactionID: "42", productID: "com.storefront.demo.levelpack.forest", contentVersion: "1.0",
        state: .active, bytesWritten: 1_200_000, totalBytes: 2_800_000, bytesPerSecond: 1_500_000)

    @Test func barLinesAndOutcomes() {
        #expect(
            DownloadsOutput.bar(Self.sample, name: "Forest Level Pack")
                == "Forest Level Pack [██████████░░░░░░░░░░░░░░]  42%  1.2 MB of 2.8 MB, 1.5 MB/s, 2 s left")
        #expect(
            DownloadsOutput.line(Self.sample, name: "Forest Level Pack")
                == "Downloading Forest Level Pack: 42% (1.2 MB of 2.8 MB, 1.5 MB/s, 2 s left)")
        var paused = Self.sample
        paused.state = .paused
        paused.bytesPerSecond = 0
        #expect(
            DownloadsOutput.outcome(paused, name: "Forest Level Pack")
                == "Paused Forest Level Pack at 42%; continue with 'storefront downloads resume 42'.")
        var failed = paused
        failed.state = .failed
        failed.error = .diskFull(path: "/data/Downloads/partial/42/levels/forest-07.json")
        #expect(
            DownloadsOutput.outcome(failed, name: "Forest Level Pack")
                == "The download of Forest Level Pack failed at 42%: The disk is full (writing /data/Downloads/partial/42/levels/forest-07.json); free some space and retry the download. The purchase is kept; retry with 'storefront downloads resume 42'."
        )
        #expect(DownloadsOutput.size(999) == "999 B" && DownloadsOutput.size(812_000) == "812 KB")
        var done = Self.sample
        done.state = .finished
        done.bytesWritten = done.totalBytes
        #expect(DownloadsOutput.percent(done) == 100)
        #expect(DownloadsOutput.json(done).rendered().contains(#""percent": 100"#))
    }
}
