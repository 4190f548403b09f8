/// The daemon's notices around a standing alarm (`--notice-before`): "Alarm at 06:30 (work)"
/// some time before it, with a Skip button, and a notice kept on screen when one was missed.
/// Pure: when to show the notice before, and what each says.
public enum AdvanceNotice {
    /// The default `--notice-before`.
    public static let defaultLead: Duration = .seconds(2 * 3600)
    /// What the notification server sends back for the Skip button.
    public static let skipKey = "skip"

    /// When to show the notice for an occurrence at `occurrence`, `lead` before it: nil when
    /// notices are off (`lead` 0) or the occurrence is not ahead any more. A notice whose time
    /// has come (the daemon started, or the alarm was added, within the lead) is due now,
    /// unless the ring itself is less than half a minute (or half the lead, if shorter) away:
    /// a notice moments before the ring is only noise.
    public static func due(occurrence: Instant, lead: Duration, now: Instant) -> Instant? {
        guard lead > .zero, occurrence > now else { return nil }
        let due = max(now, occurrence - lead)
        guard occurrence - due >= min(lead, .seconds(60)) / 2 else { return nil }
        return due
    }

    /// "Alarm at 06:30 (work)", the message as the body, a Skip button; dismissable.
    /// `alarm` is the time and the name, as the daemon's other notifications say them.
    public static func before(alarm: String, message: String?) -> DesktopNotice {
        DesktopNotice(summary: "Alarm at \(TerminalText.printable(alarm))", body: message.map(DesktopNotice.markup) ?? "",
                      buttons: [.init(key: skipKey, label: "Skip")], urgency: .normal, resident: false)
    }

    /// "Missed alarm at 06:30 (work)", kept on screen until dismissed: the machine was asleep
    /// or off past the late limit.
    public static func missed(alarm: String, day: String, message: String?) -> DesktopNotice {
        let why = "It did not ring \(day): the machine was asleep or off past its late limit."
        return DesktopNotice(summary: "Missed alarm at \(TerminalText.printable(alarm))",
                             body: (message.map { DesktopNotice.markup($0) + "\n" } ?? "") + DesktopNotice.markup(why),
                             buttons: [], urgency: .normal, resident: true)
    }

    /// One missed occurrence as the notices say it: `alarm` the time and the name ("06:30
    /// (work)"), `day` its day phrase ("today").
    public struct Missed: Hashable, Sendable {
        public var alarm: String
        public var day: String
        public var message: String?
        public init(alarm: String, day: String, message: String?) { self.alarm = alarm; self.day = day; self.message = message }
    }

    /// How many missed alarms the folded notice names before "and N more".
    public static let missedNamed = 2

    /// The notice for the alarms found missed at once (one reload, one resume), in the order
    /// they were due: one alarm's own notice, or for several one notice, "Missed 40 alarms:
    /// 06:30 (a), 07:00 (b) and 38 more", kept on screen. A daemon back after a long suspend
    /// or downtime would otherwise bury the desktop under a notice each; every one is still a
    /// line of its own on stderr and an event of its own in the log. Nil for none.
    public static func missed(_ alarms: [Missed]) -> DesktopNotice? {
        guard let first = alarms.first, let last = alarms.last else { return nil }
        guard alarms.count > 1 else { return missed(alarm: first.alarm, day: first.day, message: first.message) }
        let named = alarms.prefix(missedNamed).map { TerminalText.printable($0.alarm) }
        let rest = alarms.count - named.count
        let list = rest > 0 ? named.joined(separator: ", ") + " and \(rest) more"
            : named.dropLast().joined(separator: ", ") + " and " + (named.last ?? "")
        let days = first.day == last.day ? first.day : "between \(first.day) and \(last.day)"
        let why = "None of them rang \(days): the machine was asleep or off past their late limits."
        return DesktopNotice(summary: "Missed \(alarms.count) alarms: \(list)", body: DesktopNotice.markup(why),
                             buttons: [], urgency: .normal, resident: true)
    }
}
