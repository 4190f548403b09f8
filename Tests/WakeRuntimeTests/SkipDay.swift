import WakeCore

/// The local date in UTC of `t`: a skip as the history keeps it (the tests' zone is UTC).
func utcDay(_ t: Instant) -> CivilDate { TimeZoneRules.utc.localTime(at: t).date }

/// Midnight (or `h` o'clock) UTC on a date.
func utc(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0) -> Instant {
    TimeZoneRules.utc.instant(for: LocalDateTime(date: CivilDate(year: y, month: m, day: d), hour: h, minute: 0, second: 0))
}
