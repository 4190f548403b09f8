import Glibc

/// The last resort: BEL on the terminal. Its descriptor is opened when the alarm is set (a
/// ring must not need a descriptor that may be gone by then), non-blocking, so a terminal
/// paused with Ctrl-S cannot freeze the loop.
public final class TerminalBell {
    private let fd: Int32

    /// The controlling terminal, else stderr when it is one; nil without a terminal.
    public init?() {
        let tty = open("/dev/tty", O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        if tty >= 0 {
            fd = tty
        } else if isatty(STDERR_FILENO) == 1 {
            let copy = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3)
            guard copy >= 0 else { return nil }
            fd = copy
        } else {
            return nil
        }
    }

    deinit { close(fd) }

    @discardableResult
    public func ring() -> Bool {
        var bel: UInt8 = 7
        let n = write(fd, &bel, 1)
        return n == 1 || (n < 0 && errno == EAGAIN)
    }
}
