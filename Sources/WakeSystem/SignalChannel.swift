import Glibc
import CLinux

/// Signals delivered as reads from a file descriptor (`signalfd`) instead of handlers, so they
/// join the one `poll()` loop and no code runs in signal context. The signals must be blocked
/// before any thread starts, which is why `ProcessStart.begin()` is the first thing `main` does.
public final class SignalChannel {
    /// Signals that steer the alarm or the terminal.
    public static let control: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGUSR1, SIGTSTP, SIGCONT, SIGWINCH]
    /// Asynchronous signals whose default action ends the process: received here instead, so
    /// the terminal and the sound are put back first. (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT,
    /// SIGTRAP and SIGSYS are raised by the faulting thread itself and cannot be blocked.)
    public static let fatal: [Int32] = [SIGQUIT, SIGUSR2, SIGALRM, SIGPROF, SIGVTALRM, SIGIO, SIGPWR,
                                        SIGXCPU, SIGXFSZ, SIGSTKFLT] + Array(wake_sigrtmin()...wake_sigrtmax())

    /// The signals this process receives: all of the above except those ignored when it started.
    /// A signal ignored by the parent stays ignored (`nohup wake 07:00 &` keeps ringing after the
    /// terminal closes; a background job in a script ignores SIGINT), as POSIX shells expect.
    nonisolated(unsafe) public private(set) static var received: [Int32] = []

    public let fd: Int32

    static func set(_ signals: [Int32]) -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for s in signals { sigaddset(&set, s) }
        return set
    }

    static func isIgnored(_ signal: Int32) -> Bool {
        var old = sigaction()
        guard sigaction(signal, nil, &old) == 0 else { return false }
        return unsafeBitCast(old.__sigaction_handler.sa_handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Chooses the received signals (`received`) and returns them as the set to block, which
    /// `ProcessStart.begin` blocks for this thread and every thread created after it.
    static func chooseReceived() -> sigset_t {
        // SIGCONT, SIGTSTP and SIGWINCH only steer the terminal: taken even if ignored.
        received = (control + fatal).filter { [SIGCONT, SIGTSTP, SIGWINCH].contains($0) || !isIgnored($0) }
        return set(received)
    }

    public init() throws(SystemCallError) {
        var set = SignalChannel.set(SignalChannel.received)
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

    /// Signals that end no wait or computation: a resized or continued terminal.
    public static let nonInterrupting: Set<Int32> = [SIGWINCH, SIGCONT]

    /// A received signal that is pending (blocked and not yet read), other than those in
    /// `ignoring`: what ends a long computation early, as `BoundedCall` ends a wait. It is left
    /// pending, so the caller that gives up can still report or act on it.
    public static func pending(ignoring: Set<Int32> = nonInterrupting) -> Int32? {
        var set = sigset_t()
        guard sigpending(&set) == 0 else { return nil }
        return received.first { sigismember(&set, $0) == 1 && !ignoring.contains($0) }
    }

    /// What a signal asks of a command that only waits and prints (`wake next --follow`).
    public enum Request: Equatable, Sendable {
        /// SIGINT, SIGTERM, SIGHUP: the reader is done; end with success.
        case finish
        /// Ctrl-Z: stop as the default action would.
        case stop
        /// SIGCONT, SIGWINCH: nothing to do but look again (time passed while stopped).
        case lookAgain
        /// Any other received signal: end as its default action would say (128 + its number).
        case end
    }

    public static func request(of signal: Int32) -> Request {
        switch signal {
        case SIGINT, SIGTERM, SIGHUP: return .finish
        case SIGTSTP: return .stop
        case SIGCONT, SIGWINCH: return .lookAgain
        default: return .end
        }
    }

    /// Stops this process as the default SIGTSTP action would (used after restoring the terminal).
    public static func stopSelf() {
        kill(getpid(), SIGSTOP)
    }

    /// The signal's name as shells print it (SIGTERM, SIGRTMIN+3).
    public static func name(of signal: Int32) -> String {
        if signal >= wake_sigrtmin() && signal <= wake_sigrtmax() { return signal == wake_sigrtmin() ? "SIGRTMIN" : "SIGRTMIN+\(signal - wake_sigrtmin())" }
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGTERM: "SIGTERM", SIGUSR1: "SIGUSR1",
            SIGUSR2: "SIGUSR2", SIGALRM: "SIGALRM", SIGPROF: "SIGPROF", SIGVTALRM: "SIGVTALRM", SIGIO: "SIGIO",
            SIGPWR: "SIGPWR", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGSTKFLT: "SIGSTKFLT", SIGTSTP: "SIGTSTP",
            SIGCONT: "SIGCONT", SIGWINCH: "SIGWINCH",
        ]
        return names[signal] ?? "signal \(signal)"
    }
}
