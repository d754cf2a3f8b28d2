import LocalAppStore

/// The local App Store's setting row, named apart from `StorefrontUI.StoreSetting` (the
/// module `LocalAppStore` shares its name with its actor, so it cannot qualify the type).
typealias LocalStoreSettingRow = StoreSetting
