import Glibc

/// One daemon per user: the daemon holds an exclusive `flock` on `wake/daemon.lock` in the
/// state directory for as long as it runs. The kernel drops it when the process dies, however
/// it dies, so there is never a stale "running" to clean up; others test it without waiting.
public final class DaemonLock {
    private let fd: Int32

    /// Beside the alarms file, so two daemons over one alarms file exclude each other even when
    /// each was given another `XDG_STATE_HOME` (a login shell's and the systemd user manager's).
    public static var path: String? { XDGPaths.configHome().map { $0 + "/wake/daemon.lock" } }

    /// Takes the lock, or throws when another daemon holds it (`EWOULDBLOCK`) or it cannot be made.
    public init() throws(SystemCallError) {
        guard let path = DaemonLock.path else { throw SystemCallError("open(daemon.lock)", .noSuchFileOrDirectory) }
        // Locked before `self.fd` is set: a throw after that would run deinit and close it twice.
        let fd = try syscall("open(\(path))") { open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600) }
        do {
            try syscall("flock(\(path))") { flock(fd, LOCK_EX | LOCK_NB) }
        } catch {
            close(fd)
            throw error
        }
        self.fd = fd
        // The holder's PID, for the message a second daemon gives.
        let text = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = text.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    deinit { close(fd) }

    /// Whether a daemon holds the lock now.
    public static func isHeld() -> Bool {
        guard let path else { return false }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_SH | LOCK_NB) == 0 { flock(fd, LOCK_UN); return false }
        return errno == EWOULDBLOCK
    }

    /// The PID written by the holder, if any.
    public static func holder() -> Int32? {
        guard let path else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 15) }
        guard n > 0 else { return nil }
        return Int32(String(decoding: buffer.prefix(n), as: UTF8.self).trimmingNewline())
    }
}

extension String {
    fileprivate func trimmingNewline() -> String { hasSuffix("\n") ? String(dropLast()) : self }
}
