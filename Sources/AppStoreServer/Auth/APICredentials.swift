import Crypto
import Foundation
import LocalAppStore

/// What an app's backend needs to call the local App Store Server, as App Store Connect hands
/// it out: a key ID, an issuer ID and an API private key (PKCS#8 `.p8` PEM, EC P-256).
///
/// Kept in `DATA/api/credentials.json`. The key is one of the local store's subscription keys
/// (`SubscriptionKeyring`), as App Store Connect's In-App Purchase key serves both the App
/// Store Server API and promotional offer signatures: made on first use, or the user's own,
/// which stays where it is (its path is kept) and is copied into the store's keyring so the
/// offers it signs are accepted.
public struct APICredentials: Codable, Hashable, Sendable {
    /// The key's ID (10 characters, as App Store Connect's), the JWT header's `kid`.
    public var keyID: String
    /// The issuer ID (a UUID), the JWT payload's `iss`.
    public var issuerID: String
    /// The absolute path of the private key (`.p8`).
    public var keyPath: String

    /// Why credentials could not be read, made or installed.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// A file could not be read or written.
        case io(path: String, reason: String)
        /// The key file holds no EC P-256 private key.
        case notAnES256Key(path: String, reason: String)
        /// `credentials.json` is damaged.
        case damaged(path: String, reason: String)
        /// A key ID or issuer ID the user gave is not of Apple's form.
        case invalid(field: String, value: String, expected: String)

        public var description: String {
            switch self {
            case .io(let path, let reason): "\(path): \(reason)"
            case .notAnES256Key(let path, let reason):
                "\(path) is not an EC P-256 private key in PEM (a .p8 file): \(reason)"
            case .damaged(let path, let reason): "\(path) is damaged (\(reason)); remove it to make new credentials"
            case .invalid(let field, let value, let expected): "invalid \(field) \"\(value)\": expected \(expected)"
            }
        }
    }

    /// The directory inside the data directory that holds them.
    public static func directory(inDataDirectory dataDirectory: URL) -> URL {
        dataDirectory.appendingPathComponent("api", isDirectory: true)
    }

    /// Reads the credentials, making a key, key ID and issuer ID on first use. Two processes
    /// making them at once agree on one set (the first link wins).
    /// - Throws: `Failure`.
    public static func loadOrCreate(
        dataDirectory: URL, fileManager: FileManager = .default
    ) throws(Failure) -> APICredentials {
        let folder = directory(inDataDirectory: dataDirectory)
        let file = folder.appendingPathComponent("credentials.json")
        let keyring = SubscriptionKeyring(
            stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: dataDirectory))
        if let existing = try read(file) {
            try existing.adopt(into: keyring)
            return existing
        }
        do {
            try fileManager.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let key = try keyring.signingKey()
            let issuer = try UUID(uuid: randomUUIDBytes()).uuidString.lowercased()
            try publish(
                APICredentials(keyID: key.keyID, issuerID: issuer, keyPath: keyring.url(of: key.keyID).path), to: file,
                fileManager: fileManager)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .io(path: folder.path, reason: "\(error)")
        }
        guard let made = try read(file) else {
            throw .io(path: file.path, reason: "credentials vanished after being written")
        }
        return made
    }

    /// Replaces the credentials with the user's own key, key ID and issuer ID (persisted).
    /// - Throws: `Failure.invalid` for a malformed ID, `.notAnES256Key` for a bad key file.
    public static func install(
        keyPath: String, keyID: String, issuerID: String, dataDirectory: URL, fileManager: FileManager = .default
    ) throws(Failure) -> APICredentials {
        guard (1...64).contains(keyID.count), keyID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw .invalid(field: "key ID", value: keyID, expected: "letters and digits, such as 2X9R4HXF34")
        }
        guard UUID(uuidString: issuerID) != nil else {
            throw .invalid(
                field: "issuer ID", value: issuerID, expected: "a UUID, such as 57246542-96fe-1a63-e053-0824d011072a")
        }
        let credentials = APICredentials(keyID: keyID, issuerID: issuerID.lowercased(), keyPath: keyPath)
        _ = try credentials.publicKey()
        try credentials.adopt(
            into: SubscriptionKeyring(
                stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: dataDirectory)))
        let folder = directory(inDataDirectory: dataDirectory)
        do {
            try fileManager.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let data = try JSONEncoder().encode(credentials)
            try writePrivate(
                data, to: folder.appendingPathComponent("credentials.json"), fileManager: fileManager, replacing: true)
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .io(path: folder.path, reason: "\(error)")
        }
        return credentials
    }

    /// Makes the key known to the store's keyring (a no-op when it is there already).
    private func adopt(into keyring: SubscriptionKeyring) throws(Failure) {
        do throws(LocalAppStoreError) {
            try keyring.adopt(keyAt: keyPath, keyID: keyID)
        } catch {
            throw .io(path: keyPath, reason: "\(error)")
        }
    }

    /// The private key's PEM text.
    /// - Throws: `Failure.io` when the file cannot be read.
    public func privateKeyPEM() throws(Failure) -> String {
        do {
            return try String(contentsOfFile: keyPath, encoding: .utf8)
        } catch {
            throw .io(path: keyPath, reason: "cannot read the API key: \(error.localizedDescription)")
        }
    }

    /// The public key that checks the JWTs this key signs.
    /// - Throws: `Failure.io` or `.notAnES256Key`.
    public func publicKey() throws(Failure) -> PublicKey {
        let pem = try privateKeyPEM()
        do {
            let key = try PublicKey(of: PrivateKey(pem: pem))
            guard key.isP256 else { throw Failure.notAnES256Key(path: keyPath, reason: "the key is not on P-256") }
            return key
        } catch let failure as Failure {
            throw failure
        } catch {
            throw .notAnES256Key(path: keyPath, reason: "\(error)")
        }
    }

    // MARK: - Files

    private static func read(_ file: URL) throws(Failure) -> APICredentials? {
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        do {
            return try JSONDecoder().decode(APICredentials.self, from: Data(contentsOf: file))
        } catch {
            throw .damaged(path: file.path, reason: "\(error)")
        }
    }

    /// Writes `data` to a private temporary file (0600) and links or renames it into place.
    private static func writePrivate(
        _ data: Data, to url: URL, fileManager: FileManager, replacing: Bool = false
    ) throws {
        if replacing {
            // Atomic replacement (temporary file and rename), inside the 0700 directory.
            try data.write(to: url, options: .atomic)
            try fileManager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
            return
        }
        let temporary = url.deletingLastPathComponent().appendingPathComponent(
            ".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        guard fileManager.createFile(atPath: temporary.path, contents: data, attributes: [.posixPermissions: 0o600])
        else {
            throw Failure.io(path: temporary.path, reason: "cannot create the file")
        }
        defer { try? fileManager.removeItem(at: temporary) }
        try fileManager.linkItem(at: temporary, to: url)
    }

    /// Publishes the credentials file; a hard link never replaces one another process made first.
    private static func publish(_ credentials: APICredentials, to file: URL, fileManager: FileManager) throws {
        let data = try JSONEncoder().encode(credentials)
        do {
            try writePrivate(data, to: file, fileManager: fileManager)
        } catch {
            // Someone else's credentials won (they name the store's one key too).
            guard fileManager.fileExists(atPath: file.path) else { throw error }
        }
    }

    private static func randomUUIDBytes() throws -> uuid_t {
        var bytes = try SecureRandom.bytes(count: 16)
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        )
    }
}
