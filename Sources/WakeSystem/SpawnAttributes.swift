import Glibc

/// The attributes every child wake starts gets: no signal blocked and every signal at its
/// default. wake blocks all signals for its signalfd, and a child would inherit that mask (a
/// helper or `systemctl` that never dies of SIGTERM).
enum SpawnAttributes {
    static func withDefaultSignals<T>(_ body: (inout posix_spawnattr_t) -> T) -> T {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        return body(&attributes)
    }
}
