import Foundation

/// What a caller writes into an item: its data, label and attributes.
public struct VaultItemContent: Sendable, Hashable {
    /// The secret bytes.
    public var data: Data
    /// A human-readable label.
    public var label: String
    /// Free-form string attributes.
    public var attributes: [String: String]

    /// Creates content.
    public init(data: Data, label: String = "", attributes: [String: String] = [:]) {
        self.data = data
        self.label = label
        self.attributes = attributes
    }
}
