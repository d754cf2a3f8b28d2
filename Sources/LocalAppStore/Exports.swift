// The catalog a local store sells from (`StoreKitConfiguration`, loaded from an Xcode `.storekit`
// file) is Catalog's; an app that imports LocalAppStore loads and names it without importing Catalog.
@_exported import Catalog
