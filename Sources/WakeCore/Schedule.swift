/// Which kernel clock a deadline is measured on.
public enum DeadlineClock: String, Sendable, Hashable {
    /// Wall-clock deadlines follow clock steps and time-zone changes (`CLOCK_REALTIME`).
    case wall = "realtime"
    /// Spans from now count suspend and ignore clock steps (`CLOCK_BOOTTIME`).
    case elapsed = "boottime"
}

/// A resolved alarm time: one absolute instant, plus how to wait for it.
public struct Deadline: Hashable, Sendable {
    /// The instant on the UTC time line (what the wall clock will read when it rings).
    public var instant: Instant
    public var clock: DeadlineClock
    /// For `.elapsed` deadlines: the span from the moment of resolution.
    public var span: Duration?
    /// The wall-clock reading that was asked for, when it does not exist that day (it falls in
    /// a spring-forward gap) and the deadline was moved to the moment the clocks jump; nil when
    /// the deadline rings at the reading asked for. The sleeper is told (`Formatting.gapNote`).
    public var shiftedFrom: LocalDateTime?

    public init(instant: Instant, clock: DeadlineClock, span: Duration? = nil, shiftedFrom: LocalDateTime? = nil) {
        self.instant = instant; self.clock = clock; self.span = span; self.shiftedFrom = shiftedFrom
    }
}

public enum ScheduleError: Error, Equatable, CustomStringConvertible {
    case inThePast(String, LocalDateTime)
    /// The time names no usable moment: fields out of range (a hand-built spec), a year outside
    /// the accepted range, or a zone whose rules leave no occurrence within a week.
    case unresolvable(String, reason: String)
    public var description: String {
        switch self {
        case .inThePast(let token, _):
            return "time '\(token.printable)' is in the past; give a future date and time, or a time of day for its next occurrence"
        case .unresolvable(let token, let reason):
            return "cannot resolve time '\(token.printable)': \(reason); give another time, or check the TZ variable"
        }
    }
}

public enum Schedule {
    /// How many days ahead a time of day is looked for. One or two suffice for real zones; a
    /// POSIX rule may move clocks back by up to 49 hours (offsets up to 24:59 either side), so a
    /// date's first occurrence can lie up to three days in the past; a week leaves a margin.
    static let searchDays = 8

    /// Resolves what was typed against "now" in a zone. Pure: the caller supplies both.
    public static func resolve(_ spec: WakeSpec, token: String = "", now: Instant, zone: TimeZoneRules) throws(ScheduleError) -> Deadline {
        switch spec {
        case .now:
            return Deadline(instant: now, clock: .elapsed, span: .zero)
        case .relative(let span):
            guard span > .zero, span <= .seconds(WakeSpec.maximumRelativeSeconds) else {
                throw .unresolvable(token, reason: "a span must be longer than zero and at most 10 years")
            }
            // Saturated at the end of the time line (year 2262) the deadline would not be ahead.
            let t = now + span
            guard t - now == span else { throw .unresolvable(token, reason: "the span reaches beyond the year 2262") }
            return Deadline(instant: t, clock: .elapsed, span: span)
        case .dateTime(let local):
            try check(local, token: token)
            let t = zone.instant(for: local)
            guard t > now else { throw .inThePast(token, local) }
            return Deadline(instant: t, clock: .wall, shiftedFrom: shift(local, t, zone))
        case .zonedDateTime(let local, let offset):
            try check(local, token: token)
            guard (-86_399...86_399).contains(offset) else { throw .unresolvable(token, reason: "a UTC offset must be less than 24 hours") }
            let t = Instant(seconds: local.secondsAsIfUTC - Int64(offset))
            guard t > now else { throw .inThePast(token, local) }
            return Deadline(instant: t, clock: .wall)
        case .dayTime(let day, let h, let m, let s):
            let local = try reading(day, hour: h, minute: m, second: s, token: token, now: now, zone: zone)
            let t = zone.instant(for: local)
            guard t > now else { throw .inThePast(token, local) }
            return Deadline(instant: t, clock: .wall, shiftedFrom: shift(local, t, zone))
        case .timeOfDay(let h, let m, let s):
            let today = zone.localTime(at: now).date
            try check(LocalDateTime(date: today, hour: h, minute: m, second: s), token: token, checkYear: false)
            var date = today
            // Today's occurrence, else tomorrow's; further only in zones that move clocks back by
            // more than a day, or skip a whole day (Samoa, 2011).
            for _ in 0..<searchDays {
                let local = LocalDateTime(date: date, hour: h, minute: m, second: s)
                let t = zone.instant(for: local)
                if t > now { return Deadline(instant: t, clock: .wall, shiftedFrom: shift(local, t, zone)) }
                date = date.nextDay
            }
            throw .unresolvable(token, reason: "the time-zone rules leave no occurrence within \(searchDays) days")
        }
    }

    /// The local date and time a named day and a time of day mean at `now`: today's or
    /// tomorrow's; the next such weekday (today, if that time is still ahead); the next such
    /// date (this year's, else a later year's: `feb 29` waits for a leap year). A time in a gap
    /// or a repeated hour is then resolved as for any local date and time.
    public static func reading(_ day: NamedDay, hour h: Int, minute m: Int, second s: Int, token: String = "", now: Instant,
                               zone: TimeZoneRules) throws(ScheduleError) -> LocalDateTime {
        let today = zone.localTime(at: now).date
        func at(_ date: CivilDate) -> LocalDateTime { LocalDateTime(date: date, hour: h, minute: m, second: s) }
        try check(at(today), token: token, checkYear: false)
        var found: LocalDateTime?
        switch day {
        case .today: found = at(today)
        case .tomorrow: found = at(today.nextDay)
        case .weekday(let w):
            var date = today
            for _ in 0..<searchDays {
                if date.weekday == w, zone.instant(for: at(date)) > now { found = at(date); break }
                date = date.nextDay
            }
        case .monthDay(let month, let d):
            for year in today.year...(today.year + 8) {
                let date = CivilDate(year: year, month: month, day: d)
                if date.isValid, zone.instant(for: at(date)) > now { found = at(date); break }
            }
        }
        guard let found else { throw .unresolvable(token, reason: "no such day ahead within eight years") }
        try check(found, token: token)
        return found
    }

    /// Refuses readings that name no moment: only hand-built specs get here with such values.
    static func check(_ local: LocalDateTime, token: String, checkYear: Bool = true) throws(ScheduleError) {
        guard (0...23).contains(local.hour), (0...59).contains(local.minute), (0...59).contains(local.second) else {
            throw .unresolvable(token, reason: "hour, minute or second out of range")
        }
        guard local.date.isValid else { throw .unresolvable(token, reason: "no such date") }
        guard !checkYear || WakeSpec.acceptedYears.contains(local.date.year) else {
            throw .unresolvable(token, reason: "the year must be between 1970 and 2200")
        }
    }

    /// The reading asked for, when the zone moved the deadline off it (a spring-forward gap).
    static func shift(_ asked: LocalDateTime, _ t: Instant, _ zone: TimeZoneRules) -> LocalDateTime? {
        zone.localTime(at: t) == asked ? nil : asked
    }
}
