import Foundation

/// The two hottest answers written directly: Get Transaction Info and a history page are
/// mostly JWS text, which is base64url and dots and so needs no escaping, while
/// `JSONEncoder` inspects every character of it. Same members and order as the models';
/// anything with a character that would need escaping goes through `JSONEncoder`.
enum FastJSON {
    /// Whether `text` can be written between quotes as is.
    static func isPlain(_ text: String) -> Bool {
        text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F || byte == 0x2E || byte == 0x3A || byte == 0x20
        }
    }

    /// `TransactionInfoResponse`, or nil when a value needs escaping.
    static func encode(_ response: TransactionInfoResponse) -> Data? {
        guard let jws = response.signedTransactionInfo, isPlain(jws) else { return nil }
        return Data(("{\"signedTransactionInfo\":\"" + jws + "\"}").utf8)
    }

    /// `HistoryResponse`, or nil when a value needs escaping.
    static func encode(_ response: HistoryResponse) -> Data? {
        let texts = [response.revision, response.bundleId, response.environment].compactMap { $0 } + (response.signedTransactions ?? [])
        guard texts.allSatisfy(isPlain) else { return nil }
        var members: [String] = []
        if let revision = response.revision { members.append("\"revision\":\"\(revision)\"") }
        if let hasMore = response.hasMore { members.append("\"hasMore\":\(hasMore)") }
        if let bundleId = response.bundleId { members.append("\"bundleId\":\"\(bundleId)\"") }
        if let appAppleId = response.appAppleId { members.append("\"appAppleId\":\(appAppleId)") }
        if let environment = response.environment { members.append("\"environment\":\"\(environment)\"") }
        if let signed = response.signedTransactions {
            members.append("\"signedTransactions\":[" + signed.map { "\"" + $0 + "\"" }.joined(separator: ",") + "]")
        }
        return Data(("{" + members.joined(separator: ",") + "}").utf8)
    }
}
