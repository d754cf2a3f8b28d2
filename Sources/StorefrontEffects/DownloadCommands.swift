import StoreCore
import StorefrontUI

/// The download keys (space pauses or resumes, x cancels), run on the engine's downloads. What
/// they change arrives as the engine's download events; only a failure to act is sent here.
struct DownloadCommands: Sendable {
    let store: any StorefrontStore

    func perform(_ effect: Effect, send: @escaping @Sendable (Action) -> Void) async {
        let id: String
        switch effect {
        case .pauseDownload(let target), .resumeDownload(let target), .cancelDownload(let target): id = target
        default: return
        }
        guard let downloads = store.downloads else {
            // No content is hosted: the download the key named cannot run.
            send(
                .storeEvent(
                    .downloadFailed(
                        Download(
                            id: id, transactionID: id, productID: id, contentVersion: "", state: .failed,
                            bytesWritten: 0, totalBytes: 0))))
            return
        }
        do throws(DownloadError) {
            switch effect {
            case .pauseDownload: _ = try await downloads.pause(id)
            case .resumeDownload: try await downloads.resume(id)
            default: _ = try await downloads.cancel(id)
            }
        } catch {
            send(.storeEvent(.productsRequestFailed(.unknown("download \(id): \(error)"))))
        }
    }
}
