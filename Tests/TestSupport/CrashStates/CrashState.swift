/// One state a power loss could leave: the operations issued before the crash, which of them
/// reached the disk, and a write that reached it only in part.
public struct CrashState: Hashable, Sendable {
    /// Operations `0..<crashPoint` were issued before the power went.
    public let crashPoint: Int
    /// The issued operations that reached the disk, ascending.
    public let persisted: [Int]
    /// A write that reached the disk in part (torn, or as zeros), if any; it is not in `persisted`.
    public let partial: Partial?

    /// A write that reached the disk in part.
    public struct Partial: Hashable, Sendable {
        /// The write's index in the recording.
        public let index: Int
        /// How much of it.
        public let part: DiskImage.WritePart
    }

    /// Creates a state.
    public init(crashPoint: Int, persisted: [Int], partial: Partial? = nil) {
        self.crashPoint = crashPoint
        self.persisted = persisted
        self.partial = partial
    }

    /// The tree this state leaves: the recording's initial tree with the persisted
    /// operations (and the partial write) applied in their order.
    public func image(of recording: Recording) -> DiskImage {
        var image = recording.initial
        var next = persisted.makeIterator()
        var upcoming = next.next()
        for index in 0..<crashPoint {
            if index == upcoming {
                image.apply(recording.operations[index])
                upcoming = next.next()
            } else if let partial, partial.index == index {
                image.apply(recording.operations[index], part: partial.part)
            }
        }
        return image
    }

    /// What was lost, for a person: the crash point, the operations issued but not persisted
    /// (syncs and marks left out), and the partial write.
    public func summary(of recording: Recording) -> String {
        let kept = Set(persisted)
        let lost = (0..<crashPoint).filter { index in
            guard !kept.contains(index), partial?.index != index else { return false }
            switch recording.operations[index].kind {
            case .content, .namespace: return true
            default: return false
            }
        }
        var text = "crash after \(crashPoint) of \(recording.operations.count) operations"
        if crashPoint > 0 { text += " (last: #\(crashPoint - 1) \(recording.operations[crashPoint - 1]))" }
        if lost.isEmpty {
            text += "; nothing issued was lost"
        } else {
            text += "; lost: " + lost.prefix(6).map { "#\($0) \(recording.operations[$0])" }.joined(separator: ", ")
            if lost.count > 6 { text += " and \(lost.count - 6) more" }
        }
        if let partial {
            switch partial.part {
            case .prefix(let count): text += "; #\(partial.index) torn after \(count) bytes"
            case .zeros: text += "; #\(partial.index) reached the disk as zeros"
            case .whole: break
            }
        }
        return text
    }
}
