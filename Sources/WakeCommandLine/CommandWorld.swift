import WakeCore
import WakeRuntime
import WakeSystem

/// What a command reaches outside itself: where its lines go, the config file, the standing
/// alarms' files and clock, the one-off's clock and zone, the process start-up and the daemon's
/// environment for `wake doctor`. `standard` is the user's; the in-process tests hand in their
/// own (captured lines, a temporary directory, a fixed "now" and zone, no change to the process).
public struct CommandWorld {
    /// The console a command writes through, for its `quiet` and whether stdout carries the JSON
    /// event stream (`--events -`: the human lines then go to stderr).
    public var console: (_ quiet: Bool, _ stdoutIsEventStream: Bool) -> Console
    /// config.toml; nil for none.
    public var configPath: String?
    /// The standing alarms' files, clock, zone, lock and control directory; nil for the user's,
    /// made only by a command that needs them (a broken store must not stop `wake stop`).
    public var standing: StandingContext?
    /// The one-off's clock and zone (the machine's when nil).
    public var clock: () -> ClockReading
    public var zone: TimeZoneRules?
    /// A command's start once parsed (`ProcessStart.forCommand`: process-wide); `daemon` for
    /// `wake daemon`. It hands back the signal channel the command's body listens on.
    public var start: (_ daemon: Bool) throws(WakeFailure) -> SignalChannel
    /// `wake doctor`'s look at the daemon's environment (`Doctor.adoptDaemonEnvironment`, which
    /// takes it on: process-wide).
    public var daemonEnvironment: () -> DaemonEnvironment.Source
    /// The locale's LC_TIME formats (`LocaleClock.formats`); nil for C's, as a test's world gives.
    public var localeClock: () -> (time: String, date: String)? = LocaleClock.formats
    /// The desktop's 12/24-hour setting (`DesktopClock`); nil for none, as a test's world gives.
    public var desktopClock: () -> String? = { DesktopClock.clockFormat() }
    /// The reader's language (`GettextCatalogue.forEnvironment`); nil for English, as a test's world gives.
    public var messages: () -> MessageCatalogue? = GettextCatalogue.forEnvironment

    public init(console: @escaping (_ quiet: Bool, _ stdoutIsEventStream: Bool) -> Console, configPath: String?,
                standing: StandingContext?, clock: @escaping () -> ClockReading = SystemClock.now, zone: TimeZoneRules? = nil,
                start: @escaping (_ daemon: Bool) throws(WakeFailure) -> SignalChannel,
                daemonEnvironment: @escaping () -> DaemonEnvironment.Source) {
        self.console = console
        self.configPath = configPath
        self.standing = standing
        self.clock = clock
        self.zone = zone
        self.start = start
        self.daemonEnvironment = daemonEnvironment
    }

    /// The user's: the real descriptors, `$XDG_CONFIG_HOME/wake/config.toml`, the XDG files, the
    /// system clock and the machine's zone, and the process's own start-up.
    public static var standard: CommandWorld {
        CommandWorld(console: { Console(quiet: $0, stdoutIsEventStream: $1) }, configPath: ConfigDefaults.standardPath, standing: nil,
                     start: { daemon throws(WakeFailure) in try ProcessStart.forCommand(daemon: daemon) },
                     daemonEnvironment: { Doctor.adoptDaemonEnvironment() })
    }

    /// A console for a line said before any command runs (a usage error, help).
    var plainConsole: Console { console(false, false) }

    /// config.toml read strictly (a mistake refuses the command, 78), or `tolerant` (the daemon's:
    /// what it cannot use is set aside and said).
    func config(tolerant: Bool) throws(WakeFailure) -> ConfigDefaults {
        tolerant ? ConfigDefaults.loadTolerant(path: configPath) : try ConfigDefaults.load(path: configPath)
    }
}
