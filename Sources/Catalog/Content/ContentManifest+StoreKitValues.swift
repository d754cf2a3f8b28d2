import StoreKitValues

/// A product's hosted-content manifest; defined once in `StoreKitValues` (the engine downloads
/// and checks the same type), named here so a tool that imports only Catalog has it.
public typealias ContentManifest = StoreKitValues.ContentManifest

/// One file of a hosted-content manifest (`StoreKitValues.ContentFile`).
public typealias ContentFile = StoreKitValues.ContentFile
