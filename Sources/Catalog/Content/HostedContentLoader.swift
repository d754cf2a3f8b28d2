import Foundation
import StoreKitValues
internal import SystemIO

/// Computes the lowercase hex SHA-256 of the file at a path. The `Catalog` target imports no
/// cryptography, so whoever loads a catalog passes one in (LocalAppStore has `ContentDigest`).
public typealias ContentDigester = @Sendable (String) throws -> String

/// Reads a catalog's content sidecar `NAME.content/` and checks every manifest against its
/// files: each listed file exists with the listed size (and SHA-256, when a digester is
/// given), and no file is left unlisted. Any mismatch is a `CatalogError` naming the manifest,
/// the JSON path of the field and what is wrong.
public enum HostedContentLoader {
    /// The sidecar's location for a catalog: `NAME.content/` beside `NAME.storekit`.
    public static func sidecarURL(for catalog: URL) -> URL {
        catalog.deletingPathExtension().appendingPathExtension("content")
    }

    /// Loads every `PRODUCT_ID/manifest.json` of `directory`.
    ///
    /// - Parameters:
    ///   - directory: the `NAME.content` directory.
    ///   - products: the catalog's products; a directory for any other ID is an error, and only
    ///     non-consumables may carry content (as on the App Store).
    ///   - digester: checks SHA-256 digests too when given.
    ///   - files: whose listed files are checked; every manifest is read and checked.
    /// - Returns: the content by product ID.
    /// - Throws: `CatalogError` naming the file, the JSON path and the problem.
    public static func load(
        directory: URL, products: [StoreKitConfiguration.Product], digester: ContentDigester?,
        files: ContentFileCheck = .all
    ) throws(CatalogError) -> [String: HostedContent] {
        let fm = FileManager.default
        let names: [String]
        do {
            names = try fm.contentsOfDirectory(atPath: directory.path)
                .filter { !$0.hasPrefix(".") && $0 != hostingFileName }.sorted()
        } catch {
            throw CatalogError(
                file: directory.path, path: JSONPath.root,
                problem: "cannot list the content directory: \(error.localizedDescription)")
        }
        var result: [String: HostedContent] = [:]
        for name in names {
            let productDirectory = directory.appendingPathComponent(name)
            guard let product = products.first(where: { $0.id == name }) else {
                throw CatalogError(
                    file: productDirectory.path, path: JSONPath.root,
                    problem: "no product \"\(name)\" in the catalog (content directories are named by product ID)")
            }
            guard product.kind == .nonConsumable else {
                throw CatalogError(
                    file: productDirectory.path, path: JSONPath.root,
                    problem: "\(name) is \(product.kind.rawValue); only non-consumables can have hosted content")
            }
            result[name] = try loadProduct(
                productDirectory, productID: name, digester: digester, checksFiles: files.includes(name))
        }
        return result
    }

    /// The name of the self-hosting file inside `NAME.content/`.
    public static let hostingFileName = "hosting.json"

    /// Reads `NAME.content/hosting.json`, the base URL of each self-hosted product's content:
    /// ```json
    /// { "version": 1, "products": { "com.example.levels": "https://cdn.example.com/levels/" } }
    /// ```
    /// Under each base URL the server holds `manifest.json` (this sidecar's manifest format)
    /// and the files. A product may be hosted by the store (a directory here) or self-hosted,
    /// not both.
    ///
    /// - Returns: base URLs by product ID; empty when there is no `hosting.json`.
    /// - Throws: `CatalogError` naming `hosting.json`, the JSON path and the problem.
    public static func loadHosting(
        directory: URL, products: [StoreKitConfiguration.Product], hosted: Set<String>
    ) throws(CatalogError) -> [String: URL] {
        let url = directory.appendingPathComponent(hostingFileName)
        let file = url.path
        guard FileManager.default.fileExists(atPath: file) else { return [:] }
        let root = try readVersionOne(url, what: "a hosting file", kind: "hosting")
        let entries = try ObjectReader(
            try root.required("products"), file: file, path: root.path(of: "products"), what: "base URLs by product ID")
        var result: [String: URL] = [:]
        for productID in entries.members.keys.sorted() {
            guard let product = products.first(where: { $0.id == productID }) else {
                throw entries.error(productID, "no product \"\(productID)\" in the catalog")
            }
            guard product.kind == .nonConsumable else {
                throw entries.error(
                    productID, "\(productID) is \(product.kind.rawValue); only non-consumables can have hosted content")
            }
            guard !hosted.contains(productID) else {
                throw entries.error(
                    productID, "\(productID) also has content in \(directory.path)/\(productID); choose one")
            }
            let text = try entries.string(productID)
            guard let base = URL(string: text), base.scheme == "http" || base.scheme == "https", base.host != nil else {
                throw entries.error(productID, "\"\(text)\" is not an http:// or https:// URL")
            }
            result[productID] = base
        }
        return result
    }

    /// Reads the sidecar JSON object at `url` (`what` names it in errors) and checks that its
    /// `version` is 1, the one this build reads (`kind` names the version in errors).
    private static func readVersionOne(
        _ url: URL, what: String, kind: String
    ) throws(CatalogError) -> ObjectReader<JSONValue> {
        let file = url.path
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw CatalogError(
                file: file, path: JSONPath.root, problem: "cannot read the file: \(error.localizedDescription)")
        }
        let document = try StoreKitConfiguration.parseJSON(data, file: file)
        let root = try ObjectReader(document.value, file: file, path: JSONPath.root, what: what)
        guard let version = try root.optionalInt("version") else {
            throw root.error("version", "missing version (expected 1)")
        }
        guard version == 1 else {
            throw root.error("version", "unsupported \(kind) version \(version); this build reads version 1")
        }
        return root
    }

    static func loadProduct(
        _ directory: URL, productID: String, digester: ContentDigester?, checksFiles: Bool = true,
        fileSystem: any FileSystem = POSIXFileSystem()
    ) throws(CatalogError) -> HostedContent {
        let manifestURL = directory.appendingPathComponent("manifest.json")
        let file = manifestURL.path
        // Asked once: `URL.path` decodes the URL's text again at every call.
        let directoryPath = directory.path
        guard FileManager.default.fileExists(atPath: file) else {
            throw CatalogError(
                file: file, path: JSONPath.root, problem: "missing manifest.json for the content of \(productID)")
        }
        let root = try readVersionOne(manifestURL, what: "a content manifest", kind: "manifest")
        let contentVersion = try root.nonEmptyString("contentVersion")
        if let problem = ContentManifest.versionProblem(contentVersion) { throw root.error("contentVersion", problem) }
        let elements = try root.optionalArray("files")
        let filesPath = root.path(of: "files")
        guard !elements.isEmpty else { throw root.error("files", "no files listed") }
        var files: [ContentFile] = []
        var seen: Set<String> = []
        for (index, element) in elements.enumerated() {
            let entry = try ObjectReader(
                element, file: file, path: JSONPath.element(index, of: filesPath), what: "a file entry")
            let path = try entry.nonEmptyString("path")
            if let problem = ContentFile.pathProblem(path) { throw entry.error("path", problem) }
            if path == "manifest.json" {
                throw entry.error("path", "\"manifest.json\" is the manifest itself, not a file of the content")
            }
            guard seen.insert(path).inserted else { throw entry.error("path", "\"\(path)\" is listed twice") }
            guard let size = try entry.optionalInt("size", minimum: 0) else {
                throw entry.error("size", "missing size")
            }
            let sha256 = try entry.string("sha256")
            if let problem = ContentFile.digestProblem(sha256) { throw entry.error("sha256", problem) }
            files.append(ContentFile(path: path, size: Int64(size), sha256: sha256))
            guard checksFiles else { continue }
            let filePath = directoryPath + "/" + path
            guard let actualSize = fileSystem.regularFileSize(atPath: filePath) else {
                throw entry.error("path", "\(filePath) does not exist or is not a regular file")
            }
            guard actualSize == UInt64(size) else {
                throw entry.error("size", "is \(size) but \(filePath) has \(actualSize) bytes")
            }
            if let digester {
                let actual: String
                do {
                    actual = try digester(filePath)
                } catch {
                    throw entry.error("sha256", "cannot read \(filePath) to check its digest: \(error)")
                }
                guard actual == sha256 else {
                    throw entry.error("sha256", "is \(sha256) but \(filePath) has SHA-256 \(actual)")
                }
            }
        }
        for extra in checksFiles ? unlistedFiles(in: directoryPath, listed: seen, fileSystem: fileSystem) : [] {
            throw root.error("files", "\(directoryPath)/\(extra) is in the content directory but not listed")
        }
        return HostedContent(
            manifest: ContentManifest(productID: productID, version: contentVersion, files: files),
            directory: directory, manifestFile: file)
    }

    /// The regular files under `directory` (paths relative to it, sorted), other than the
    /// manifest and those `listed` (each already found a regular file). Directories are walked, links to directories are not
    /// followed, a link to a regular file counts as one; `stat` and `readdir` through SystemIO
    /// (Foundation's URL resource values cost most of a CLI command's CPU time).
    private static func unlistedFiles(
        in directory: String, listed: Set<String>, fileSystem: any FileSystem
    ) -> [String] {
        var extras: [String] = []
        var pending = [""]
        while let folder = pending.popLast() {
            let names =
                (try? fileSystem.contentsOfDirectory(folder.isEmpty ? directory : directory + "/" + folder)) ?? []
            for name in names {
                let relative = folder.isEmpty ? name : folder + "/" + name
                // A listed file was found a regular file (links followed) before this walk: it
                // needs no second `stat`.
                if listed.contains(relative) { continue }
                let path = directory + "/" + relative
                if let status = try? fileSystem.status(atPath: path, followingLinks: false), status.isDirectory {
                    pending.append(relative)
                } else if relative != "manifest.json", fileSystem.regularFileSize(atPath: path) != nil {
                    extras.append(relative)
                }
            }
        }
        return extras.sorted()
    }
}
