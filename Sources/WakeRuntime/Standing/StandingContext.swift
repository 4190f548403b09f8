import WakeCore
import WakeEngine
import WakeSystem

/// What the standing-alarm commands reach outside themselves: the two files, the config file,
/// the clock and the zone, whether a daemon runs, and the running wakes to ask. `standard()` is
/// the user's; the in-process tests hand in their own (a store in a temporary directory, a
/// fixed "now"), so `wake add`, `list`, `skip`, `pause`, `resume` and `remove` run in process.
public struct StandingContext {
    public var store: AlarmStore
    public var config: () -> ConfigDefaults
    public var now: () -> Instant
    /// The local zone; nil for the machine's (read when asked, with its warning said).
    public var zone: TimeZoneRules?
    public var daemonRunning: () -> Bool
    /// Where running wakes are asked (`wake list`); nil asks none.
    public var controlDirectory: () throws(WakeFailure) -> String?

    public init(store: AlarmStore, config: @escaping () -> ConfigDefaults = { ConfigDefaults() }, now: @escaping () -> Instant,
                zone: TimeZoneRules?, daemonRunning: @escaping () -> Bool = { false },
                controlDirectory: @escaping () throws(WakeFailure) -> String? = { nil }) {
        self.store = store
        self.config = config
        self.now = now
        self.zone = zone
        self.daemonRunning = daemonRunning
        self.controlDirectory = controlDirectory
    }

    /// The user's: the XDG paths, the system clock, the machine's zone, the lock and the
    /// control directory.
    public static func standard() throws(WakeFailure) -> StandingContext {
        let store: AlarmStore
        do { store = try AlarmStore.standard() } catch { throw StandingAlarmActions.storeError(error) }
        return StandingContext(store: store, config: { ConfigDefaults.loadTolerant() }, now: { SystemClock.realtime }, zone: nil,
                               daemonRunning: { DaemonLock.isHeld() }, controlDirectory: { () throws(WakeFailure) in try ControlActions.directory() })
    }

    /// `context`, or the user's when none is given.
    public static func given(_ context: StandingContext?) throws(WakeFailure) -> StandingContext {
        if let context { return context }
        return try standard()
    }

    func zone(_ console: Console) -> TimeZoneRules {
        if let zone { return zone }
        return console.localZone()
    }
}
