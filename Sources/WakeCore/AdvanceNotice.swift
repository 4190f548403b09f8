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
}
