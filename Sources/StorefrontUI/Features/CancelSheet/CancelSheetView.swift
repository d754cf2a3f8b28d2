import StoreKitValues

/// The cancel sheet: which subscription, the retention message (header, image in words, body,
/// bullet points), why the endpoint's answer was not shown when it was not, and the choices.
enum CancelSheetView {
    /// The message's lines, each with its style, wrapped to `width`.
    static func messageLines(_ sheet: RetentionSheet, _ s: Strings, width: Int) -> [(String, CellStyle)] {
        guard let message = sheet.message else {
            return PageView.wrapped(s("No retention message"), Theme.secondary, width: width)
        }
        let header = PageView.wrapped(message.header, Theme.title, width: width)
        let image = message.image.map { PageView.wrapped(s("[Image: {}]", $0), Theme.secondary, width: width) } ?? []
        var lines = message.headerAboveImage ? header + image : image + header
        lines += PageView.wrapped(message.body, .plain, width: width)
        for point in message.bulletPoints {
            lines += PageView.wrapped(
                "• \(point.text) " + s("[Image: {}]", point.icon), .plain, width: width, indent: 2)
        }
        return lines
    }

    /// What a choice says.
    static func label(_ choice: RetentionChoice, _ sheet: RetentionSheet, _ state: State) -> String {
        let s = state.strings
        switch choice {
        case .takeOffer:
            let offer = sheet.offer
            return s("Take the offer {} on {}", offer?.offer.offerID ?? "", state.name(of: offer?.productID ?? ""))
        case .switchProduct: return s("Switch to {}", state.name(of: sheet.alternateProductID ?? ""))
        case .cancelAnyway: return s("Cancel anyway")
        case .keep: return s("Keep subscription")
        }
    }

    static func render(_ state: State, into screen: inout Screen) {
        let s = state.strings
        let feature = state.cancelSheet
        let width = min(screen.width - 4, 72)
        let textWidth = max(1, width - 6)
        var lines: [(String, CellStyle)] = PageView.wrapped(
            s("Cancel {}?", state.name(of: feature.productID)), Theme.heading, width: textWidth)
        lines.append(("", .plain))
        guard let sheet = feature.sheet else {
            if let failure = feature.failure {
                lines += PageView.wrapped(failure, Theme.error, width: textWidth)
            } else {
                lines.append(("\(Format.spinner(state.tickCount)) " + s("Asking the app’s server…"), Theme.busy))
            }
            let inner = SheetView.window(s("Cancel Subscription"), width: width, height: lines.count + 2, into: &screen)
            for (i, line) in lines.enumerated() {
                SheetView.line(line.0, inner, i, style: line.1, indent: 2, into: &screen)
            }
            return
        }
        lines += messageLines(sheet, s, width: textWidth)
        if let reason = sheet.fallbackReason {
            let what = sheet.shown == .defaultMessage ? s("Default message: {}", reason) : s("No message: {}", reason)
            lines += PageView.wrapped(what, Theme.secondary, width: textWidth)
        }
        lines.append(("", .plain))
        let choices = sheet.choices
        let first = lines.count
        for choice in choices { lines.append((label(choice, sheet, state), Theme.key)) }
        let footer = feature.working == nil ? "↑↓ · Enter · Esc" : "\(Format.spinner(state.tickCount))"
        let inner = SheetView.window(
            s("Cancel Subscription"), width: width, height: min(screen.height - 2, lines.count + 2), footer: footer,
            into: &screen)
        guard !inner.isEmpty else { return }
        // When the sheet is taller than the screen, the message's end gives way: the choices stay.
        let cut = max(0, lines.count - inner.height)
        for (i, line) in lines.enumerated() {
            let row = i < first ? i : i - cut
            if i < first, i >= first - cut { continue }
            SheetView.line(line.0, inner, row, style: line.1, indent: 2, into: &screen)
            if i >= first, i - first == feature.selected { SheetView.highlight(inner, row, into: &screen) }
        }
    }
}
