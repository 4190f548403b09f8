/// The daemon's bedtime check (issue 39), the part that decides: when an alarm is checked, what
/// a check's findings become, and the rule that no problem of an alarm is notified twice. Pure:
/// the daemon runs the checks (`wake doctor`'s, for one alarm) and says what this returns.
///
/// What a check's findings become: each FAIL and WARN a journal line and a `bedtime_check` event,
/// every time the alarm is checked (so the journal shows what each check found); a FAIL also a
/// notification, once per occurrence and problem (`DoctorFinding.problemKey`): checks again after
/// a change of the files, or at the advance-notice moment after one at the change, find it again
/// and say it again, but do not notify again. A problem that clears and comes back before the same
/// occurrence is still the same problem and is not notified again (a sink muted, unmuted and muted
/// again); the next occurrence (the next night) is a new bedtime, and a problem still there then
/// is notified again. A check that failed or warned and passes now is said once ("now passes").
public struct BedtimeLedger: Sendable {
    public init() {}

    /// How long before an occurrence its check runs: the advance notices' lead (`--notice-before`),
    /// or their default, 2 h, when the notices are off (`--notice-before 0`): the check does not
    /// depend on the notices, only its moment is theirs.
    public static func lead(noticeBefore: Duration) -> Duration {
        noticeBefore > .zero ? noticeBefore : AdvanceNotice.defaultLead
    }

    /// When `occurrence` is checked: `lead` before it, or now when it is nearer (the alarm was
    /// added, or the daemon started, within the lead). Nil when it is less than half a minute (or
    /// half the lead, if shorter) away, or passed: the moment the advance notice says nothing
    /// either, and the check would open the alarm's device as the ring is about to (its pre-roll
    /// opens it a second early).
    public static func due(occurrence: Instant, lead: Duration, now: Instant) -> Instant? {
        AdvanceNotice.due(occurrence: occurrence, lead: lead, now: now)
    }

    /// What one check's findings become.
    public struct Outcome: Equatable, Sendable {
        /// Every FAIL and WARN found, in the order found: a journal line and an event each.
        public var said: [DoctorFinding] = []
        /// The FAILs for a notification: those not notified before for this occurrence.
        public var notify: [DoctorFinding] = []
        /// Checks that failed or warned at this alarm's last check and pass now: a line each.
        public var cleared: [DoctorFinding] = []
    }

    private struct Entry: Sendable {
        var occurrence: Instant
        /// The problems notified for this occurrence.
        var notified: Set<String> = []
        /// The checks that failed or warned at the last check, whatever the occurrence.
        var bad: Set<String> = []
    }

    private var entries: [String: Entry] = [:]

    /// Takes the findings of a check of `alarm` for its occurrence at `occurrence`.
    public mutating func record(alarm: String, occurrence: Instant, findings: [DoctorFinding]) -> Outcome {
        var entry = entries[alarm] ?? Entry(occurrence: occurrence)
        if entry.occurrence != occurrence {
            entry.occurrence = occurrence
            entry.notified = []
        }
        var out = Outcome()
        var bad: Set<String> = []
        for f in findings {
            switch f.status {
            case .pass:
                if entry.bad.contains(f.check), !out.cleared.contains(where: { $0.check == f.check }) { out.cleared.append(f) }
            case .warn:
                bad.insert(f.check)
                out.said.append(f)
            case .fail:
                bad.insert(f.check)
                out.said.append(f)
                if entry.notified.insert(f.problemKey).inserted { out.notify.append(f) }
            }
        }
        // A check that passes for one output and fails for another is not cleared.
        out.cleared.removeAll { bad.contains($0.check) }
        entry.bad = bad
        entries[alarm] = entry
        return out
    }

    /// Forgets the alarms that are gone (removed, or rung for the last time).
    public mutating func keep(only alarms: Set<String>) {
        entries = entries.filter { alarms.contains($0.key) }
    }

    // MARK: what is said

    /// The journal line: `bedtime check: alarm 'work' at 06:30: FAIL sound.sink: ...; fix: ...`.
    /// `at` is the occurrence's clock time; the finding's texts are escaped by the checks.
    public static func line(alarm: String, at: String, _ f: DoctorFinding) -> String {
        let head = "bedtime check: alarm '\(TerminalText.printable(alarm))' at \(at): "
        if f.status == .pass { return head + "\(f.check) now passes: \(f.found)" }
        return head + "\(f.status.word) \(f.check): \(f.found)" + (f.fix.map { "; fix: \($0)" } ?? "")
    }

    /// The notification for a check's new failures: "Alarm at 06:30 (work) may be silent", each
    /// failure and its fix in the body. `alarm` is the time and the name, as the daemon's other
    /// notices say them. Normal urgency, no buttons: the ringing notification is another one.
    public static func notice(alarm: String, failures: [DoctorFinding]) -> DesktopNotice {
        let body = failures.map { f in
            DesktopNotice.markup(f.found) + (f.fix.map { "\n" + DesktopNotice.markup("Fix: " + $0) } ?? "")
        }.joined(separator: "\n")
        return DesktopNotice(summary: "Alarm at \(TerminalText.printable(alarm)) may be silent", body: body,
                             buttons: [], urgency: .normal, resident: false)
    }
}
