import WakeCore

/// What the D-Bus API needs of the daemon it serves: the standing alarms, their records and the
/// zone they are read in, each one's armed occurrence, hooks for a reload and for an alarm found
/// missed, and a reload on request. The daemon's controller is the one host, and the daemon makes
/// the API: so the API never names the daemon, and the two folders call one way.
public protocol BusAPIHost: AnyObject {
    var zone: TimeZoneRules { get }
    var standingAlarms: [StandingAlarm] { get }
    var records: [String: AlarmRecord] { get }
    /// The calendars of `--before-first-event` alarms, read at the last reload, by alarm name.
    var firstEvents: [String: FirstEventSchedule] { get }
    /// The armed occurrence of the alarm called `name`; nil when it is not armed.
    func occurrence(of name: String) -> Instant?
    /// Called after every reload; a host keeps one, so the API chains to what was set before.
    var onReloaded: (() -> Void)? { get set }
    /// Called with an alarm's name and occurrence when it was found missed.
    var onMissed: ((String, Instant) -> Void)? { get set }
    /// Reads the files again at the next turn of the loop.
    func requestReload()
    /// Applies a requested reload now.
    func applyPending()
}
