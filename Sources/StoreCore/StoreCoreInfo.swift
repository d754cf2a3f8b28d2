/// Facts about the engine itself.
public enum StoreCoreInfo {
    /// The engine's version, reported by the CLI.
    public static let version = "0.1.0"
}
