internal import Crypto
import Foundation
package import SystemIO

/// An account's download of the app, as the App Store remembers it: the app transaction's
/// identifier (which every signed transaction carries as `appTransactionId`), when the app was
/// first got, and its version then. Made once per account and kept, versioned, in
/// `STATE/AppTransactions/ACCOUNT.json`.
public struct AppDownload: Codable, Hashable, Sendable {
    /// The format's version.
    public var version: Int
    /// Apple's `appTransactionId`: a numeric string, unique per account and app.
    public var appTransactionID: String
    /// When the account first got the app (`originalPurchaseDate`).
    public var originalPurchaseDate: Date
    /// The app version first got (`originalApplicationVersion`).
    public var originalApplicationVersion: String

    /// The format version this build writes.
    public static let currentVersion = 1

    /// A new download at `now` of version `appVersion`, with an 18-digit identifier from `random`.
    public static func make(
        now: Date, appVersion: String, random: () throws -> UInt64 = AppDownload.secureRandom
    ) rethrows -> AppDownload {
        let id = 100_000_000_000_000_000 + (try random()) % 900_000_000_000_000_000
        return AppDownload(
            version: currentVersion, appTransactionID: String(id), originalPurchaseDate: now,
            originalApplicationVersion: appVersion)
    }

    /// 64 bits from OpenSSL's random generator.
    public static func secureRandom() throws -> UInt64 {
        try SecureRandom.bytes(count: 8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    }

    /// Reads the account's download from `directory`, or makes and keeps one there on first use.
    /// A new file is written beside its name, synced and hard-linked into place (SystemIO's
    /// `createOnce`), so two processes making it at once agree on the first and a power loss
    /// leaves the whole file or none.
    /// - Throws: the file system's error, or `CocoaError.fileReadCorruptFile` naming a file that
    ///   is not a download of a known version.
    package static func loadOrCreate(
        in directory: URL, accountID: String, appVersion: String, now: Date,
        fileSystem: any FileSystem = POSIXFileSystem()
    ) throws -> AppDownload {
        let url = directory.appendingPathComponent(fileName(accountID: accountID))
        if !fileSystem.exists(url.path) {
            try fileSystem.createDirectories(directory.path, mode: 0o700, enforcingMode: true)
            let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
            try fileSystem.createOnce(
                url.path, with: Array(try coder.encoder.encode(try make(now: now, appVersion: appVersion))),
                temporaryPath: temporary.path)
        }
        guard let bytes = try fileSystem.readFile(url.path),
            let download = try? coder.decoder.decode(AppDownload.self, from: Data(bytes)),
            download.version <= currentVersion, !download.appTransactionID.isEmpty
        else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return download
    }

    /// The file of an account: its ID when that is a safe file name, else the ID in hex.
    static func fileName(accountID: String) -> String {
        let safe =
            !accountID.isEmpty && !accountID.hasPrefix(".")
            && accountID.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0))
            }
        return (safe ? accountID : "hex-" + accountID.utf8.map { String(format: "%02x", $0) }.joined()) + ".json"
    }

    private static var coder: (encoder: JSONEncoder, decoder: JSONDecoder) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return (encoder, decoder)
    }
}
