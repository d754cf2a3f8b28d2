/// Which hosted content files a catalog load checks against their manifests (presence, size and,
/// with a digester, SHA-256). Every manifest is read and checked whatever is chosen; the files
/// are what cost a load its time (a `stat` each, and a digest when not cached).
public enum ContentFileCheck: Sendable, Hashable {
    /// Every product's files: what a command that may deliver any product's content needs.
    case all
    /// No file, the manifests only: what a first frame can do without.
    case manifestsOnly
    /// The files of these products only: what a purchase of them may download. Another
    /// product's damaged content does not stop the sale of one whose content is whole.
    case products(Set<String>)

    /// Whether the files of `productID`'s content are checked.
    public func includes(_ productID: String) -> Bool {
        switch self {
        case .all: true
        case .manifestsOnly: false
        case .products(let ids): ids.contains(productID)
        }
    }
}
