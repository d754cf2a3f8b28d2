import Foundation

/// Where a filter's words occur in shown text, as column ranges, matched as the filter
/// matches (ignoring case, diacritics and width).
enum Highlight {
    /// The column ranges of every occurrence of each word in `text`.
    static func ranges(of words: [String], in text: String) -> [Range<Int>] {
        var result: [Range<Int>] = []
        for word in words where !word.isEmpty {
            var searchStart = text.startIndex
            while searchStart < text.endIndex,
                let found = text.range(
                    of: word, options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive],
                    range: searchStart..<text.endIndex)
            {
                let start = DisplayWidth.of(text[text.startIndex..<found.lowerBound])
                let width = DisplayWidth.of(text[found])
                if width > 0 { result.append(start..<start + width) }
                searchStart =
                    found.upperBound > found.lowerBound ? found.upperBound : text.index(after: found.lowerBound)
            }
        }
        return result
    }
}
