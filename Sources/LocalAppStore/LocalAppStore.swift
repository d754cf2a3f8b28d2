import Catalog
import StoreCore

/// The local App Store that the engine drives.
public enum LocalAppStoreInfo {
    public static let name = "Local App Store"
}
