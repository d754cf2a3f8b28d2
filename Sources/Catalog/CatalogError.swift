import Foundation

/// Why a catalog file could not be loaded: the file, the JSON path and the problem.
public struct CatalogError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The catalog file's path as given.
    public let file: String
    /// A JSON path into the file, e.g. `$.products[2].productID`.
    public let path: String
    /// What is wrong, in words a person can act on.
    public let problem: String

    /// `FILE: PATH: PROBLEM`, e.g. `Demo.storekit: $.products[2].productID: missing productID`.
    public var description: String { "\(file): \(path): \(problem)" }
}

extension CatalogError: LocalizedError {
    /// The description, so that `localizedDescription` says what went wrong.
    public var errorDescription: String? { description }
}
