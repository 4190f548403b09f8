/// Standing alarms: the occurrences of a time of day on a set of weekdays, resolved with the
/// same daylight-saving rules as a one-off time (`Schedule`, docs/guide.md "Rules"). Pure: "now" and
/// the zone are arguments.
///
/// The rules, per selected date D (the date the time is asked for; an occurrence belongs to it):
/// - The occurrence is `zone.instant(for: D at hh:mm:ss)`: the reading's first occurrence.
/// - Spring forward: a reading that does not exist on D rings at the first instant after the gap,
///   the moment the clocks jump, with `shiftedFrom` = the reading asked for. D is never skipped
///   (systemd's `OnCalendar=` skips it: systemd issue 5595). Where the jump crosses midnight
///   (America/Nuuk since 2024: Saturday 23:00 jumps to Sunday 00:00) D's occurrence reads 00:00
///   on the next date; it is still D's, and that next date has its own.
/// - Fall back: a reading that occurs twice rings at its first occurrence only. If that is at or
///   before `after`, D is done: its second occurrence is never an occurrence.
/// - A date the wall clock skips entirely (Samoa and Tokelau's 2011-12-30, Kwajalein's
///   1993-08-21, Kiribati's Line and Phoenix Islands' 1994-12-31) has no occurrence: no such day
///   exists to ring on. (A one-off `Schedule.resolve` asked that day rings when the clocks jump,
///   at 00:00 of the next date; a standing alarm would then ring twice on that next date.)
public enum Recurrence {
    /// Dates searched, relative to the local date of `after`. Back: a date's first occurrence can
    /// follow `after` only if its reading is within 51 h (the widest offset change) before the
    /// reading at `after`: three dates back. Ahead: a non-empty set has a date within 7 days,
    /// and one whose occurrence is certainly after `after` within 10; 15 leaves a margin.
    static let searchBack: Int64 = 3
    static let searchAhead: Int64 = 15

    /// The next occurrence strictly after `after` of the local time hour:minute:second on a day
    /// in `days` (an empty set means every day: the next occurrence at all, as a one-off time of
    /// day), by the rules above. The deadline is on the wall clock, in whole seconds.
    ///
    /// Nil when the fields are out of range (hour 0-23, minute and second 0-59), when the zone
    /// rules leave no occurrence within the search window (only pathological POSIX zones), and
    /// near the ends of the representable time line (1677, 2262). Never traps.
    public static func next(after: Instant, hour: Int, minute: Int, second: Int, days: DaySet, zone: TimeZoneRules) -> Deadline? {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        let selected = days.isEmpty ? DaySet.daily : days
        let start = zone.localTime(at: after).date.daysSinceEpoch  // clamped: ± 15 cannot overflow
        let afterSeconds = after.seconds
        // The instant of a reading r lies within [r - most, r - least]: `instant(for:)` answers
        // r - offset for an offset in force, or a jump between two of them.
        let (least, most) = zone.offsetBounds
        var best: Deadline?
        for k in -searchBack...searchAhead {
            let date = CivilDate(daysSinceEpoch: start + k)
            guard selected.contains(date.weekday) else { continue }
            let midnight = date.daysSinceEpoch.times(86_400)  // as if UTC
            // Every occurrence from here on lies after the best found: stop.
            if let b = best, midnight.minus(most) > b.instant.seconds { break }
            // This date's occurrence lies at or before `after` whatever the zone: no need to look.
            if midnight.plus(86_400).minus(least) < afterSeconds { continue }
            guard let d = occurrence(on: date, hour: hour, minute: minute, second: second, zone: zone),
                  d.instant > after else { continue }
            if best.map({ d.instant < $0.instant }) ?? true { best = d }
        }
        return best
    }

    /// The occurrences in (from, through], in order (for tests and `wake list`); at most `limit`.
    public static func occurrences(from: Instant, through: Instant, hour: Int, minute: Int, second: Int, days: DaySet, zone: TimeZoneRules, limit: Int = 1000) -> [Deadline] {
        var out: [Deadline] = []
        var t = from
        while out.count < limit,
              let d = next(after: t, hour: hour, minute: minute, second: second, days: days, zone: zone),
              d.instant <= through {
            out.append(d)
            t = d.instant  // strictly increasing: the loop ends
        }
        return out
    }

    /// Date D's occurrence, nil if the wall clock never reads D or the instant is off the time line.
    static func occurrence(on date: CivilDate, hour: Int, minute: Int, second: Int, zone: TimeZoneRules) -> Deadline? {
        let asked = LocalDateTime(date: date, hour: hour, minute: minute, second: second)
        let t = zone.instant(for: asked)
        // Saturated at an end of the time line: no real instant.
        guard t != .distantFuture, t != .distantPast else { return nil }
        let reading = zone.localTime(at: t)
        if reading == asked { return Deadline(instant: t, clock: .wall) }
        // In a gap. One that runs past the end of D may have swallowed D whole.
        if reading.date != date {
            let dayStart = zone.instant(for: LocalDateTime(date: date, hour: 0, minute: 0, second: 0))
            guard zone.localTime(at: dayStart).date == date else { return nil }
        }
        return Deadline(instant: t, clock: .wall, shiftedFrom: asked)
    }
}

extension TimeZoneRules {
    /// The least and the greatest UTC offset the zone ever gives: those of its table of local
    /// types and of its footer rule (UTC's 0 stands in for an empty table, as in `localType`).
    /// Within (-25 h, +26 h) for every TZif file (RFC 8536) and parsed `TZ` rule (±24:59:59).
    var offsetBounds: (least: Int64, most: Int64) {
        var offsets = types.map { Int64($0.offset) }
        if types.isEmpty { offsets.append(0) }
        if let footer { offsets += [Int64(footer.standardOffset), Int64(footer.daylightOffset)] }
        return (offsets.min() ?? 0, offsets.max() ?? 0)
    }
}
