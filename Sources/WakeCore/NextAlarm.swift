/// `wake next`: of every alarm that will ring or rings now, the first, in one line a status bar
/// shows as it is ("06:30 tomorrow (work), in 7h 12m: Stand-up") or one JSON object. Pure: the
/// caller gathers the candidates (standing alarms as planned, skips and pauses passed over;
/// one-offs that a wake process runs; what rings or is snoozed) and reads the clock.
public struct NextAlarm: Hashable, Sendable {
    /// Where the alarm is: a ringing one is what a status bar must show, before anything ahead.
    /// A pre-ringing one (`--pre-alarm`) is still ahead: its time is the alarm's own.
    public enum State: String, Hashable, Sendable {
        case waiting, ringing, snoozed
        case preRinging = "pre-ringing"
    }

    /// A standing alarm's name, or a one-off's PID.
    public var id: String
    /// True for a standing alarm (its name is said in the line).
    public var standing: Bool
    /// When it rings (a snoozed alarm: when the snooze ends; a ringing one: when it started).
    public var at: Instant
    public var message: String?
    public var state: State
    /// Why the days before `at` do not ring (`StandingSchedule.reasons`): a skip, a pause, a holiday.
    public var skipped: [String]
    /// `skipped` comes from every occurrence passed over (false when the plan kept only the first
    /// `StandingSchedule.passedOverKept`): the line's count of the rest says "at least".
    public var skippedAll: Bool

    public init(id: String, standing: Bool, at: Instant, message: String? = nil, state: State = .waiting, skipped: [String] = [],
                skippedAll: Bool = true) {
        self.id = id; self.standing = standing; self.at = at; self.message = message; self.state = state; self.skipped = skipped
        self.skippedAll = skippedAll
    }

    /// The first of `candidates`: one that rings now, else the soonest; a tie goes to the
    /// standing alarm, then to the smaller ID, so the answer never flickers between two alarms.
    public static func soonest(_ candidates: [NextAlarm]) -> NextAlarm? {
        candidates.min { a, b in
            if (a.state == .ringing) != (b.state == .ringing) { return a.state == .ringing }
            if a.at != b.at { return a.at < b.at }
            if a.standing != b.standing { return a.standing }
            return a.id < b.id
        }
    }

    /// `06:30 tomorrow (work), in 7h 12m`, `06:39 today (work), snoozed, in 8m 12s`,
    /// `06:30 today (work), pre-alarm ringing, in 4m 10s` or
    /// `ringing since 06:30 (work)`, then `: MESSAGE` when there is one, then each reason a day
    /// before it does not ring (`; Mon 6 Apr skipped: Easter Monday (holidays.ics)`; the first
    /// few and a count of the rest, `StandingSchedule.shortened`); a one-off
    /// has no name in brackets. Escaped: it goes to a terminal or a status bar as it is.
    /// Without `wait` (`wake next --follow`), the wait phrase is left out (`06:30 tomorrow
    /// (work): Stand-up`, `06:39 today (work), snoozed`): a line printed once and shown for hours
    /// must not say a wait that was true only when it was printed.
    public func line(now: Instant, zone: TimeZoneRules, wait: Bool = true) -> String {
        let name = standing ? " (\(TerminalText.escape(id)))" : ""
        let time = Formatting.clockTime(at, zone: zone)
        switch state {
        case .ringing:
            return localized("ringing since {time}", time) + name + AlarmMessage.suffix(message)
        case .waiting, .snoozed, .preRinging:
            let tag: String? = switch state {
            case .snoozed: localized("snoozed")
            case .preRinging: localized("pre-alarm ringing")
            default: nil
            }
            let how = [tag, wait ? Formatting.waitPhrase(at - now) : nil].compactMap { $0 }
            return "\(time) \(Formatting.dayPhrase(at, now: now, zone: zone))\(name)" + how.map { ", " + $0 }.joined()
                + AlarmMessage.suffix(message)
                + StandingSchedule.shortened(skipped, complete: skippedAll).map { "; " + TerminalText.escape($0) }.joined()
        }
    }

    /// One JSON object: `id`, `kind` (`standing` or `one-off`), `state` (`waiting`, `pre-ringing`,
    /// `ringing` or `snoozed`), `time` (`06:30`), `day` (`tomorrow`), `next` (ISO-8601 with offset; while
    /// ringing, when it started), `in_s` (whole seconds, rounded up; 0 while ringing), `message`
    /// (null without one), `skipped` (why the days before it do not ring, one phrase each) and
    /// `text` (the line).
    /// Without `wait` (`wake next --follow`), `text` has no wait phrase and `in_s` is left out
    /// when `inSeconds` is false (what the feed compares, so a minute passing prints nothing).
    public func json(now: Instant, zone: TimeZoneRules, wait: Bool = true, inSeconds: Bool = true) -> JSONValue {
        .object([
            ("id", .string(id)),
            ("kind", .string(standing ? "standing" : "one-off")),
            ("state", .string(state.rawValue)),
            // Read by scripts: 24-hour, day first, whatever the reader's clock (`text` is the reader's).
            ("time", .string(Formatting.clockTime(at, zone: zone, style: .twentyFourHour))),
            ("day", .string(Formatting.dayPhrase(at, now: now, zone: zone, style: .twentyFourHour))),
            ("next", .string(Formatting.iso8601(at, zone: zone))),
            inSeconds ? ("in_s", .int(max(0, (at - now).secondsRoundedUp))) : nil,
            ("message", .optional(message)),
            ("skipped", .array(skipped.map { .string($0) })),
            ("text", .string(line(now: now, zone: zone, wait: wait))),
        ].compactMap { $0 })
    }
}
