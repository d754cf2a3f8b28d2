// The value types the engine's API speaks in (`Product`, `Transaction`, `StoreError`, the clock…)
// live in StoreKitValues, below the engine, so the pure storefront target can use them without
// linking OpenSSL; an app that imports StoreCore names them without importing StoreKitValues.
@_exported import StoreKitValues
