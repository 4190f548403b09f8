/// The bedtime reminder (issue 56, `sleep-target` in config.toml): "Bed now for 8h before 06:30
/// (work)" when the next alarm is that far away, carrying the bedtime check's verdict for it, with
/// "Skip tomorrow" and "Not tonight". Pure: when it is due, and what it says; the daemon runs the
/// check, asks logind whether anyone is at the screen, and shows it.
public enum BedtimeReminder {
    /// The longest target: more than 16 hours is a day's sleep, a typo for minutes or an hour.
    public static let longestTarget: Duration = .seconds(16 * 3600)
    /// How long after its moment a reminder may still come (the daemon started late, the session
    /// was locked or idle at the moment): past it, the night has gone on without one.
    public static let window: Duration = .seconds(3600)
    /// How often a reminder held back by a locked or idle session looks again, within `window`.
    public static let retry: Duration = .seconds(60)
    /// What the notification server sends back for the buttons.
    public static let skipKey = "skip-tomorrow"
    public static let dismissKey = "not-tonight"

    /// When the reminder for an occurrence at `occurrence` comes, `target` before it: its moment,
    /// or now when that has come within `window`; nil when the moment is more than `window`
    /// past, or the alarm is less than a minute away (a reminder then is noise), or passed.
    public static func due(occurrence: Instant, target: Duration, now: Instant) -> Instant? {
        guard occurrence - now >= .seconds(60) else { return nil }
        let moment = occurrence - target
        if moment > now { return moment }
        return now - moment <= window ? now : nil
    }

    /// The notification. `alarm` is the time and the name ("06:30 (work)"), as the daemon's other
    /// notices say them; `findings` the bedtime check's: its FAILs and WARNs with their fixes in
    /// the body, or that all checks pass. Normal urgency, never a sound of its own.
    public static func notice(alarm: String, target: Duration, findings: [DoctorFinding]) -> DesktopNotice {
        let problems = findings.filter { $0.status != .pass }
        let body = problems.isEmpty ? DesktopNotice.markup(localized("All checks pass: the alarm will be heard."))
            : problems.map { f in
                DesktopNotice.markup("\(f.status.word): \(f.found)")
                    + (f.fix.map { "\n" + DesktopNotice.markup(localized("Fix: {fix}", $0)) } ?? "")
            }.joined(separator: "\n")
        return DesktopNotice(summary: localized("Bed now for {span} before {alarm}", DurationText.format(target),
                                                TerminalText.printable(alarm)),
                             body: body,
                             buttons: [.init(key: skipKey, label: localized("Skip tomorrow")),
                                       .init(key: dismissKey, label: localized("Not tonight"))],
                             urgency: .normal, resident: false)
    }

    /// The verdict for the `bedtime` event: the worst status found.
    public static func verdict(_ findings: [DoctorFinding]) -> DoctorFinding.Status {
        findings.contains { $0.status == .fail } ? .fail : findings.contains { $0.status == .warn } ? .warn : .pass
    }
}
