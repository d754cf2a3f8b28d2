import Foundation

/// Apple's rules for what a developer uploads for retention messaging, each limit said once:
/// image formats and sizes, text lengths, locales and realtime URLs. Pure: callers pass what
/// they check. Lengths count Unicode scalars, as Apple's libraries count a string's length.
public enum RetentionRules {
    /// The most images an app may have (Apple's `Upload Image`).
    public static let maximumImages = 2000
    /// The most messages an app may have (the store's choice, equal to the image limit).
    public static let maximumMessages = 2000
    /// The header's most characters.
    public static let headerLimit = 66
    /// The body's most characters.
    public static let bodyLimit = 144
    /// An alternative text's most characters.
    public static let altTextLimit = 150
    /// A bullet point text's most characters.
    public static let bulletPointTextLimit = 66
    /// The most bullet points of a message.
    public static let maximumBulletPoints = 5
    /// A realtime URL's most characters.
    public static let realtimeURLLimit = 256
    /// The largest image file the store takes, in bytes (the store's choice: a 3840×2160
    /// truecolour PNG that compresses nothing is about 25 MB; 32 MiB holds it).
    public static let maximumImageBytes = 32 << 20
    /// A full-size image's width: exactly 3840 pixels.
    public static let fullSizeWidth = 3840
    /// A full-size image's heights: 160 to 2160 pixels.
    public static let fullSizeHeights = 160...2160
    /// A bullet-point image's side: square, 64 to 1024 pixels (the store's choice).
    public static let bulletPointSides = 64...1024

    /// Checks an uploaded image: a PNG Apple accepts, of `size`'s dimensions.
    /// - Returns: the image's header.
    /// - Throws: `.invalidImage` naming what is wrong.
    public static func checkImage(_ bytes: Data, size: RetentionImage.Size) throws(RetentionMessagingError) -> PNGImage
    {
        guard bytes.count <= maximumImageBytes else {
            throw .invalidImage("it has \(bytes.count) bytes; the store takes at most \(maximumImageBytes)")
        }
        guard !bytes.isEmpty else { throw .invalidImage("the request has no image") }
        let png = try PNGImage(bytes)
        switch size {
        case .fullSize:
            guard png.width == fullSizeWidth, fullSizeHeights.contains(png.height) else {
                throw .invalidImage(
                    "a FULL_SIZE image is \(fullSizeWidth) pixels wide and \(fullSizeHeights.lowerBound) to "
                        + "\(fullSizeHeights.upperBound) high; this one is \(png.width)×\(png.height)")
            }
        case .bulletPoint:
            guard png.width == png.height, bulletPointSides.contains(png.width) else {
                throw .invalidImage(
                    "a BULLET_POINT image is square, \(bulletPointSides.lowerBound) to \(bulletPointSides.upperBound) "
                        + "pixels a side; this one is \(png.width)×\(png.height)")
            }
        }
        return png
    }

    /// Checks a message's text and structure (not its images' existence or sizes).
    /// - Throws: the first of Apple's errors it meets, in the order of the request's members.
    public static func checkContent(_ content: RetentionMessage.Content) throws(RetentionMessagingError) {
        let header = content.header.unicodeScalars.count
        guard header <= headerLimit else { throw .headerTooLong(header) }
        let body = content.body.unicodeScalars.count
        guard body <= bodyLimit else { throw .bodyTooLong(body) }
        if let image = content.image {
            let alt = image.altText.unicodeScalars.count
            guard alt <= altTextLimit else { throw .altTextTooLong(alt) }
        }
        if let raw = content.rawHeaderPosition, RetentionMessage.HeaderPosition(rawValue: raw) == nil {
            throw .missingField("headerPosition ('\(raw)' is neither ABOVE_BODY nor ABOVE_IMAGE)")
        }
        if content.headerPosition == .aboveImage, content.image == nil { throw .aboveImageRequiresImage }
        guard content.bulletPoints.count <= maximumBulletPoints else {
            throw .tooManyBulletPoints(content.bulletPoints.count)
        }
        for point in content.bulletPoints {
            let text = point.text.unicodeScalars.count
            guard text <= bulletPointTextLimit else { throw .bulletPointTextTooLong(text) }
            let alt = point.altText.unicodeScalars.count
            guard alt <= altTextLimit else { throw .altTextTooLong(alt) }
        }
    }

    /// Whether `text` is a locale as Apple writes them: a language of two or three lowercase
    /// letters, then optionally a script (`Hant`) and a region (`US`, `419`), joined by `-`
    /// (`en-US`, `zh-Hant-TW`, `es-419`, `fr`). An underscore is not Apple's separator.
    public static func isLocale(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), let language = parts.first,
            (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLowercase })
        else { return false }
        var rest = parts.dropFirst()
        if let script = rest.first, script.count == 4 {
            guard script.first!.isUppercase, script.allSatisfy({ $0.isASCII && $0.isLetter }),
                script.dropFirst().allSatisfy(\.isLowercase)
            else { return false }
            rest = rest.dropFirst()
        }
        guard rest.count <= 1 else { return false }
        guard let region = rest.first else { return true }
        let letters = region.count == 2 && region.allSatisfy { $0.isASCII && $0.isUppercase }
        let digits = region.count == 3 && region.allSatisfy { $0.isASCII && $0.isNumber }
        return letters || digits
    }

    /// Checks a realtime URL: Apple's `https://` and 256 characters, with a host; plain `http://`
    /// is taken only for a loopback host (127.0.0.1, ::1, localhost), where a developer's test
    /// server listens (Docs/decisions/0112-realtime-url-on-loopback.md).
    /// - Throws: `.invalidRealtimeURL` saying what is wrong.
    public static func checkRealtimeURL(_ text: String) throws(RetentionMessagingError) {
        let count = text.unicodeScalars.count
        guard count <= realtimeURLLimit else {
            throw .invalidRealtimeURL("it has \(count) characters; at most \(realtimeURLLimit) are allowed")
        }
        guard !text.contains(where: { $0.isWhitespace }), let components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), let host = components.host, !host.isEmpty,
            components.user == nil, components.fragment == nil
        else { throw .invalidRealtimeURL("'\(text)' is not a URL with a host") }
        let loopback = ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased())
        guard scheme == "https" || (scheme == "http" && loopback) else {
            throw .invalidRealtimeURL(
                "'\(text)' does not begin with https:// (http:// is taken for a loopback host only)")
        }
    }
}
