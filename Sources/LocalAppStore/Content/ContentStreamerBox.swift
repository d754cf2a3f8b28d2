import Synchronization

/// Holds the streamer a content stream creates on its first pull (settings are read then).
final class ContentStreamerBox: Sendable {
    private let storage = Mutex<ContentStreamer?>(nil)

    var value: ContentStreamer? { storage.withLock { $0 } }

    func set(_ streamer: ContentStreamer) { storage.withLock { $0 = streamer } }
}
