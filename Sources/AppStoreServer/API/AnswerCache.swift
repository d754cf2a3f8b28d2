import Synchronization

/// The answers to requests that only read and whose answer follows from the store's state
/// alone (Get Transaction Info, the histories, Look Up Order ID, Get Refund History), kept
/// for the state they were computed from (`StoreSnapshot.publication`): while no process
/// writes the journal, the same request gets the same bytes without routing into the state,
/// signing or JSON; the first answer for a newer state drops them all. Callable from any
/// thread (one lock, held only to look up or insert).
final class AnswerCache: Sendable {
    /// What identifies a request's answer within one state: its path and query.
    struct Key: Hashable, Sendable {
        let path: String
        let query: [HTTPRequest.QueryItem]
    }

    private struct Kept: Sendable {
        var publication: UInt64 = 0
        var answers: [Key: HTTPResponse] = [:]
        var bytes = 0
    }

    /// Bytes of bodies kept at most; past it (or `countLimit` answers) the cache starts over.
    static let byteLimit = 64 << 20
    static let countLimit = 20_000

    private let kept = Mutex(Kept())

    /// The answer kept for `key` under `publication`, if any.
    func answer(for key: Key, publication: UInt64) -> HTTPResponse? {
        kept.withLock { kept in kept.publication == publication ? kept.answers[key] : nil }
    }

    /// Keeps `response` for `key` under `publication`; one for an older state than the
    /// kept ones is dropped, one for a newer state replaces them all.
    func keep(_ response: HTTPResponse, for key: Key, publication: UInt64) {
        kept.withLock { kept in
            guard publication >= kept.publication else { return }
            if publication > kept.publication || kept.bytes + response.body.count > Self.byteLimit
                || kept.answers.count >= Self.countLimit
            {
                kept = Kept(publication: publication)
            }
            kept.answers[key] = response
            kept.bytes += response.body.count
        }
    }
}
