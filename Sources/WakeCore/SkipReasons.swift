/// Why a standing alarm will not ring on the days before its next ring, in the words `wake
/// list` and `wake next` say it: `Mon 6 Apr skipped: Easter Monday (holidays-de-by.ics)`,
/// `paused until Mon 7 Dec 00:00`, `Mon 30 Nov skipped (2 more)`. Pure; not escaped (a holiday
/// is named by its calendar): each caller escapes for where it writes.
extension StandingSchedule {
    /// One phrase per reason ahead of `now`, in order: each day off, the first skip asked for
    /// (with how many more of them lie ahead, `skipsAhead` counting it), and the pause.
    public static func reasons(_ passed: [PassedOver], skipsAhead: Int, now: Instant, zone: TimeZoneRules) -> [String] {
        var phrases: [String] = []
        var saidSkip = false
        for p in passed where p.instant > now {
            switch p.reason {
            case .requested:
                guard !saidSkip else { continue }
                saidSkip = true
                let more = skipsAhead - 1
                phrases.append("\(Formatting.datePhrase(p.instant, now: now, zone: zone)) skipped" + (more > 0 ? " (\(more) more)" : ""))
            case .paused(let until):
                phrases.append("paused until \(Formatting.dayPhrase(until, now: now, zone: zone)) \(Formatting.clockTime(until, zone: zone))")
            case .dayOff(let holiday):
                phrases.append("\(Formatting.datePhrase(p.instant, now: now, zone: zone)) skipped: \(holiday)")
            case .noEvent(let calendar):
                phrases.append("\(Formatting.datePhrase(p.instant, now: now, zone: zone)): no event in \(calendar)")
            }
        }
        return phrases
    }

    /// How many reasons one line says before it counts the rest.
    public static let reasonsShown = 3

    /// The first few phrases and a count of the rest (`and 58 more`), for one line: a calendar
    /// that passes over many weeks would otherwise say up to `passedOverKept` reasons on it.
    /// `complete`: `phrases` come from every occurrence passed over (false when the plan kept
    /// only the first `passedOverKept`, and there may be more than counted).
    public static func shortened(_ phrases: [String], complete: Bool = true) -> [String] {
        guard phrases.count > reasonsShown + 1 else { return phrases }
        let rest = phrases.count - reasonsShown
        return Array(phrases.prefix(reasonsShown)) + [complete ? "and \(rest) more" : "and at least \(rest) more"]
    }

    /// Why a recurring alarm has no day to ring (`Plan.noDayUntil`): `every day until Sat 3 Jan
    /// 2037 is a holiday in 'holidays.ics'`. `files`: the calendars holding its days off, as the
    /// caller names them (quoted and escaped); none: its occurrences are skipped.
    public static func noDayPhrase(until: Instant, files: [String], now: Instant, zone: TimeZoneRules) -> String {
        let day = Formatting.datePhrase(until, now: now, zone: zone)
        guard !files.isEmpty else { return "every day until \(day) is skipped" }
        return "every day until \(day) is a holiday in " + files.joined(separator: ", ")
    }

    /// The word a JSON reader matches on: `skip`, `pause` or `holiday`.
    public static func kind(_ reason: SkipReason) -> String {
        switch reason {
        case .requested: return "skip"
        case .paused: return "pause"
        case .dayOff: return "holiday"
        case .noEvent: return "no-event"
        }
    }
}

extension Formatting {
    /// The weekday and date, always (`Mon 6 Apr`, with the year when it is not now's): a
    /// skipped day is named by its date, which the calendar it comes from also shows.
    public static func datePhrase(_ target: Instant, now: Instant, zone: TimeZoneRules, style: ClockStyle = .current) -> String {
        let day = zone.localTime(at: target).date, today = zone.localTime(at: now).date
        return weekdayDate(day, year: day.year == today.year ? nil : day.year, style: style)
    }
}
