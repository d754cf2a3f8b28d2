import Catalog
import Foundation
import StoreKitValues
import Synchronization
package import SystemIO

/// The SHA-256 digests of hosted content files checked before, so loading a catalog does not
/// read its content's megabytes again at every launch (6 MB for the Demo catalog: most of a
/// CLI command's CPU time).
///
/// A file whose device, inode, size, modification and change times are the ones recorded is
/// taken at its recorded digest: any write, rename over it or `touch` moves its change time,
/// which no call can set back. A file changed within `racyWindow` of being read is digested
/// but not recorded, since a write in the same clock tick would not move its times (git's
/// "racy" rule for its index). Kept in `DATA/cache/content-digests.json`; a missing or
/// unreadable cache only means digesting again, and saving is best effort.
public final class ContentDigestCache: Sendable {
    /// What is known of one file.
    struct Entry: Encodable, Hashable {
        var device: UInt64
        var inode: UInt64
        var size: UInt64
        var modified: Int64
        var changed: Int64
        var sha256: String
    }

    /// The file's contents.
    struct Contents: Encodable {
        var version = 1
        var files: [String: Entry] = [:]
    }

    /// The cache file.
    public let path: String
    /// How recent a change must be for its digest not to be recorded.
    static let racyWindow: Int64 = 2_000_000_000

    private let fileSystem: any FileSystem
    private let clock: any StoreClock
    private let digest: ContentDigester
    /// The cache's contents, read at the first digest asked (nil until then: a load that checks no
    /// file, as a purchase of a product without content, does not read the cache at all).
    private let state = Mutex<(contents: Contents?, dirty: Bool)>((nil, false))

    /// The cache of the data directory `dataDirectory`, read when first asked (empty when absent
    /// or damaged).
    package init(
        dataDirectory: String, fileSystem: any FileSystem = POSIXFileSystem(), clock: any StoreClock = SystemClock(),
        digest: @escaping ContentDigester = ContentDigest.sha256
    ) {
        path = (dataDirectory.hasSuffix("/") ? dataDirectory : dataDirectory + "/") + "cache/content-digests.json"
        self.fileSystem = fileSystem
        self.clock = clock
        self.digest = digest
    }

    /// The entry recorded for `file`, reading the cache file first if it has not been read.
    private func entry(of file: String) -> Entry? {
        state.withLock { state in
            if state.contents == nil {
                let bytes = try? fileSystem.readFile(path, limit: 16 << 20)
                state.contents = bytes.flatMap { Self.contents(of: $0) } ?? Contents()
            }
            return state.contents?.files[file]
        }
    }

    /// The cache file's contents, read in place by the catalog's JSON parser (Foundation's
    /// decoder cost a `storefront buy` 5.8 M instructions for the Demo's 65 files;
    /// `JSONTapeDecoder`, 3.2 M, most of it the Swift runtime's first look-ups of the generic
    /// types `Codable` instantiates; a `JSONValue` tree 1.6 M, its dictionaries); nil for
    /// another version or a damaged file.
    static func contents(of bytes: [UInt8]) -> Contents? {
        JSONElement.reading(bytes) { root -> Contents? in
            // Numbers through their text and the integer types' own parsers: a generic reader
            // from another module runs unspecialized, through witness tables (4 k a number).
            guard root.member("version")?.number.flatMap({ Int($0) }) == Contents().version,
                let files = root.member("files"), files.isObject
            else { return nil }
            var contents = Contents()
            contents.files.reserveCapacity(files.count)
            for (name, entry) in files.members {
                guard let file = name.string,
                    let device = entry.member("device")?.number.flatMap({ UInt64($0) }),
                    let inode = entry.member("inode")?.number.flatMap({ UInt64($0) }),
                    let size = entry.member("size")?.number.flatMap({ UInt64($0) }),
                    let modified = entry.member("modified")?.number.flatMap({ Int64($0) }),
                    let changed = entry.member("changed")?.number.flatMap({ Int64($0) }),
                    let sha256 = entry.member("sha256")?.string
                else { return nil }
                contents.files[file] = Entry(
                    device: device, inode: inode, size: size, modified: modified, changed: changed, sha256: sha256)
            }
            return contents
        }
    }

    /// The cache file's text: slashes written as they are, so the paths need no unescaping.
    static func encoded(_ contents: Contents) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .withoutEscapingSlashes
        return try encoder.encode(contents)
    }

    /// A digester for `StoreKitConfiguration.load(contentsOf:contentDigester:)` that answers
    /// from the cache when the file is unchanged and digests (and records) it otherwise.
    public var digester: ContentDigester {
        { [self] path in try self.sha256(of: path) }
    }

    func sha256(of file: String) throws -> String {
        let before = try fileSystem.status(atPath: file, followingLinks: true)
        if let before, let entry = entry(of: file), entry.matches(before) {
            return entry.sha256
        }
        let digest = try digest(file)
        let now = Int64(clock.now.timeIntervalSince1970 * 1_000_000_000)
        if let before, let after = try fileSystem.status(atPath: file, followingLinks: true), before == after,
            now - after.changed > Self.racyWindow, now - after.modified > Self.racyWindow
        {
            let entry = Entry(
                device: after.device, inode: after.inode, size: after.size, modified: after.modified,
                changed: after.changed, sha256: digest)
            state.withLock {
                $0.contents?.files[file] = entry
                $0.dirty = true
            }
        }
        return digest
    }

    /// Writes what was learnt, when anything was (atomically; not synced, as it is only a cache).
    /// Does nothing when the data directory does not exist; a failure is ignored.
    public func save() {
        let contents = state.withLock { state -> Contents? in
            guard state.dirty, state.contents != nil else { return nil }
            state.dirty = false
            return state.contents
        }
        guard let contents, let bytes = try? Self.encoded(contents) else { return }
        let directory = FilePaths.parent(of: path)
        guard
            (try? fileSystem.status(atPath: FilePaths.parent(of: directory), followingLinks: true))??.isDirectory
                == true
        else { return }
        // A data directory this process may not write keeps no cache: the digests were computed.
        guard
            (try? fileSystem.checkWritable(fileSystem.exists(directory) ? directory : FilePaths.parent(of: directory)))
                != nil
        else { return }
        try? fileSystem.makeDirectory(directory, mode: 0o700)
        try? fileSystem.replaceAtomically(path, with: [UInt8](bytes), fileSync: nil, syncsDirectory: false)
    }
}

extension ContentDigestCache.Entry {
    func matches(_ status: FileStatus) -> Bool {
        device == status.device && inode == status.inode && size == status.size && modified == status.modified
            && changed == status.changed
    }
}
