import Foundation

/// Where downloads keep their files in the data directory: `Downloads/` (records, partial
/// bytes, leases, control requests) and `Content/PRODUCT_ID/VERSION/` (installed content).
struct DownloadPaths: Sendable {
    let dataDirectory: URL

    var downloadsRoot: String { dataDirectory.appendingPathComponent("Downloads").path }
    var recordsDirectory: String { downloadsRoot + "/records" }
    func record(_ id: String) -> String { recordsDirectory + "/" + id + ".json" }
    func checkpointLog(_ id: String) -> String { recordsDirectory + "/" + id + ".checkpoints" }
    func partialDirectory(_ id: String) -> String { downloadsRoot + "/partial/" + id }
    var locksDirectory: String { downloadsRoot + "/locks" }
    func lock(_ id: String) -> String { locksDirectory + "/" + id + ".lock" }
    var controlDirectory: String { downloadsRoot + "/control" }
    func control(_ id: String) -> String { controlDirectory + "/" + id }
    var contentRoot: String { dataDirectory.appendingPathComponent("Content").path }
    func installedDirectory(_ manifest: ContentManifest) -> String {
        contentRoot + "/" + manifest.productID + "/" + manifest.version
    }
}
