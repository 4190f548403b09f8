import Synchronization

/// What worker threads hand back to the event loop: kept under a lock and announced on an
/// eventfd the loop polls (`signal.fd`). Once closed nothing more is taken, so a worker the end
/// did not wait for posts into nothing, never into a descriptor that may be another file's by then.
public final class PostBox<Item: Sendable>: Sendable {
    public let signal: EventSignal
    private let state = Mutex<(closed: Bool, posted: [Item])>((false, []))

    public init() throws(SystemCallError) { signal = try EventSignal() }

    /// On a worker's thread.
    public func post(_ item: Item) {
        state.withLock { s in
            guard !s.closed else { return }
            s.posted.append(item)
            _ = signal.signal()
        }
    }

    /// On the loop: everything posted so far, oldest first.
    public func take() -> [Item] {
        signal.drain()
        return state.withLock { s in
            defer { s.posted = [] }
            return s.posted
        }
    }

    public func close() {
        state.withLock { $0.closed = true }
        signal.close()
    }
}
