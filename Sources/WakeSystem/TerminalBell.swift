import Glibc

/// The last resort: BEL on the terminal. Its descriptor is opened when the alarm is set (a
/// ring must not need a descriptor that may be gone by then), non-blocking, so a terminal
/// paused with Ctrl-S cannot freeze the loop. Its calls go through the funnel, so a test can
/// make the bell fail and see the ring say so.
public final class TerminalBell {
    private let fd: Int32

    /// The controlling terminal, else stderr when it is one; nil without a terminal.
    public init?() {
        if let tty = try? syscall("open(/dev/tty)", { open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK) }) {
            fd = tty
        } else if isatty(STDERR_FILENO) == 1, let copy = try? syscall("fcntl(F_DUPFD_CLOEXEC)", { fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3) }) {
            fd = copy
        } else {
            return nil
        }
    }

    /// A bell on `fd`, which it owns from now on (tests: a pipe).
    init(owning fd: Int32) { self.fd = fd }

    deinit { close(fd) }

    /// One BEL; true when it was written, or when the terminal is paused (EAGAIN: it is queued
    /// behind the user's Ctrl-S, and a paused terminal must not count as no terminal).
    @discardableResult
    public func ring() -> Bool {
        var bel: UInt8 = 7
        do {
            return try syscall("write(bell)") { write(fd, &bel, 1) } == 1
        } catch {
            return error.errno == .resourceTemporarilyUnavailable
        }
    }
}
