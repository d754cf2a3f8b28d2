import Receipts
import Vault

/// The in-app purchase engine's version, reported by the CLI.
public enum StoreCoreInfo {
    public static let version = "0.1.0"
}
