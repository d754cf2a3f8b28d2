extension RandomAccessCollection where Index == Int {
    /// How many elements at the start `isBelow` holds for, found by binary search: the
    /// collection is sorted so that every such element comes before every other.
    func partitionPoint(_ isBelow: (Element) -> Bool) -> Int {
        var low = startIndex
        var high = endIndex
        while low < high {
            let middle = (low + high) / 2
            if isBelow(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low - startIndex
    }
}
