import WakeCore

/// The local date in UTC of `t`: a skip as the history keeps it (the tests' zone is UTC).
func utcDay(_ t: Instant) -> CivilDate { TimeZoneRules.utc.localTime(at: t).date }
