package import Crypto
import Foundation

/// The developer's subscription keys (App Store Connect's In-App Purchase keys) that the
/// local store knows: it checks promotional offers signed by them, signs with them for a
/// developer who has no server yet (`store sign-offer`), and the local App Store Server's API
/// credentials name one of them, since Apple's one key serves both.
///
/// Kept as `STATE/SubscriptionKeys/SubscriptionKey_KEYID.p8` (PKCS#8 PEM, EC P-256, mode
/// 0600), the name App Store Connect gives the download; one key is made on first use. Two
/// processes making it at once agree on one (the first link wins).
public struct SubscriptionKeyring: Sendable {
    /// The directory holding the keys.
    public let directory: URL

    /// One key: its ID and the private key.
    public struct Key: @unchecked Sendable {
        /// The key's ID, as App Store Connect shows it.
        public let keyID: String
        /// The EC P-256 private key.
        package let privateKey: PrivateKey
    }

    /// The keyring of the store whose state is in `stateDirectory`.
    public init(stateDirectory: URL) {
        directory = stateDirectory.appendingPathComponent("SubscriptionKeys", isDirectory: true)
    }

    /// The file of the key with `keyID` (whether or not it exists).
    public func url(of keyID: String) -> URL {
        directory.appendingPathComponent("SubscriptionKey_\(keyID).p8")
    }

    /// The key with `keyID`, if the store has it.
    /// - Throws: `LocalAppStoreError.io` when its file cannot be read or holds no EC key.
    func key(id keyID: String) throws(LocalAppStoreError) -> Key? {
        guard Self.isKeyID(keyID) else { return nil }
        let url = url(of: keyID)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        do {
            let key = try PrivateKey(pem: String(contentsOf: url, encoding: .utf8))
            guard key.isEC else { throw LocalAppStoreError.io(path: url.path, reason: "not an EC P-256 key") }
            return Key(keyID: keyID, privateKey: key)
        } catch let error as LocalAppStoreError {
            throw error
        } catch {
            throw .io(path: url.path, reason: "cannot read the subscription key: \(error)")
        }
    }

    /// The IDs of the keys the store has, sorted.
    func keyIDs() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.compactMap { name -> String? in
            guard name.hasPrefix("SubscriptionKey_"), name.hasSuffix(".p8") else { return nil }
            let id = String(name.dropFirst("SubscriptionKey_".count).dropLast(".p8".count))
            return Self.isKeyID(id) ? id : nil
        }.sorted()
    }

    /// The store's signing key: the first it has, made now when it has none.
    /// - Throws: `LocalAppStoreError.io` when the key cannot be written or read.
    public func signingKey() throws(LocalAppStoreError) -> Key {
        if let id = keyIDs().first, let key = try key(id: id) { return key }
        let fileManager = FileManager.default
        do {
            try fileManager.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
            let keyID = String(try SecureRandom.bytes(count: 10).map { alphabet[Int($0) % alphabet.count] })
            let pem = try PrivateKey.generate(.p256).pemRepresentation()
            let temporary = directory.appendingPathComponent(".key.\(UUID().uuidString).tmp")
            guard
                fileManager.createFile(
                    atPath: temporary.path, contents: Data(pem.utf8), attributes: [.posixPermissions: 0o600])
            else {
                throw LocalAppStoreError.io(path: temporary.path, reason: "cannot write the subscription key")
            }
            defer { try? fileManager.removeItem(at: temporary) }
            // Only one key is made: a process that lost the race uses the winner's.
            if keyIDs().isEmpty {
                try fileManager.linkItem(at: temporary, to: url(of: keyID))
            }
        } catch let error as LocalAppStoreError {
            throw error
        } catch {
            throw .io(path: directory.path, reason: "cannot make the subscription key: \(error)")
        }
        guard let id = keyIDs().first, let key = try key(id: id) else {
            throw .io(path: directory.path, reason: "the subscription key vanished after being written")
        }
        return key
    }

    /// Makes the developer's own key (a `.p8` file App Store Connect issued) known to the store
    /// as `keyID`, copied with mode 0600; a copy already there with the same bytes stays.
    /// - Throws: `LocalAppStoreError.io` naming the file when the key ID is not of Apple's
    ///   shape, the file cannot be read or holds no EC key, or it cannot be copied.
    public func adopt(keyAt path: String, keyID: String) throws(LocalAppStoreError) {
        guard Self.isKeyID(keyID) else {
            throw .io(path: path, reason: "\"\(keyID)\" is not a key ID (letters and digits)")
        }
        let pem: Data
        do {
            pem = try Data(contentsOf: URL(fileURLWithPath: path))
            guard try PrivateKey(pem: String(decoding: pem, as: UTF8.self)).isEC else {
                throw LocalAppStoreError.io(path: path, reason: "not an EC P-256 key")
            }
        } catch let error as LocalAppStoreError {
            throw error
        } catch {
            throw .io(path: path, reason: "cannot read the key: \(error)")
        }
        let target = url(of: keyID)
        if (try? Data(contentsOf: target)) == pem { return }
        let fileManager = FileManager.default
        let temporary = directory.appendingPathComponent(".key.\(UUID().uuidString).tmp")
        do {
            try fileManager.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            guard fileManager.createFile(atPath: temporary.path, contents: pem, attributes: [.posixPermissions: 0o600])
            else {
                throw LocalAppStoreError.io(path: temporary.path, reason: "cannot write the subscription key")
            }
            defer { try? fileManager.removeItem(at: temporary) }
            if fileManager.fileExists(atPath: target.path) {
                _ = try fileManager.replaceItemAt(target, withItemAt: temporary)
            } else {
                try fileManager.moveItem(at: temporary, to: target)
            }
        } catch let error as LocalAppStoreError {
            throw error
        } catch {
            throw .io(path: target.path, reason: "cannot copy the subscription key: \(error)")
        }
    }

    /// Whether `text` has the shape of a key ID (letters and digits, as App Store Connect's).
    static func isKeyID(_ text: String) -> Bool {
        (1...64).contains(text.count) && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
