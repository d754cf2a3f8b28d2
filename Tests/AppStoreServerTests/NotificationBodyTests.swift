import AppStoreServer
import Foundation
import Receipts
import Testing

/// The body of a notification POST is Apple's `responseBodyV2` whatever the payload: a JWS is
/// written as it is, anything else through the JSON encoder, and both read back as the payload.
struct NotificationBodyTests {
    @Test func aJWSIsWrittenAsItIsAndReadsBack() throws {
        let jws = "eyJhbGciOiJFUzI1NiJ9.eyJub3RpZmljYXRpb25UeXBlIjoiVEVTVCJ9.c2lnbmF0dXJl-_"
        let body = NotificationDelivery.body(signedPayload: jws)
        #expect(String(decoding: body, as: UTF8.self) == #"{"signedPayload":"\#(jws)"}"#)
        #expect(try JSONDecoder().decode(ResponseBodyV2.self, from: body).signedPayload == jws)
    }

    @Test func aPayloadJSONMustEscapeGoesThroughTheEncoder() throws {
        let text = "not \"a\" JWS/\\ é\n"
        let body = NotificationDelivery.body(signedPayload: text)
        #expect(try JSONDecoder().decode(ResponseBodyV2.self, from: body).signedPayload == text)
        #expect(String(decoding: body, as: UTF8.self).contains(#"\""#))
    }
}
