import Glibc
import CLinux

/// Signals delivered as reads from a file descriptor (`signalfd`) instead of handlers, so they
/// join the one `poll()` loop and no code runs in signal context. The signals must be blocked
/// before any thread starts, which is why `blockControlSignals()` is the first thing `main` does.
public final class SignalChannel {
    public static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGTSTP, SIGCONT, SIGWINCH]

    public let fd: Int32

    static func set(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        return set
    }

    /// Blocks the handled signals for this thread and every thread created after it.
    /// SIGPIPE is ignored: a closed stdout must never kill an alarm that still has to ring.
    public static func blockControlSignals() {
        var set = set(handled)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)
    }

    public init() throws(SystemCallError) {
        var set = SignalChannel.set(SignalChannel.handled)
        fd = try syscall("signalfd") { signalfd(-1, &set, Int32(SFD_NONBLOCK | SFD_CLOEXEC)) }
    }

    deinit { close(fd) }

    /// Every pending signal, oldest first.
    public func drain() -> [Int32] {
        var out: [Int32] = []
        var info = signalfd_siginfo()
        while read(fd, &info, MemoryLayout<signalfd_siginfo>.size) == MemoryLayout<signalfd_siginfo>.size {
            out.append(Int32(info.ssi_signo))
        }
        return out
    }

    /// Stops this process as the default SIGTSTP action would (used after restoring the terminal).
    public static func stopSelf() {
        kill(getpid(), SIGSTOP)
    }
}
