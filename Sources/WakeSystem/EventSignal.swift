import CLinux
import Glibc

/// An eventfd used as a doorbell: a thread rings it and the poll() of another (the event loop,
/// an output worker waiting for room) returns at once. Rings add up in the kernel's counter and
/// one `drain` takes them all, so nothing is lost between a ring and the poll that sees it.
///
/// A value with an explicit `close`: its owner decides when no thread can ring it any more (a
/// worker rings its loop's signal only under the mailbox's lock, and never once abandoned), since
/// closing a descriptor another thread still writes would let the write reach whatever file was
/// opened under that number next.
public struct EventSignal: Sendable, Hashable {
    public let fd: Int32

    /// A fresh eventfd, non-blocking and close-on-exec.
    public init() throws(SystemCallError) {
        fd = try syscall("eventfd") { eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC)) }
    }

    /// Rings. False when the ring could not be written (the waiter then wakes only at its own
    /// timeout); the callers have nothing better to do about that than their timeout.
    @discardableResult
    public func signal() -> Bool {
        (try? syscall("eventfd_write") { eventfd_write(fd, 1) }) != nil
    }

    /// Takes every ring so far, so that the next poll waits again. Draining a signal that was
    /// not rung is not an error (the counter was already zero: EAGAIN).
    public func drain() {
        var count: eventfd_t = 0
        _ = try? syscall("eventfd_read") { eventfd_read(fd, &count) }
    }

    public func close() { _ = Glibc.close(fd) }
}
