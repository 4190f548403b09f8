import Glibc

/// The process's limit on open descriptors (`RLIMIT_NOFILE`).
public enum DescriptorLimit {
    // `ProcessStart.raiseDescriptorLimit` raises it for the daemon.

    /// Whether the process has no descriptor left: a library that then fails to open its own
    /// files reports a missing file (ALSA says "no such device"), which would mislead.
    public static var exhausted: Bool {
        let fd = dup(STDERR_FILENO)
        if fd >= 0 { close(fd); return false }
        return errno == EMFILE || errno == ENFILE
    }

    /// The words for a failure caused by running out of descriptors.
    public static let exhaustedMessage = "the process has no file descriptor left (too many open files); raise 'ulimit -n' or LimitNOFILE= in the unit"
}
