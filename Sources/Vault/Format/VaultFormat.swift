/// Constants of the vault file format; the format itself is specified in Docs/formats/vault.md.
public enum VaultFormat {
    /// The first bytes of every vault file.
    public static let magic: [UInt8] = Array("SFVAULT\0".utf8)
    /// The major version this build reads and writes; a larger one is refused.
    public static let major: UInt16 = 1
    /// The minor version this build reads and writes; a larger one is refused.
    public static let minor: UInt16 = 0
    /// Header length in version 1.0, checksum included.
    public static let headerLength = 176
    /// The largest header length accepted before reading it.
    public static let maxHeaderLength: UInt32 = 64 * 1024
    /// The first bytes of every record frame.
    public static let recordMarker: [UInt8] = [0x53, 0x46, 0x52, 0x01]  // "SFR\x01"
    /// Length of a record frame's header (marker … frame check).
    public static let frameHeaderLength = 52
    /// The largest item data accepted (16 MiB).
    public static let maxDataLength = 16 * 1024 * 1024
    /// The largest sealed record accepted (item data plus room for its fields and tag).
    public static let maxSealedLength: UInt32 = UInt32(maxDataLength) + 8 * 1024 * 1024
    /// The largest number of free-form attributes on one item.
    public static let maxAttributes = 64
    /// The largest UTF-8 length of a service, account, label, attribute name or value.
    public static let maxStringLength = 65_535
    /// The reserved item that opens an atomic write of several records: a put of it, whose
    /// data is the number of records that follow (UInt32), comes first, and readers apply the
    /// records that follow only once all of them are there. Services starting with NUL are the
    /// vault's own; items cannot use them.
    public static let batchService = "\u{0}vault.batch"
    /// The first bytes of a key file.
    public static let keyFileMagic: [UInt8] = Array("SFVKEY\0\u{1}".utf8)
    /// Length of a key file: magic and a 256-bit key.
    public static let keyFileLength = 40
}
