import WakeCore
import WakeEngine
import WakeSystem

/// What an attachment sees of the session it runs in: the loop, the alarms, and how the session
/// names them. `AlarmSession` is one; the in-process tests make their own around a fake clock.
public protocol SessionContext: AnyObject {
    var reactor: Reactor { get }
    var runner: Runner { get }
    var timers: ReactorTimers { get }
    var console: Console { get }
    /// The local zone, followed while wake runs unless `TZ` pins it.
    var zone: TimeZoneRules { get }
    /// The daemon's standing alarms, known by name (else one one-off alarm, known by its PID).
    var standing: Bool { get }
    /// Whether the deadlines are on the alarm clocks, so the RTC wakes a suspended machine.
    var wakesSystem: Bool { get }
    /// Whether what rings makes no sound now (every output failed, and no bell).
    var isSilent: Bool { get }
    /// `wake sleep`'s session: its sound is no alarm.
    var isSleepTimer: Bool { get }
    /// How the console names an alarm's time (`07:00`).
    func deadlineText(of id: String) -> String
    /// An event of the session's own, not an alarm's, for the event log (`control_refused`).
    func record(_ event: String, _ fields: [(String, JSONValue)])
}

extension SessionContext {
    /// What the media widget and the sound server's volume control call alarm `id`: "Alarm
    /// 06:30", with the standing alarm's name ("Alarm 06:30 (work)").
    public func alarmTitle(of id: String) -> String {
        var time = deadlineText(of: id)
        if standing { time += " (\(id))" }
        return localized("Alarm {name}", time)
    }
}

/// Something a session runs beside its alarms: the control endpoint, the desktop notifier, the
/// daemon's notices (and whatever comes next, MPRIS). A session takes them as a list, starts
/// each when it starts, gives each a turn before every wait, and stops each when it ends, so
/// adding one is a new type, not new slots wired in two places.
public protocol SessionAttachment: AnyObject {
    /// The session starts: register descriptors, observe the runner. Nothing waits yet. A
    /// failure is the attachment's to say; the alarms ring without it.
    func start(in session: SessionContext)
    /// Before every wait of the loop (after the session's own work).
    func beforePoll()
    /// The session ends (every way out): close what was opened.
    func stop()
    /// Whether it is stopped before the alarms are shut down rather than after: true for what
    /// would tell someone of an alarm that is going away (the control endpoint). The session
    /// asks this, never which attachment it holds.
    var stopsBeforeTheAlarms: Bool { get }
}

extension SessionAttachment {
    public func beforePoll() {}
    public var stopsBeforeTheAlarms: Bool { false }
}
