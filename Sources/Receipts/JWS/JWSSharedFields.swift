import Foundation
import StoreKitValues

/// The members Apple's signed transaction and signed renewal info share, typed over the raw
/// values the JSON carries (an unknown value stays readable in the `raw` member).
public protocol JWSSharedFields: RawValueMembers {
    /// The app account token as sent (a UUID string).
    var rawAppAccountToken: String? { get set }
    /// The offer's payment mode as sent.
    var rawOfferDiscountType: String? { get set }
    /// The offer type as sent.
    var rawOfferType: Int32? { get set }
    /// The environment as sent.
    var rawEnvironment: String? { get set }
}

extension JWSSharedFields {
    // The typed members below read and write their raw member directly, not through
    // `self[typed:]`: a key path written in a protocol extension depends on `Self`, so the
    // runtime builds it anew at every call (about 45 k instructions each; a signed transaction
    // sets two).

    /// The app account token, when it is a UUID; set writes it lowercase, as Apple does.
    public var appAccountToken: UUID? {
        get { rawAppAccountToken.flatMap(UUID.init(uuidString:)) }
        set { rawAppAccountToken = newValue?.uuidString.lowercased() }
    }

    /// The offer's payment mode, when known.
    public var offerDiscountType: OfferDiscountType? {
        get { rawOfferDiscountType.flatMap(OfferDiscountType.init(rawValue:)) }
        set { rawOfferDiscountType = newValue?.rawValue }
    }

    /// The offer type, when known.
    public var offerType: OfferType? {
        get { rawOfferType.flatMap(OfferType.init(rawValue:)) }
        set { rawOfferType = newValue?.rawValue }
    }

    /// The environment, when known.
    public var environment: AppStoreEnvironment? {
        get { rawEnvironment.flatMap(AppStoreEnvironment.init(rawValue:)) }
        set { rawEnvironment = newValue?.rawValue }
    }
}
