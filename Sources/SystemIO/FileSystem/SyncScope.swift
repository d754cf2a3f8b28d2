/// What a file sync makes durable.
public enum SyncScope: Sendable, Hashable {
    /// The data and the metadata needed to read it back (the size): `fdatasync`.
    case data
    /// The data and all metadata: `fsync`.
    case all

    /// The name of the system call, for errors.
    public var callName: String {
        switch self {
        case .data: "fdatasync"
        case .all: "fsync"
        }
    }
}
