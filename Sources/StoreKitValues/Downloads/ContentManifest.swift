/// What a product's hosted content is made of: its version and its files with their sizes and
/// SHA-256 digests. Downloads are checked against it before they are installed; the catalog's
/// content sidecar is read into one (`HostedContent.manifest`).
public struct ContentManifest: Codable, Hashable, Sendable {
    /// The product the content belongs to.
    public let productID: String
    /// The content version; installed content lives in `Content/PRODUCT_ID/VERSION/`.
    public let version: String
    /// The files, in download order.
    public let files: [ContentFile]

    /// Creates a manifest.
    public init(productID: String, version: String, files: [ContentFile]) {
        self.productID = productID
        self.version = version
        self.files = files
    }

    /// The sum of the files' sizes (saturating, so a hostile manifest cannot trap).
    public var totalBytes: Int64 {
        files.reduce(Int64(0)) { total, file in
            let (sum, overflow) = total.addingReportingOverflow(file.size)
            return overflow ? Int64.max : sum
        }
    }

    /// Why this manifest cannot be used safely, or `nil` when it can (`versionProblem`,
    /// `ContentFile.problem`, and paths must be unique).
    public var problem: String? {
        if let problem = Self.versionProblem(version) { return problem }
        var seen: Set<String> = []
        for (index, file) in files.enumerated() {
            if let problem = file.problem { return "files[\(index)]: \(problem)" }
            if !seen.insert(file.path).inserted { return "files[\(index)]: the path \"\(file.path)\" is listed twice" }
        }
        return nil
    }

    /// Why `version` cannot be the directory the content is installed in, or `nil` when it can:
    /// one path component, not empty, not starting with `.`, without a NUL byte.
    public static func versionProblem(_ version: String) -> String? {
        if version.isEmpty || version.contains("/") || version.hasPrefix(".") || version.utf8.contains(0) {
            return "the version \"\(version)\" is not usable as a directory name"
        }
        return nil
    }
}
