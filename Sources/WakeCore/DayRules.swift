/// A standing alarm's rules beyond its weekdays, for shift patterns (issue 54): `--weeks odd|even`
/// (ISO 8601 weeks) and `--every Nd --from DATE` (every Nth day counted from a date). A date rings
/// only when its weekday is in `--days` and every rule given holds. Pure: dates in, a verdict out;
/// the date is the local date an occurrence belongs to, in the alarm's zone.
public struct DayRules: Hashable, Sendable {
    public enum Parity: String, Hashable, Sendable, CaseIterable {
        case odd, even
    }

    /// Odd or even ISO weeks only; nil: every week.
    public var weeks: Parity?
    /// Every `days`th day from `from`, that date the first.
    public struct Every: Hashable, Sendable {
        public var days: Int
        public var from: CivilDate
        public init(days: Int, from: CivilDate) { self.days = days; self.from = from }
    }
    /// Nil: every day.
    public var every: Every?

    public init(weeks: Parity? = nil, every: Every? = nil) {
        self.weeks = weeks
        self.every = every
    }

    /// Whether any rule is given.
    public var isEmpty: Bool { weeks == nil && every == nil }

    /// The rules an alarm's stored options give (`weeks`, `every`, `from`). A value the option
    /// table refuses (a hand edit) is left out, so the alarm rings on more days rather than none;
    /// the daemon and `wake list` say it, as of every stored option (`StoredRingSettings`).
    /// `every` without `from` counts from the day the alarm was added (`wake add` stores the
    /// date), and a day word in `from` names a date from that day, in `zone`.
    public init(options: [String: String], created: Instant, zone: TimeZoneRules) {
        if let w = options[AlarmOption.weeks.name], case .success = AlarmOption.weeks.parse(w) { weeks = Parity(rawValue: w) }
        guard let e = options[AlarmOption.every.name], case .success(.number(let n)) = AlarmOption.every.parse(e) else { return }
        let added = zone.localTime(at: created).date
        if let f = options[AlarmOption.from.name] {
            guard let from = NamedDay.date(of: f, today: added) else { return }
            every = Every(days: n, from: from)
        } else {
            every = Every(days: n, from: added)
        }
    }

    /// Whether `date` passes every rule (the weekdays are `--days`', checked apart).
    public func allows(_ date: CivilDate) -> Bool {
        if let weeks, (date.isoWeek.week % 2 == 1) != (weeks == .odd) { return false }
        if let every {
            let (n, from) = (every.days, every.from)
            guard date >= from else { return false }
            return date.daysSinceEpoch.minus(from.daysSinceEpoch) % Int64(n) == 0
        }
        return true
    }

    /// How far `firstAllowed` looks: every rule's pattern repeats within seven years of days
    /// (366-day steps meet every weekday parity within that; ISO years of 53 weeks shift parity).
    public static let searchDays = 7 * 367

    /// The first date on or after `date` that passes every rule, within `searchDays`; nil: none.
    public func firstAllowed(onOrAfter date: CivilDate) -> CivilDate? {
        var d = date
        var step: Int64 = 1
        if let every {
            let (n, from) = (every.days, every.from)
            if d < from { d = from } else {
                let r = d.daysSinceEpoch.minus(from.daysSinceEpoch) % Int64(n)
                if r != 0 { d = CivilDate(daysSinceEpoch: d.daysSinceEpoch.plus(Int64(n) - r)) }
            }
            step = Int64(n)
        }
        let end = date.daysSinceEpoch.plus(Int64(Self.searchDays))
        while d.daysSinceEpoch <= end {
            if allows(d) { return d }
            d = CivilDate(daysSinceEpoch: d.daysSinceEpoch.plus(step))
        }
        return nil
    }

    /// The Monday of the next ISO week 53 within a year of `today` (the week it is in, if so):
    /// weeks 53 and 1 are both odd, so from it a `--weeks` alarm rings two weeks running (odd)
    /// or misses two (even), which `wake add` says. Nil without `--weeks`, or no week 53 near.
    public func weekFiftyThree(from today: CivilDate) -> CivilDate? {
        guard weeks != nil else { return nil }
        let monday = CivilDate(daysSinceEpoch: today.daysSinceEpoch.minus(Int64((today.weekday + 6) % 7)))
        for k: Int64 in 0...52 {
            let d = CivilDate(daysSinceEpoch: monday.daysSinceEpoch.plus(7 * k))
            if d.isoWeek.week == 53 { return d }
        }
        return nil
    }

    /// The rules in words, after the weekdays: ` in odd weeks`, ` every 3 days from 2026-12-07`.
    public var phrase: String {
        var out = ""
        if let every { out += " every \(every.days) days from \(TOMLSubset.dateText(every.from))" }
        if let weeks { out += " in \(weeks.rawValue) weeks" }
        return out
    }

    /// The next occurrence strictly after `after` of the alarm's time on a day in `days` that
    /// passes the rules: `Recurrence.next`'s, a date the rules refuse passed over by jumping to
    /// the next date they allow. Nil when no date within the search ever passes.
    public func next(after: Instant, hour: Int, minute: Int, second: Int, days: DaySet, zone: TimeZoneRules) -> Deadline? {
        var after = after
        let last = zone.localTime(at: after).date.daysSinceEpoch.plus(Int64(Self.searchDays))
        // Each round moves to a later date (a jump or the next weekday), up to `searchDays` ahead.
        for _ in 0..<(Self.searchDays + 16) {
            guard let o = Recurrence.next(after: after, hour: hour, minute: minute, second: second, days: days, zone: zone) else {
                return nil
            }
            // The date the occurrence belongs to: a spring-forward jump over midnight rings it on the next date.
            let date = o.shiftedFrom?.date ?? zone.localTime(at: o.instant).date
            guard date.daysSinceEpoch <= last, let allowed = firstAllowed(onOrAfter: date) else { return nil }
            if allowed == date { return o }
            let jump = zone.instant(for: LocalDateTime(date: allowed, hour: 0, minute: 0, second: 0)) - .seconds(1)
            after = jump > o.instant ? jump : o.instant
        }
        return nil
    }
}

extension CivilDate {
    /// `2026-12-07`.
    public var isoText: String { TOMLSubset.dateText(self) }

    /// The ISO 8601 week (Monday first; week 1 holds the year's first Thursday) and the year it
    /// belongs to, which differs from the date's year near New Year (2027-01-01 is in 2026's week 53).
    public var isoWeek: (year: Int, week: Int) {
        let isoWeekday = Int64((weekday + 6) % 7)  // Monday 0 ... Sunday 6
        let thursday = CivilDate(daysSinceEpoch: daysSinceEpoch.minus(isoWeekday).plus(3))
        let january1 = CivilDate(year: thursday.year, month: 1, day: 1)
        return (thursday.year, Int(thursday.daysSinceEpoch.minus(january1.daysSinceEpoch) / 7) + 1)
    }
}

extension NamedDay {
    /// A day word alone, as WHEN takes it with a time (`tomorrow`, `mon`, `dec 24`, `24 dec`),
    /// or a date `2026-12-07` (as `.monthDay` does not hold a year, that is `date(of:)`'s case).
    /// Nil for anything else.
    public static func parse(_ text: String) -> NamedDay? {
        let words = text.lowercased().split(separator: " ").map(String.init)
        if words.count == 1, let day = TimeWords.day(words[0]) { return day }
        guard words.count == 2 else { return nil }
        for (m, d) in [(words[0], words[1]), (words[1], words[0])] {
            if let month = TimeWords.months[m], let day = TimeWords.dayNumber(d), day <= TimeWords.longestMonth[month - 1] {
                return .monthDay(month: month, day: day)
            }
        }
        return nil
    }

    /// The local date a day word names on `today`: today's, tomorrow's, the next such weekday
    /// (today included) or the next such date (today included; `feb 29` waits for a leap year).
    public func date(from today: CivilDate) -> CivilDate? {
        switch self {
        case .today: return today
        case .tomorrow: return today.nextDay
        case .weekday(let w): return today.adding(days: (w - today.weekday + 7) % 7)
        case .monthDay(let month, let day):
            for year in today.year...(today.year + 8) {
                let d = CivilDate(year: year, month: month, day: day)
                if d.isValid, d >= today { return d }
            }
            return nil
        }
    }

    /// `2026-12-07` or a day word, as the local date it names on `today`; nil: neither.
    public static func date(of text: String, today: CivilDate) -> CivilDate? {
        if let d = TOMLSubset.date(text) { return WakeSpec.acceptedYears.contains(d.year) ? d : nil }
        return parse(text)?.date(from: today)
    }
}

extension StandingAlarm {
    /// Its `--weeks` and `--every` rules, those that read; nil for a one-off or an alarm that gives none.
    public func dayRules(zone: TimeZoneRules) -> DayRules? {
        guard days != 0, options[AlarmOption.weeks.name] != nil || options[AlarmOption.every.name] != nil else { return nil }
        return DayRules(options: options, created: created, zone: zone)
    }
}

extension StandingAlarm {
    /// Its days as `wake list` and the D-Bus API say them, the rules after them
    /// (`weekdays in odd weeks`); empty for a one-off.
    public func daysText(zone: TimeZoneRules) -> String {
        days == 0 ? "" : daySet.canonical + (dayRules(zone: zone)?.phrase ?? "")
    }
}
