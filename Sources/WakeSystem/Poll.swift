import Glibc
import WakeCore

/// poll(2) through the funnel (so the fault hook reaches it, and EINTR is retried in one place),
/// with its timeout as a Duration rounded once, here.
public enum Poll {
    /// A descriptor, the events wanted (`events`) and those that came (`revents`).
    public typealias Descriptor = pollfd

    public static let readable = Int16(POLLIN)
    public static let writable = Int16(POLLOUT)
    public static let error = Int16(POLLERR)
    public static let hangUp = Int16(POLLHUP)

    /// Waits until one of the first `count` descriptors of `fds` (all of them by default) is
    /// ready, or `timeout` has passed (nil: no limit). Returns how many are ready, 0 at the
    /// timeout; each descriptor's `revents` says what came.
    @discardableResult
    public static func wait(_ fds: inout [Descriptor], count: Int? = nil, timeout: Duration?) throws(SystemCallError) -> Int {
        let n = max(0, min(count ?? fds.count, fds.count))
        let ms = milliseconds(timeout)
        return Int(try syscall("poll") { fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t(n), ms) } })
    }

    /// Waits for `fd` alone to become readable within `timeout`; true when it did.
    public static func waitReadable(_ fd: Int32, within timeout: Duration?) throws(SystemCallError) -> Bool {
        var one = [Descriptor(fd: fd, events: readable, revents: 0)]
        return try wait(&one, timeout: timeout) > 0
    }

    /// poll()'s timeout for `timeout`: whole milliseconds rounded up, so a wait for a deadline
    /// never wakes just before it only to wait again; nil is -1 (no limit), a span of zero or
    /// less is 0, and one beyond 24 days is as long as poll() takes.
    public static func milliseconds(_ timeout: Duration?) -> Int32 {
        guard let timeout else { return -1 }
        let ns = timeout.nanoseconds
        guard ns > 0 else { return 0 }
        return Int32(clamping: ns / 1_000_000 + (ns % 1_000_000 == 0 ? 0 : 1))
    }
}
