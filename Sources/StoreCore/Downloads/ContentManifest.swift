/// What a product's hosted content is made of: its version and its files with their sizes and
/// SHA-256 digests. Downloads are checked against it before they are installed.
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

    /// Why this manifest cannot be used safely, or `nil` when it can (see `ContentFile.problem`;
    /// the version must be a single safe path component and paths must be unique).
    public var problem: String? {
        if version.isEmpty || version == "." || version == ".." || version.contains("/") || version.hasPrefix(".") {
            return "the version \"\(version)\" is not usable as a directory name"
        }
        var seen: Set<String> = []
        for (index, file) in files.enumerated() {
            if let problem = file.problem { return "files[\(index)]: \(problem)" }
            if !seen.insert(file.path).inserted { return "files[\(index)]: the path \"\(file.path)\" is listed twice" }
        }
        return nil
    }
}
