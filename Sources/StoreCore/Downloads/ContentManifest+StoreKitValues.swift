import StoreKitValues

/// A product's hosted-content manifest; defined once in `StoreKitValues` (the catalog's content
/// sidecar is read into the same type), named here so an app that imports only StoreCore has it.
public typealias ContentManifest = StoreKitValues.ContentManifest

/// One file of a hosted-content manifest (`StoreKitValues.ContentFile`).
public typealias ContentFile = StoreKitValues.ContentFile
