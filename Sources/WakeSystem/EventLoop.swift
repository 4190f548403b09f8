import Glibc

/// One `poll()` over every descriptor the alarm listens to. Sources are plain descriptors with
/// events; the caller dispatches on which ones are ready.
public struct EventLoop {
    public struct Ready {
        public var fd: Int32
        public var revents: Int16
    }

    public init() {}

    /// Waits until at least one descriptor is ready. `timeout` in ms, -1 for none:
    /// wake never needs one, every deadline is a timerfd.
    public func wait(_ fds: [(fd: Int32, events: Int16)], timeoutMs: Int32 = -1) throws(SystemCallError) -> [Ready] {
        var pfds = fds.map { pollfd(fd: $0.fd, events: $0.events, revents: 0) }
        let n = pfds.count
        try syscall("poll") { poll(&pfds, nfds_t(n), timeoutMs) }
        return pfds.filter { $0.revents != 0 }.map { Ready(fd: $0.fd, revents: $0.revents) }
    }
}
