/// Where two fields of a DER certificate lie, found by walking its elements without OpenSSL:
/// the subject public key info and the extensions. OpenSSL 3.0 decodes a certificate's public
/// key as it parses the certificate (a decoder context of its own, about 2 M instructions), which
/// a chain that only signs need not pay to learn its signer's OCSP URL or that its key is the
/// signer's (Docs/decisions/0150-the-signer-read-without-openssl-decoders.md).
struct CertificateFields {
    /// The `SubjectPublicKeyInfo` element, its tag and length included.
    let publicKeyInfo: Range<Int>
    /// The `Extensions` SEQUENCE inside the `[3]` element, its tag and length included; nil when
    /// the certificate has none.
    let extensions: Range<Int>?

    /// The fields of `der`, a certificate's DER; nil when it is not shaped as one.
    init?(_ der: UnsafeBufferPointer<UInt8>) {
        var outer = Elements(der, 0..<der.count)
        guard let certificate = outer.next(), certificate.element.tag == 0x30 else { return nil }
        var signed = Elements(der, certificate.element.contents)
        guard let tbs = signed.next(), tbs.element.tag == 0x30 else { return nil }
        var fields = Elements(der, tbs.element.contents)
        // [0] version (absent in version 1), serial number, signature algorithm, issuer,
        // validity, subject, then the subject public key info.
        var field = fields.next()
        if field?.element.tag == 0xA0 { field = fields.next() }
        for tag: UInt8 in [0x02, 0x30, 0x30, 0x30, 0x30] {
            guard field?.element.tag == tag else { return nil }
            field = fields.next()
        }
        guard let info = field, info.element.tag == 0x30 else { return nil }
        publicKeyInfo = info.whole
        // [1] and [2], the unique identifiers, may come before [3], the extensions.
        var found: Range<Int>? = nil
        while let next = fields.next() {
            guard next.element.tag == 0xA3 else { continue }
            var inside = Elements(der, next.element.contents)
            guard let list = inside.next(), list.element.tag == 0x30, inside.reader.atEnd else { return nil }
            found = list.whole
        }
        extensions = found
    }

    /// The elements of a range, each with where it starts (its tag).
    private struct Elements {
        var reader: DERStructure.Reader

        init(_ der: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
            reader = DERStructure.Reader(bytes: der, start: range.lowerBound, end: range.upperBound)
        }

        mutating func next() -> (element: DERStructure.Element, whole: Range<Int>)? {
            let start = reader.start
            guard let element = reader.next() else { return nil }
            return (element, start..<element.contents.upperBound)
        }
    }
}
