import CLinux
import CALSA
import Glibc

/// The one place wake changes process-wide state: the signal mask and dispositions, the
/// environment, stdio's stderr, the descriptor limit, gettext's domain directory. Every thread (the output workers, bounded
/// calls, libraries' own) and every parallel test shares that state, so it is changed here only,
/// by the executable's start-up before any thread exists, never around a call
/// (`ProcessStateTests` fails on such a call anywhere else under Sources/ or Tests/). The other
/// files say what to set (`SoundServerEnvironment.assignments`, `LibraryNoise.assignments`,
/// `SignalChannel.chooseReceived`); this applies it.
public enum ProcessStart {
    /// A variable to set (`value`) or unset (nil); `overwrite` false keeps a value already there.
    public struct Assignment: Equatable, Sendable {
        public var name: String
        public var value: String?
        public var overwrite: Bool

        public init(_ name: String, _ value: String?, overwrite: Bool = true) {
            self.name = name
            self.value = value
            self.overwrite = overwrite
        }
    }

    /// First thing in `main`. Signals are blocked before anything else, so no thread ever exists
    /// with them unblocked (they arrive through the signalfd in the event loop, `SignalChannel`),
    /// and SIGPIPE is ignored: a closed stdout must never kill an alarm that still has to ring.
    /// A closed stdin, stdout or stderr would hand its number to the next open() (the built-in
    /// sound's memfd could become "stdout"), so the gaps are filled. From cron, ssh or a unit
    /// without XDG_RUNTIME_DIR, the user's sound server is found where logind put it, and wake's
    /// stream is named on it. wake's translations are found where the binary's `share/locale` is
    /// (`GettextCatalogue`), in UTF-8 whatever the locale's character set; nothing is read yet.
    public static func begin() {
        var set = SignalChannel.chooseReceived()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)
        StandardDescriptors.reopenClosed()
        apply(SoundServerEnvironment.assignments())
        if let directory = GettextCatalogue.directory() {
            bindtextdomain(GettextCatalogue.domain, directory)
            bind_textdomain_codeset(GettextCatalogue.domain, "UTF-8")
        }
    }

    /// After argument parsing (swift-argument-parser prints its help and usage errors through
    /// stdio), before the command starts any thread: other libraries' lines kept out of wake's
    /// own on stderr (`LibraryNoise`). Once per process.
    public static func silenceLibraries() { _ = silenced }

    private static let silenced: Void = {
        apply(LibraryNoise.assignments)
        _ = wake_divert_stdio_stderr(-1)
    }()

    /// Takes on another environment's values of `DaemonEnvironment.names` (`wake doctor` asks
    /// what the daemon would ask): a variable it lacks is unset, as the daemon lacks it.
    public static func adopt(_ environment: [String: String]) {
        apply(DaemonEnvironment.names.map { Assignment($0, environment[$0]) })
    }

    /// The daemon's: the soft descriptor limit raised to the hard one, as systemd advises for
    /// programs that need many descriptors (a user service starts with a soft limit of 1024).
    public static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        var raised = limit
        raised.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised)
    }

    static func apply(_ assignments: [Assignment]) {
        for a in assignments {
            if let value = a.value { setenv(a.name, value, a.overwrite ? 1 : 0) } else { unsetenv(a.name) }
        }
    }
}
