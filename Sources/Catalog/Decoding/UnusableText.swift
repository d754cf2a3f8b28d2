/// Files that are no JSON at all, told apart from broken JSON so the message says what the file is.
enum UnusableText {
    /// Why `bytes` cannot be a StoreKit Configuration before any parsing, else `nil`: the file
    /// is empty (or only whitespace), or it is a property list.
    static func problem(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var start = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { start = 3 }
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        guard start < bytes.count else {
            return bytes.isEmpty
                ? "the file is empty; a StoreKit Configuration file holds the JSON that Xcode writes"
                : "the file is empty (it holds only whitespace); a StoreKit Configuration file holds the JSON that Xcode writes"
        }
        let head = bytes[start..<min(bytes.count, start + 512)]
        if head.starts(with: Array("bplist".utf8)) || contains(head, "<plist") {
            return
                "the file is a property list, not JSON; Xcode writes StoreKit Configuration files as JSON (on a Mac, 'plutil -convert json' converts it)"
        }
        if head.first == UInt8(ascii: "<") {
            return "the file is XML, not JSON; Xcode writes StoreKit Configuration files as JSON"
        }
        return nil
    }

    private static func contains(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        var index = bytes.startIndex
        while index <= bytes.endIndex - needle.count {
            if bytes[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
