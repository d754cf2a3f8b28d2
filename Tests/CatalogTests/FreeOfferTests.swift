import Foundation
import Testing

@testable import Catalog

/// A `free` offer costs 0 whatever `displayPrice` Xcode left on it; that text is still checked.
/// (`ConformanceTests` checks the same on a file Xcode wrote.)
@Suite struct FreeOfferTests {
    @Test func everyKindOfFreeOfferIsZeroAndPaidOffersKeepTheirPrice() throws {
        let offers =
            #""recurringSubscriptionPeriod":"P1M","#
            + #""introductoryOffer":{"displayPrice":"0.99","paymentMode":"free","subscriptionPeriod":"P1W"},"#
            + #""adHocOffers":[{"offerID":"back","displayPrice":"1.99","paymentMode":"free","subscriptionPeriod":"P1M"},"#
            + #"{"offerID":"half","displayPrice":"2.49","paymentMode":"payAsYouGo","subscriptionPeriod":"P1M","numberOfPeriods":2}],"#
            + #""codeOffers":[{"displayPrice":"3.99","paymentMode":"free","subscriptionPeriod":"P1M"}]"#
        let json = BadCatalogTests.catalog(group: BadCatalogTests.subscription(offers))
        let subscription = try #require(
            try StoreKitConfiguration.decode(data: Data(json.utf8), file: "f.storekit").product(id: "s")?.subscription)
        #expect(subscription.introductoryOffer?.price == 0)
        #expect(subscription.promotionalOffers.map(\.price) == [0, Decimal(string: "2.49")])
        #expect(subscription.codeOffers.map(\.price) == [0])
    }

    @Test func aMalformedPriceOnAFreeOfferIsStillAnError() throws {
        let negative = BadCatalogTests.catalog(
            group: BadCatalogTests.subscription(
                #""recurringSubscriptionPeriod":"P1M","adHocOffers":[{"offerID":"x","displayPrice":"-1","paymentMode":"free","subscriptionPeriod":"P1M"}]"#
            ))
        let error = try #require(Fixtures.decodeError(negative))
        #expect(error.path == "$.subscriptionGroups[0].subscriptions[0].adHocOffers[0].displayPrice")
        #expect(error.problem.contains("negative price"))
    }
}
