/// The next ring times of a standing alarm as `wake doctor` shows them: in local time with the
/// zone's abbreviation and in UTC, so a zone that is not the one the user thinks shows at once.
public enum RingTimes {
    /// Up to `count` occurrences: `first` (the daemon's next, a skip or pause passed over), then
    /// the alarm's own occurrences after it that `rings` (skips, the pause and holidays passed
    /// over too; a year's look at most).
    public static func upcoming(_ alarm: StandingAlarm, first: Instant?, count: Int, zone: TimeZoneRules,
                                rings: (Instant) -> Bool = { _ in true }) -> [Instant] {
        guard let first, count > 0 else { return [] }
        var times = [first]
        var last = first
        for _ in 0..<400 where times.count < count {
            guard let next = StandingSchedule.occurrence(of: alarm, after: last, zone: zone)?.instant else { break }
            if rings(next) { times.append(next) }
            last = next
        }
        return times
    }

    /// `06:30 CET tomorrow (05:30 UTC)`; in UTC itself, `06:30 UTC tomorrow`.
    public static func phrase(_ t: Instant, now: Instant, zone: TimeZoneRules) -> String {
        let local = zone.localType(atUTC: t.seconds)
        let day = Formatting.dayPhrase(t, now: now, zone: zone)
        let utc = local.offset == 0 && local.abbreviation == "UTC" ? "" : " (\(Formatting.clockTime(t, zone: .utc)) UTC)"
        return "\(Formatting.clockTime(t, zone: zone)) \(local.abbreviation) \(day)\(utc)"
    }
}
