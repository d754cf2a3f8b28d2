import Crypto
import StoreKitValues
import SystemIO

/// How a vault behaves; every collaborator has a production default.
public struct VaultConfiguration: Sendable {
    /// The clock stamping `created` and `modified` (the package's one clock abstraction).
    public var clock: any StoreClock
    /// The file system (tests inject failures through it).
    public var fileSystem: any VaultFileSystem
    /// Called at each `VaultFaultPoint`; libraries never read the environment themselves.
    public var faultHook: (@Sendable (VaultFaultPoint) -> Void)?
    /// The AEAD sealing records in new vaults.
    public var cipher: AEAD.Algorithm
    /// scrypt parameters for new passphrase-protected vaults and passphrase changes.
    public var newScryptParameters: Scrypt.Parameters
    /// Limits applied to scrypt parameters read from a file, before deriving.
    public var scryptLimits: Scrypt.Limits
    /// Compaction runs when superseded records outnumber both live items and this minimum.
    public var compactionMinimumGarbage: Int
    /// A vault with fewer records is read whole on open and gets no index (`NAME.idx`). Each
    /// record replayed costs about 55 k instructions (opened, authenticated, applied): a vault
    /// of a few hundred records read whole was most of a `storefront buy`'s vault open.
    public var indexMinimumRecords: Int
    /// The index is rewritten once this many records follow it (what every open replays).
    public var indexTailRecords: Int
    /// Only read the vault (a directory this process may not write): files are opened for
    /// reading, no lock file or index is made, and every write fails with `EROFS`.
    public var readOnly: Bool

    /// Creates a configuration; the defaults are the production ones.
    public init(
        clock: any StoreClock = SystemClock(),
        fileSystem: any VaultFileSystem = PosixFileSystem(),
        faultHook: (@Sendable (VaultFaultPoint) -> Void)? = nil,
        cipher: AEAD.Algorithm = .aes256GCM,
        newScryptParameters: Scrypt.Parameters = .interactive,
        scryptLimits: Scrypt.Limits = .default,
        compactionMinimumGarbage: Int = 1024,
        indexMinimumRecords: Int = 64,
        indexTailRecords: Int = 256,
        readOnly: Bool = false
    ) {
        self.clock = clock
        self.fileSystem = fileSystem
        self.faultHook = faultHook
        self.cipher = cipher
        self.newScryptParameters = newScryptParameters
        self.scryptLimits = scryptLimits
        self.compactionMinimumGarbage = compactionMinimumGarbage
        self.indexMinimumRecords = indexMinimumRecords
        self.indexTailRecords = indexTailRecords
        self.readOnly = readOnly
    }
}
