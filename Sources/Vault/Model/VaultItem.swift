import Foundation

/// One item in the vault: a secret and its attributes, keyed by service and account,
/// like a generic-password item in the Keychain.
public struct VaultItem: Sendable, Hashable {
    /// The key of an item: its service and account.
    public struct ID: Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The service, e.g. a bundle identifier or "storefront.purchases".
        public var service: String
        /// The account within the service, e.g. a product or transaction identifier.
        public var account: String

        /// Creates an identifier.
        public init(service: String, account: String) {
            self.service = service
            self.account = account
        }

        /// `service/account`, for messages.
        public var description: String { "service \"\(service)\", account \"\(account)\"" }

        /// Orders by service, then account.
        public static func < (a: ID, b: ID) -> Bool {
            (a.service, a.account) < (b.service, b.account)
        }
    }

    /// The item's key.
    public let id: ID
    /// The secret bytes.
    public var data: Data
    /// A human-readable label.
    public var label: String
    /// Free-form string attributes (at most `VaultFormat.maxAttributes`).
    public var attributes: [String: String]
    /// When the item was first added (millisecond precision).
    public let created: Date
    /// When the item was last written (millisecond precision).
    public let modified: Date

    /// The service this item belongs to.
    public var service: String { id.service }
    /// The account within the service.
    public var account: String { id.account }

    /// Creates an item (the vault does this; callers pass `VaultItemContent`).
    public init(id: ID, content: VaultItemContent, created: Date, modified: Date) {
        self.id = id
        self.data = content.data
        self.label = content.label
        self.attributes = content.attributes
        self.created = created
        self.modified = modified
    }

    /// The writable part of the item.
    public var content: VaultItemContent {
        VaultItemContent(data: data, label: label, attributes: attributes)
    }
}
