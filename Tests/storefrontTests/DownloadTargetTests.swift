import StoreCore
import Testing

@testable import storefront

/// Which download `downloads resume|pause|cancel PRODUCT` acts on when the product has several.
@Suite struct DownloadTargetTests {
    static func download(_ id: String, _ state: DownloadState, _ bytes: Int64, product: String = "levels") -> Download {
        Download(
            id: id, transactionID: id, productID: product, contentVersion: "1", state: state, bytesWritten: bytes,
            totalBytes: 100)
    }

    @Test func resumeByProductContinuesTheDownloadFurthestAlongNotTheNewest() {
        let downloads = [
            Self.download("1", .paused, 80), Self.download("2", .failed, 10), Self.download("3", .waiting, 0),
        ]
        #expect(DownloadControlVerb.target("levels", for: .resume, in: downloads)?.id == "1")
    }

    @Test func anExactIDWinsOverAProduct() {
        let downloads = [Self.download("levels", .paused, 0, product: "x"), Self.download("2", .paused, 50)]
        #expect(DownloadControlVerb.target("levels", for: .resume, in: downloads)?.id == "levels")
    }

    @Test func pauseByProductPausesTheOneRunning() {
        let downloads = [Self.download("1", .paused, 80), Self.download("2", .active, 10)]
        #expect(DownloadControlVerb.target("levels", for: .pause, in: downloads)?.id == "2")
        #expect(DownloadControlVerb.target("levels", for: .cancel, in: downloads)?.id == "2")
    }

    @Test func aProductWhoseDownloadsAreAllFinishedNamesTheNewest() {
        let downloads = [Self.download("1", .finished, 100), Self.download("2", .finished, 100)]
        #expect(DownloadControlVerb.target("levels", for: .resume, in: downloads)?.id == "2")
        #expect(DownloadControlVerb.target("other", for: .resume, in: downloads) == nil)
    }
}
