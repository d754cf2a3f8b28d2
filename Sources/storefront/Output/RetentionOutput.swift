import Foundation
import LocalAppStore

/// What `storefront cancel` and `storefront store retention…` print of retention messaging:
/// the sheet a customer sees (its image described in words), and the store's images, messages
/// and realtime log, as text and as JSON.
enum RetentionOutput {
    /// The cancel sheet as lines: the message (header, image, body, bullet points) and what the
    /// customer may do. `names` gives products' display names.
    static func sheet(_ offer: RetentionOffer, names: [String: String]) -> [String] {
        var lines: [String] = []
        if let message = offer.message {
            let content = message.content
            let image = content.image.map { Self.described($0.altText, offer.images[$0.imageIdentifier]) }
            if content.headerPosition == .aboveImage, let image {
                lines += [content.header, image]
            } else {
                if let image { lines.append(image) }
                lines.append(content.header)
            }
            lines.append(content.body)
            for point in content.bulletPoints {
                lines.append("  • \(point.text) (icon: \(point.altText))")
            }
        } else {
            lines.append("(no retention message)")
        }
        if let product = offer.alternateProductID {
            lines.append("Switch to \(names[product] ?? product) instead: --choice switch")
        }
        if let promotion = offer.promotionalOffer {
            let product = names[promotion.productID] ?? promotion.productID
            lines.append("Take the offer \(promotion.offer.offerID) on \(product): --choice offer")
        }
        lines.append("Cancel anyway: --choice cancel (the default)")
        if let reason = offer.fallbackReason {
            let what = offer.shown == .defaultMessage ? "the default message is shown" : "no message is shown"
            lines.append("(\(what): \(reason))")
        }
        return lines
    }

    /// An image in words, as a screen reader would give it: `[Image: ALT — 3840×1080 PNG]`.
    static func described(_ altText: String, _ image: RetentionImage?) -> String {
        "[Image: \(altText)\(image.map { " — \($0.dimensions)" } ?? "")]"
    }

    /// The sheet as JSON.
    static func json(_ offer: RetentionOffer) -> JSONText {
        .object([
            ("requestIdentifier", .string(offer.requestIdentifier.uuidString.lowercased())),
            ("shown", .string(offer.shown.rawValue)),
            ("message", offer.message.map(json) ?? .null),
            ("alternateProductID", .optional(offer.alternateProductID)),
            (
                "promotionalOffer",
                offer.promotionalOffer.map {
                    .object([("productID", .string($0.productID)), ("offerID", .string($0.offer.offerID))])
                } ?? .null
            ),
            ("fallbackReason", .optional(offer.fallbackReason)),
        ])
    }

    /// A message as JSON: Apple's members, with its identifier and state.
    static func json(_ message: RetentionMessage) -> JSONText {
        let content = message.content
        return .object([
            ("messageIdentifier", .string(message.identifier.uuidString.lowercased())),
            ("messageState", .string(message.rawState)),
            ("header", .string(content.header)),
            ("body", .string(content.body)),
            ("headerPosition", .string(content.headerPosition.rawValue)),
            (
                "image",
                content.image.map {
                    .object([
                        ("imageIdentifier", .string($0.imageIdentifier.uuidString.lowercased())),
                        ("altText", .string($0.altText)),
                    ])
                } ?? .null
            ),
            (
                "bulletPoints",
                .array(
                    content.bulletPoints.map {
                        .object([
                            ("text", .string($0.text)),
                            ("imageIdentifier", .string($0.imageIdentifier.uuidString.lowercased())),
                            ("altText", .string($0.altText)),
                        ])
                    })
            ),
        ])
    }

    /// A realtime exchange as JSON, every member the log keeps.
    static func json(_ exchange: RealtimeExchange) -> JSONText {
        .object([
            ("requestIdentifier", .string(exchange.requestIdentifier.uuidString.lowercased())),
            ("date", .string(TransactionOutput.date(exchange.date))),
            ("originalTransactionID", .string(exchange.originalTransactionID)),
            ("productID", .string(exchange.productID)),
            ("userLocale", .string(exchange.userLocale)),
            ("environment", .string(exchange.environment)),
            ("url", .optional(exchange.url)),
            ("result", .optional(exchange.result)),
            ("status", exchange.status.map { .number(String($0)) } ?? .null),
            ("milliseconds", exchange.milliseconds.map { .number(String($0)) } ?? .null),
            ("answer", .optional(exchange.answer)),
            ("shown", .string(exchange.shown.rawValue)),
            ("messageIdentifier", .optional(exchange.messageIdentifier?.uuidString.lowercased())),
            ("alternateProductID", .optional(exchange.alternateProductID)),
            ("offerIdentifier", .optional(exchange.offerIdentifier)),
            ("fallbackReason", .optional(exchange.fallbackReason)),
            ("choice", .optional(exchange.choice)),
            ("choiceTransactionID", .optional(exchange.choiceTransactionID)),
        ])
    }

    /// One line of the log: when, which subscription, what was answered and shown, and the choice.
    static func line(_ exchange: RealtimeExchange) -> String {
        let answer =
            exchange.url == nil
            ? "no realtime URL"
            : "\(exchange.result ?? "-") \(exchange.status.map(String.init) ?? "-") in \(exchange.milliseconds.map { "\($0) ms" } ?? "-")"
        let reason = exchange.fallbackReason.map { " (\($0))" } ?? ""
        let choice =
            exchange.choice.map { ", chose \($0)\(exchange.choiceTransactionID.map { " → \($0)" } ?? "")" } ?? ""
        return "\(TransactionOutput.date(exchange.date))  \(exchange.originalTransactionID) \(exchange.productID) "
            + "\(exchange.userLocale): \(answer); showed \(exchange.shown.rawValue)\(reason)\(choice)"
    }
}
