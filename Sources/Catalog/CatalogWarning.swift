import Foundation

/// Something in a catalog file that was read, but not as written: the file, the JSON path and
/// what was done. A warning never stops a catalog from loading; `CatalogError` does.
public struct CatalogWarning: Equatable, Hashable, CustomStringConvertible, Sendable {
    /// The catalog file's path as given.
    public let file: String
    /// A JSON path into the file, e.g. `$.products[2].displayPrice`.
    public let path: String
    /// What was found and how it was read, in words a person can act on.
    public let problem: String

    /// `FILE: PATH: PROBLEM`, as `CatalogError` says it.
    public var description: String { "\(file): \(path): \(problem)" }
}
