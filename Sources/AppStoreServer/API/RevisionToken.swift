import Foundation
import Receipts

/// The `revision` of a paged answer: where the next page starts and which way it runs,
/// opaque to callers (base64url), so a token from one request continues only that walk.
struct RevisionToken: Hashable, Sendable {
    /// The journal position the next page starts at.
    var position: Int
    /// Whether the walk runs oldest first.
    var ascending: Bool

    /// The token's text.
    var text: String { Base64URL.encode(Array("\(ascending ? "a" : "d"):\(position)".utf8)) }

    init(position: Int, ascending: Bool) {
        self.position = position
        self.ascending = ascending
    }

    /// Reads a token; nil when it is not one of this server's.
    init?(text: String) {
        guard text.count <= 64, let bytes = Base64URL.decode(text) else { return nil }
        let parts = String(decoding: bytes, as: UTF8.self).split(separator: ":")
        guard parts.count == 2, parts[0] == "a" || parts[0] == "d", let position = Int(parts[1]), position >= -1 else {
            return nil
        }
        self.position = position
        self.ascending = parts[0] == "a"
    }
}
