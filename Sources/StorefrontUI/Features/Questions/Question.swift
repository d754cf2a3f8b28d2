/// What the storefront asks before doing something that cannot be undone.
public enum Question: Hashable, Sendable {
    /// Refund a transaction (it is revoked; the app loses what it bought).
    case refund(transactionID: String, productID: String)
    /// End a subscription now.
    case expire(transactionID: String, productID: String)
    /// Quit while downloads are under way (they carry on at the next launch).
    case quit(downloads: Int)
    /// Cancel a download (its partial bytes are deleted).
    case cancelDownload(id: String, productID: String)
    /// Remove an account from the family (what is shared with or by it is revoked).
    case removeFromFamily(accountID: String, name: String)

    /// What Yes does.
    var effect: Effect {
        switch self {
        case .refund(let id, _): .transactionCommand(.refund, transactionID: id)
        case .expire(let id, _): .subscriptionCommand(.expire, transactionID: id)
        case .quit: .quit
        case .cancelDownload(let id, _): .cancelDownload(id: id)
        case .removeFromFamily(let id, _): .removeFromFamily(accountID: id)
        }
    }
}
