/// `wake next`: of every alarm that will ring, the soonest, in one line a status bar shows as
/// it is ("06:30 tomorrow (work), in 7h 12m: Stand-up") or one JSON object. Pure: the caller
/// gathers the candidates (standing alarms as planned, skips and pauses passed over; one-offs
/// that a wake process runs) and reads the clock.
public struct NextAlarm: Hashable, Sendable {
    /// A standing alarm's name, or a one-off's PID.
    public var id: String
    /// True for a standing alarm (its name is said in the line).
    public var standing: Bool
    /// When it rings (a snoozed alarm: when the snooze ends).
    public var at: Instant
    public var message: String?

    public init(id: String, standing: Bool, at: Instant, message: String? = nil) {
        self.id = id; self.standing = standing; self.at = at; self.message = message
    }

    /// The soonest of `candidates`; a tie goes to the standing alarm, then to the smaller ID,
    /// so the answer never flickers between two alarms at one time.
    public static func soonest(_ candidates: [NextAlarm]) -> NextAlarm? {
        candidates.min { a, b in
            if a.at != b.at { return a.at < b.at }
            if a.standing != b.standing { return a.standing }
            return a.id < b.id
        }
    }

    /// `06:30 tomorrow (work), in 7h 12m`, then `: MESSAGE` when there is one; a one-off has no
    /// name in brackets. Escaped: it goes to a terminal or a status bar as it is.
    public func line(now: Instant, zone: TimeZoneRules) -> String {
        let name = standing ? " (\(TerminalText.escape(id)))" : ""
        return "\(Formatting.clockTime(at, zone: zone)) \(Formatting.dayPhrase(at, now: now, zone: zone))\(name), "
            + Formatting.waitPhrase(at - now) + AlarmMessage.suffix(message)
    }

    /// One JSON object: `id`, `kind` (`standing` or `one-off`), `time` (`06:30`), `day`
    /// (`tomorrow`), `next` (ISO-8601 with offset), `in_s` (whole seconds, rounded up),
    /// `message` (null without one) and `text` (the line).
    public func json(now: Instant, zone: TimeZoneRules) -> String {
        JSONText.object([
            ("id", JSONText.quote(id)),
            ("kind", JSONText.quote(standing ? "standing" : "one-off")),
            ("time", JSONText.quote(Formatting.clockTime(at, zone: zone))),
            ("day", JSONText.quote(Formatting.dayPhrase(at, now: now, zone: zone))),
            ("next", JSONText.quote(Formatting.iso8601(at, zone: zone))),
            ("in_s", String(max(0, (at - now).secondsRoundedUp))),
            ("message", message.map(JSONText.quote) ?? "null"),
            ("text", JSONText.quote(line(now: now, zone: zone))),
        ])
    }
}
