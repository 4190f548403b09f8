import Glibc

/// The process's limit on open descriptors (`RLIMIT_NOFILE`).
public enum DescriptorLimit {
    /// Raises the soft limit to the hard one, as systemd advises for programs that need many
    /// descriptors: a user service starts with a soft limit of 1024 and a hard one far above.
    /// Returns the soft limit now in force, or nil when it cannot be read.
    @discardableResult
    public static func raiseSoftToHard() -> UInt64? {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return nil }
        guard limit.rlim_cur < limit.rlim_max else { return UInt64(limit.rlim_cur) }
        var raised = limit
        raised.rlim_cur = limit.rlim_max
        guard setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 else { return UInt64(limit.rlim_cur) }
        return UInt64(raised.rlim_cur)
    }

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
