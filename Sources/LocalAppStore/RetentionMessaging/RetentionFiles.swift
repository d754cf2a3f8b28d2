import Foundation
internal import SystemIO

/// Where and how retention messaging keeps its state: `STATE/retention/retention.json` (the
/// state, replaced atomically: written to a temporary, synced, renamed over, the directory
/// synced), the images beside it as `images/IDENTIFIER.png` (each made durable before the state
/// that names it), and `retention.lock`, which serialises writers across processes. Readers
/// take no lock: a rename shows them the old state or the new one, whole.
struct RetentionFiles: Sendable {
    /// `STATE/retention`.
    let directory: String
    let fileSystem: any FileSystem
    let readOnly: Bool
    let syncsWrites: Bool

    /// The largest state file read (2000 images and messages fit in far less).
    static let stateLimit: UInt64 = 64 << 20

    init(stateDirectory: URL, fileSystem: any FileSystem, readOnly: Bool, syncsWrites: Bool) {
        directory = stateDirectory.appendingPathComponent("retention", isDirectory: true).path
        self.fileSystem = fileSystem
        self.readOnly = readOnly
        self.syncsWrites = syncsWrites
    }

    var statePath: String { directory + "/retention.json" }
    var lockPath: String { directory + "/retention.lock" }
    var imagesDirectory: String { directory + "/images" }
    func imagePath(_ id: UUID) -> String { imagesDirectory + "/" + RetentionState.key(id) + ".png" }

    /// The state as last written; empty when nothing was.
    /// - Throws: `.io` naming the file when it cannot be read or is not this format.
    func read() throws(RetentionMessagingError) -> RetentionState {
        let bytes: [UInt8]?
        do {
            bytes = try fileSystem.readFile(statePath, limit: Self.stateLimit)
        } catch {
            throw .io(path: statePath, reason: "cannot be read: \(error)")
        }
        guard let bytes else { return RetentionState() }
        let state: RetentionState
        do {
            state = try Self.decoder.decode(RetentionState.self, from: Data(bytes))
        } catch {
            throw .io(path: statePath, reason: "is not a retention messaging state: \(Self.reason(error))")
        }
        guard state.format == RetentionState.formatName else {
            throw .io(path: statePath, reason: "its format is '\(state.format)', not '\(RetentionState.formatName)'")
        }
        return state
    }

    /// The bytes of an image, if the store has them.
    func imageData(_ id: UUID) throws(RetentionMessagingError) -> Data? {
        let path = imagePath(id)
        do {
            return try fileSystem.readFile(path, limit: UInt64(RetentionRules.maximumImageBytes)).map { Data($0) }
        } catch {
            throw .io(path: path, reason: "cannot be read: \(error)")
        }
    }

    /// Changes the state under the writers' lock: reads it, lets `body` change it (and name the
    /// images to write), makes the new images durable, then replaces the state. Images no
    /// state names (a deleted one, or one a crash left before its state) are removed after.
    /// Nothing is written when `body` throws.
    func update<T>(
        _ body: (inout RetentionState, inout [UUID: Data]) throws(RetentionMessagingError) -> T
    ) throws(RetentionMessagingError) -> T {
        guard !readOnly else {
            throw .io(path: directory, reason: "the store is open read-only; nothing can be changed")
        }
        try prepare(directory)
        let lock: OpenFile
        do {
            lock = try fileSystem.open(lockPath, [.readWrite, .create], mode: 0o600)
            _ = try fileSystem.lock(lock, waiting: true)
        } catch {
            throw .io(path: lockPath, reason: "cannot be locked: \(error)")
        }
        defer {
            fileSystem.unlock(lock)
            fileSystem.close(lock)
        }
        var state = try read()
        guard state.version <= RetentionState.currentVersion else {
            throw .io(
                path: statePath,
                reason: "was written by a newer storefront (format version \(state.version)); this one writes "
                    + "version \(RetentionState.currentVersion) and leaves it unchanged")
        }
        var images: [UUID: Data] = [:]
        let result = try body(&state, &images)
        state.version = RetentionState.currentVersion
        if !images.isEmpty { try prepare(imagesDirectory) }
        for (id, data) in images { try replace(imagePath(id), with: [UInt8](data)) }
        let encoded: Data
        do {
            encoded = try Self.encoder.encode(state)
        } catch {
            throw .io(path: statePath, reason: "cannot be encoded: \(error)")
        }
        try replace(statePath, with: [UInt8](encoded))
        removeUnnamedImages(state)
        return result
    }

    private func replace(_ path: String, with bytes: [UInt8]) throws(RetentionMessagingError) {
        do {
            try fileSystem.replaceAtomically(
                path, with: bytes, fileSync: syncsWrites ? .all : nil, syncsDirectory: syncsWrites)
        } catch {
            throw .io(path: path, reason: "cannot be written: \(error)")
        }
    }

    private func prepare(_ path: String) throws(RetentionMessagingError) {
        do {
            try StoreDirectory.prepare(path, fileSystem: fileSystem)
        } catch {
            throw .io(path: path, reason: "\(error)")
        }
    }

    /// Removes image files the state does not name (best effort: a leftover is harmless).
    private func removeUnnamedImages(_ state: RetentionState) {
        guard let names = try? fileSystem.contentsOfDirectory(imagesDirectory) else { return }
        for name in names where name.hasSuffix(".png") && state.images[String(name.dropLast(4))] == nil {
            try? fileSystem.removeFile(imagesDirectory + "/" + name)
        }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }()

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()

    /// A decoding error as a person reads it: the member's path and what was wrong.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)" }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let at = context.codingPath.isEmpty ? "the file" : path(context.codingPath)
            return "\(at): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        "$" + keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
    }
}
