import CLinux
import Glibc

/// Another process's end as a descriptor that turns readable when it exits (a pidfd): how the
/// daemon's D-Bus API learns that a one-off it shows was killed without a word (SIGKILL leaves
/// its control socket behind, and nothing touches the directory it watches).
public final class ProcessExitWatch {
    public let pid: Int32
    public private(set) var fd: Int32

    /// nil when the process is gone already, or the kernel has no pidfds (then only the next
    /// change in the directory tells).
    public init?(pid: Int32) {
        let fd = wake_pidfd_open(pid)
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        self.pid = pid
        self.fd = fd
    }

    public func close() {
        if fd >= 0 { _ = Glibc.close(fd) }
        fd = -1
    }

    deinit { close() }
}
