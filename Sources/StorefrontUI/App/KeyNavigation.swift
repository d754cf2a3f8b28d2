/// How the windows' keys move a selection or a scroll position, said once for every window.
enum KeyNavigation {
    /// A list selection moved by a key (nil when the key does not move it), kept in 0..<count.
    static func moved(_ selected: Int, by key: Key, count: Int, page: Int) -> Int? {
        let next: Int
        switch key {
        case .up, .character("k"): next = selected - 1
        case .down, .character("j"): next = selected + 1
        case .pageUp, .control("b"): next = selected - max(1, page)
        case .pageDown, .control("f"): next = selected + max(1, page)
        case .home: next = 0
        case .end, .character("G"): next = count - 1
        default: return nil
        }
        return max(0, min(max(0, count - 1), next))
    }

    /// A scroll position moved by a key (nil when the key does not scroll), kept in 0…limit.
    static func scrolled(_ scroll: Int, by key: Key, limit: Int, page: Int) -> Int? {
        let next: Int
        switch key {
        case .up, .character("k"): next = scroll - 1
        case .down, .character("j"): next = scroll + 1
        case .pageUp, .control("b"): next = scroll - page
        case .pageDown, .control("f"), .character(" "): next = scroll + page
        case .home, .character("g"): next = 0
        case .end, .character("G"): next = limit
        default: return nil
        }
        return max(0, min(limit, next))
    }
}
