import StoreCore

/// The selected product: localized name, description, subscription terms and offers.
enum DetailView {
    static func render(_ state: State, in rect: Rect, into screen: inout Screen) {
        let s = state.strings
        let inner = screen.box(rect, border: .rounded, style: Theme.border, title: s("Description"), titleStyle: Theme.title)
        guard !inner.isEmpty, let product = state.selectedProduct else { return }
        var lines: [(String, CellStyle)] = []
        lines.append((product.displayName, Theme.title))
        var facts = "\(s.typeName(product.type)) · \(product.displayPrice)"
        if let status = ProductStatus.of(product, in: state) { facts += " · \(status.text)" }
        for line in TextLayout.wrap(facts, width: inner.width - 2) { lines.append((line, Theme.price)) }
        lines.append((product.id, Theme.secondary))
        let width = inner.width - 2
        for line in TextLayout.wrap(product.description, width: width) { lines.append((line, .plain)) }
        if let subscription = product.subscription {
            lines.append((s("Renews every {}", Format.period(subscription.period, s.language)), .plain))
            lines.append((s("Group {}, level {}", subscription.groupDisplayName, String(subscription.groupLevel)), Theme.secondary))
            if subscription.introductoryOffer != nil || !subscription.promotionalOffers.isEmpty {
                lines.append((s("Offers") + ":", Theme.heading))
            }
            func offer(_ text: String, _ style: CellStyle) {
                for (i, line) in TextLayout.wrap(text, width: width - 2).enumerated() { lines.append(((i == 0 ? "• " : "  ") + line, style)) }
            }
            if let intro = subscription.introductoryOffer {
                if state.isEligibleForIntroOffer(product) {
                    offer(describe(intro, s), Theme.owned)
                } else {
                    offer(describe(intro, s) + " — " + s("not eligible (subscribed in this group before)"), Theme.secondary)
                }
            }
            for promotional in subscription.promotionalOffers { offer(describe(promotional, s), Theme.owned) }
        }
        if product.hasDownloads { lines.append(("⇩ " + s("Has downloadable content"), Theme.busy)) }
        for (i, (text, style)) in lines.prefix(inner.height).enumerated() {
            screen.put(text, x: inner.x + 1, y: inner.y + i, style: style, maxWidth: width)
        }
    }

    static func describe(_ offer: SubscriptionOffer, _ s: Strings) -> String {
        let kind = offer.kind == .introductory ? s("Introductory offer") : s("Promotional offer")
        let length = Format.period(
            SubscriptionPeriod(value: offer.period.value * offer.periodCount, unit: offer.period.unit), s.language)
        let what: String = switch offer.paymentMode {
        case .freeTrial: s("Free trial")
        case .payUpFront: "\(s("Pay up front")) \(offer.displayPrice)"
        default: "\(s("Pay as you go")) \(offer.displayPrice)/\(Format.period(offer.period, s.language))"
        }
        return "\(kind): " + s("{} for {}", what, length)
    }
}
