import Glibc

/// The attributes every child wake starts gets: no signal blocked and every signal at its
/// default. wake blocks all signals for its signalfd, and a child would inherit that mask (a
/// helper or `systemctl` that never dies of SIGTERM).
enum SpawnAttributes {
    /// `newProcessGroup`: the child leads a group of its own (a hook, killed with what it started).
    static func withDefaultSignals<T>(newProcessGroup: Bool = false, _ body: (inout posix_spawnattr_t) -> T) -> T {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if newProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        return body(&attributes)
    }
}
