import WakeSystem

/// One `poll()` loop. Each source registers its descriptor, the events it wants and a handler;
/// hooks run before every poll (sd-bus must process what it queued during a blocking call, and
/// may change the events it wants). Nothing here ever blocks but the poll itself.
public final class Reactor {
    public struct Registration: Hashable, Sendable {
        fileprivate let id: Int
    }

    private struct Source {
        var fd: Int32
        var events: Int16
        var handler: (Int16) -> Void
    }

    private var sources: [Int: Source] = [:]
    private var order: [Int] = []
    private var hooks: [Int: () -> Void] = [:]
    private var nextID = 0

    public init() {}

    /// Watches `fd` for `events`; `handler` gets the returned events (POLLHUP and POLLERR included).
    @discardableResult
    public func register(fd: Int32, events: Int16 = Poll.readable, _ handler: @escaping (Int16) -> Void) -> Registration {
        nextID += 1
        sources[nextID] = Source(fd: fd, events: events, handler: handler)
        order.append(nextID)
        return Registration(id: nextID)
    }

    /// Changes what a source waits for; 0 keeps it registered but asleep.
    public func update(_ r: Registration, events: Int16) { sources[r.id]?.events = events }

    public func unregister(_ r: Registration) {
        sources[r.id] = nil
        hooks[r.id] = nil
        order.removeAll { $0 == r.id }
    }

    /// Runs `hook` before every poll.
    @discardableResult
    public func addHook(_ hook: @escaping () -> Void) -> Registration {
        nextID += 1
        hooks[nextID] = hook
        return Registration(id: nextID)
    }

    var registeredCount: Int { sources.count }

    /// One turn: the hooks, one poll (at most `timeout`; nil waits for a source), the handlers of
    /// every ready source in registration order. A source unregistered by an earlier handler of
    /// the same turn is not called.
    /// `quiet`: asked after the hooks (which may have found work for it), the timeout when
    /// `timeout` is nil. Returns false when the wait timed out with nothing ready.
    @discardableResult
    public func runOnce(timeout: Duration? = nil, quiet: (() -> Duration?)? = nil) throws(SystemCallError) -> Bool {
        for id in hooks.keys.sorted() { hooks[id]?() }
        let watched = order.compactMap { id in sources[id].map { (id, $0) } }.filter { $0.1.events != 0 }
        let ids = watched.map(\.0)
        var fds = watched.map { Poll.Descriptor(fd: $0.1.fd, events: $0.1.events, revents: 0) }
        let ready = try Poll.wait(&fds, timeout: timeout ?? quiet?())
        guard ready > 0 else { return false }
        for (i, id) in ids.enumerated() where fds[i].revents != 0 {
            guard let source = sources[id], source.fd == fds[i].fd else { continue }
            source.handler(fds[i].revents)
        }
        return true
    }
}
