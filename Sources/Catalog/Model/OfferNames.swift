/// An offer as Xcode addresses it: by `offerID` when it has one, else by `internalID` or
/// reference name (offer codes as Xcode writes them have no `offerID`).
public protocol OfferNames {
    /// The offer identifier (`offerID`), when the file gives one.
    var id: String? { get }
    /// App Store Connect's identifier of the offer (`internalID`), when present.
    var internalID: String? { get }
    /// The reference name, when the file gives one.
    var referenceName: String? { get }
}

extension OfferNames {
    /// The name the store files the offer under: its `offerID`, else its `internalID`, else its
    /// reference name; `nil` only for an introductory offer written with none of them.
    public var identifier: String? { id ?? internalID ?? referenceName }

    /// The names the offer answers to, in the order they are tried: `offerID`, `internalID`,
    /// reference name (those it has).
    public var names: [String] { [id, internalID, referenceName].compactMap { $0 } }
}

extension Array where Element: OfferNames {
    /// The offer `name` addresses, as Xcode addresses offers: the one whose `offerID` is `name`,
    /// else the one whose `internalID` is, else the one whose reference name is (the first of
    /// each, in file order).
    /// - Parameter name: an offer ID, an internal ID or a reference name.
    public func offer(named name: String) -> Element? {
        first { $0.id == name } ?? first { $0.internalID == name } ?? first { $0.referenceName == name }
    }
}

extension StoreKitConfiguration.SubscriptionOffer: OfferNames {}
extension StoreKitConfiguration.OneTimeOffer: OfferNames {}
