import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Catches some signals from the moment it is made (their default action, ending the process,
/// is turned off) and hands the first one to whoever awaits `next()`, through Dispatch signal
/// sources, so no C signal handler runs.
///
/// Make it before telling anyone the process is ready (a server printing its URL): a signal
/// sent after that is never the default action.
public final class SignalWaiter: @unchecked Sendable {
    // Touched only on `queue`.
    private let queue = DispatchQueue(label: "storefront.signal-waiter")
    private var sources: [any DispatchSourceSignal] = []
    private var caught: CurrentProcess.Signal?
    private var waiter: CheckedContinuation<CurrentProcess.Signal, Never>?

    /// Starts catching `signals`; returns once every source is registered with the kernel.
    public init(_ signals: [CurrentProcess.Signal]) {
        // A source is armed asynchronously after `resume()`; a signal sent before that, with
        // its action already ignored, would be lost, so wait for each one's registration.
        let armed = DispatchGroup()
        queue.sync {
            for kind in signals {
                signal(kind.number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: kind.number, queue: queue)
                source.setEventHandler { [unowned self] in self.deliver(kind) }
                armed.enter()
                source.setRegistrationHandler { armed.leave() }
                sources.append(source)
                source.resume()
            }
        }
        armed.wait()
    }

    /// The first signal caught (at once when one already was).
    public func next() async -> CurrentProcess.Signal {
        await withCheckedContinuation { continuation in
            queue.async {
                if let caught = self.caught {
                    continuation.resume(returning: caught)
                } else {
                    self.waiter = continuation
                }
            }
        }
    }

    private func deliver(_ kind: CurrentProcess.Signal) {
        guard caught == nil else { return }
        caught = kind
        waiter?.resume(returning: kind)
        waiter = nil
    }

    deinit {
        for source in sources { source.cancel() }
    }
}

extension CurrentProcess {
    /// Makes a write to a closed pipe or socket fail with `EPIPE` instead of ending the
    /// process (a server whose log reader went away, a client that hung up).
    public static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}
