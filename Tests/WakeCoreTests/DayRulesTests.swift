import Testing
import WakeCore

/// Issue 54's shift patterns in the pure schedule: `--weeks odd|even` (ISO 8601 weeks) and
/// `--every Nd --from DATE`, with `--days`, across years of 53 weeks, months and DST changes.
@Suite("Day rules: odd and even weeks, every Nth day")
struct DayRulesTests {
    static func alarm(_ options: [String: String], days: DaySet = .daily, hour: Int = 6, minute: Int = 30,
                      created: Instant = utc(2026, 12, 1)) -> StandingAlarm {
        StandingAlarm(name: "shift", hour: hour, minute: minute, second: 0, days: days.bits, date: nil, options: options,
                      created: created)
    }

    /// The local dates of the first `count` occurrences after `after`, as the plan walks them.
    static func dates(_ a: StandingAlarm, after: Instant, count: Int, zone: TimeZoneRules = .utc) -> [CivilDate] {
        var out: [CivilDate] = []
        var t = after
        while out.count < count, let o = StandingSchedule.occurrence(of: a, after: t, zone: zone) {
            out.append(zone.localTime(at: o.instant).date)
            t = o.instant
        }
        return out
    }

    static func day(_ y: Int, _ m: Int, _ d: Int) -> CivilDate { CivilDate(year: y, month: m, day: d) }

    @Test("ISO weeks: week 53 years and the days around New Year belong to the year of their Thursday")
    func isoWeeks() {
        #expect(Self.day(2026, 12, 28).isoWeek == (2026, 53))
        #expect(Self.day(2027, 1, 3).isoWeek == (2026, 53))
        #expect(Self.day(2027, 1, 4).isoWeek == (2027, 1))
        #expect(Self.day(2020, 12, 31).isoWeek == (2020, 53))
        #expect(Self.day(2021, 1, 1).isoWeek == (2020, 53))
        #expect(Self.day(2024, 12, 30).isoWeek == (2025, 1))
        #expect(Self.day(2008, 12, 29).isoWeek == (2009, 1))
        #expect(Self.day(2027, 3, 1).isoWeek == (2027, 9))
        // Every date of 1990 to 2040 against the definition: the Monday of week 1 holds 4 January.
        var d = Self.day(1990, 1, 1)
        while d.year < 2041 {
            let (year, week) = d.isoWeek
            let jan4 = Self.day(year, 1, 4)
            let week1Monday = jan4.adding(days: -((jan4.weekday + 6) % 7))
            #expect(Int(d.daysSinceEpoch - week1Monday.daysSinceEpoch) / 7 + 1 == week, "\(d)")
            d = d.nextDay
        }
    }

    @Test("odd weeks: 2026's week 53 and 2027's week 1 both ring, two odd weeks in a row; even weeks the others")
    func oddWeeksOverNewYear() {
        let odd = Self.alarm(["weeks": "odd"], days: .weekdays)
        let ringing = Self.dates(odd, after: utc(2026, 12, 21), count: 11)
        let expected = [28, 29, 30, 31].map { Self.day(2026, 12, $0) } + [1, 4, 5, 6, 7, 8, 18].map { Self.day(2027, 1, $0) }
        #expect(ringing == expected)
        let even = Self.alarm(["weeks": "even"], days: DaySet(weekdays: [1]))  // Mondays
        #expect(Self.dates(even, after: utc(2026, 12, 14), count: 3)
                == [Self.day(2026, 12, 21), Self.day(2027, 1, 11), Self.day(2027, 1, 25)])
    }

    @Test("an even week's spring-forward Sunday: a time in the gap rings when the clocks jump, that day")
    func weeksOnADSTDay() throws {
        let berlin = try zone("Europe/Berlin")
        // Sunday 2027-03-28, week 12: 02:30 does not exist; 03:00 CEST is 01:00 UTC.
        let a = Self.alarm(["weeks": "even"], days: DaySet(weekdays: [0]), hour: 2, minute: 30)
        let o = try #require(StandingSchedule.occurrence(of: a, after: utc(2027, 3, 22), zone: berlin))
        #expect(o.instant == utc(2027, 3, 28, 1) && o.shiftedFrom == local(2027, 3, 28, 2, 30))
        // And the odd week's Sunday before it is not one of its days.
        #expect(StandingSchedule.occurrence(of: a, after: utc(2027, 3, 15), zone: berlin)?.instant == o.instant)
    }

    @Test("every 3 days across February's end, from the date given; days before it do not ring")
    func everyNthAcrossMonths() {
        let a = Self.alarm(["every": "3d", "from": "2027-01-30"])
        let ringing = Self.dates(a, after: utc(2027, 1, 1), count: 12)
        #expect(ringing == [Self.day(2027, 1, 30)] + [2, 5, 8, 11, 14, 17, 20, 23, 26].map { Self.day(2027, 2, $0) }
                + [Self.day(2027, 3, 1), Self.day(2027, 3, 4)])
    }

    @Test("every 2 days over the spring-forward change: the same wall time each ringing day")
    func everyNthOverDST() throws {
        let berlin = try zone("Europe/Berlin")
        let a = Self.alarm(["every": "2d", "from": "2027-03-27"])
        var t = utc(2027, 3, 20)
        var seen: [Instant] = []
        for _ in 0..<3 {
            guard let o = StandingSchedule.occurrence(of: a, after: t, zone: berlin) else { break }
            seen.append(o.instant)
            t = o.instant
        }
        #expect(seen == [utc(2027, 3, 27, 5, 30), utc(2027, 3, 29, 4, 30), utc(2027, 3, 31, 4, 30)])
    }

    @Test("--every and --days together: both must hold; --every 7d from a Monday on Tuesdays never rings")
    func everyWithDays() {
        let a = Self.alarm(["every": "2d", "from": "2027-03-01"], days: .weekdays)
        #expect(Self.dates(a, after: utc(2027, 2, 28), count: 5) == [1, 3, 5, 9, 11].map { Self.day(2027, 3, $0) })
        let never = Self.alarm(["every": "7d", "from": "2027-03-01"], days: DaySet(weekdays: [2]))
        #expect(StandingSchedule.occurrence(of: never, after: utc(2027, 2, 28), zone: .utc) == nil)
        // The plan of one that never rings waits, unarmed, as a calendar covering every day does.
        let plan = StandingSchedule.plan(never, record: AlarmRecord(name: "shift"), lateLimit: .zero, now: utc(2027, 2, 28), zone: .utc)
        #expect(plan.next == nil && !plan.isDone)
    }

    @Test("every 366 days on Mondays: the first that is both, years ahead; odd weeks with every 14 days meet after a week 53")
    func farAhead() {
        let a = Self.alarm(["every": "366d", "from": "2027-03-02"], days: DaySet(weekdays: [1]))
        let o = StandingSchedule.occurrence(of: a, after: utc(2027, 3, 1), zone: .utc)
        let date = o.map { TimeZoneRules.utc.localTime(at: $0.instant).date }
        #expect(date?.weekday == 1 && date.map { ($0.daysSinceEpoch - Self.day(2027, 3, 2).daysSinceEpoch) % 366 } == 0)
        // Mondays of even weeks, every 14 days from one: odd weeks come only once 2032's week 53 shifts the count.
        let b = Self.alarm(["every": "14d", "from": "2027-03-08", "weeks": "odd"], days: DaySet(weekdays: [1]))
        let first = StandingSchedule.occurrence(of: b, after: utc(2027, 3, 1), zone: .utc)
            .map { TimeZoneRules.utc.localTime(at: $0.instant).date }
        #expect(first.map { $0.year >= 2033 && $0.isoWeek.week % 2 == 1 } == true, "\(String(describing: first))")
    }

    @Test("a stored value that does not read is left out (the daemon says it); the alarm rings on its other days")
    func badStoredValues() {
        #expect(DayRules(options: ["weeks": "odq", "every": "1d"], created: utc(2027, 3, 1), zone: .utc).isEmpty)
        let a = Self.alarm(["weeks": "odq"])
        #expect(Self.dates(a, after: utc(2027, 3, 1), count: 2) == [Self.day(2027, 3, 1), Self.day(2027, 3, 2)])
        // --every without --from (a hand edit) counts from the day it was added; a day word from that day.
        let b = Self.alarm(["every": "2d"], created: utc(2027, 3, 3, 12))
        #expect(Self.dates(b, after: utc(2027, 3, 3, 12), count: 2) == [Self.day(2027, 3, 5), Self.day(2027, 3, 7)])
        let c = Self.alarm(["every": "2d", "from": "fri"], created: utc(2027, 3, 3, 12))
        #expect(Self.dates(c, after: utc(2027, 3, 3, 12), count: 2) == [Self.day(2027, 3, 5), Self.day(2027, 3, 7)])
    }

    @Test("the option table's values: Nd from 2 to 366; a date or a day word as WHEN takes it")
    func optionValues() {
        #expect(AlarmOption.every.parse("3d") == .success(.number(3)))
        for bad in ["1d", "367d", "3", "d", "-3d", "3 d", "٣d"] {
            #expect(AlarmOption.every.parse(bad).problem?.contains("give a number of days from 2 to 366, as 3d") == true, "\(bad)")
        }
        for good in ["2026-12-07", "tomorrow", "mon", "Friday", "dec 24", "24 Dec", "today"] {
            #expect(AlarmOption.from.parse(good) == .success(.text(good)), "\(good)")
        }
        for bad in ["yesterday", "2026-02-30", "feb 30", "dec", "24", "next mon"] {
            #expect(AlarmOption.from.parse(bad).problem?.hasPrefix("--from: invalid date") == true, "\(bad)")
        }
        #expect(AlarmOption.weeks.parse("odd") == .success(.text("odd")))
        // The date a day word names: today included.
        let monday = Self.day(2027, 3, 1)
        #expect(NamedDay.date(of: "mon", today: monday) == monday)
        #expect(NamedDay.date(of: "sun", today: monday) == Self.day(2027, 3, 7))
        #expect(NamedDay.date(of: "tomorrow", today: monday) == Self.day(2027, 3, 2))
        #expect(NamedDay.date(of: "feb 29", today: monday) == Self.day(2028, 2, 29))
        #expect(NamedDay.date(of: "mar 1", today: monday) == monday)
    }

    @Test("ISO week 53 ahead: found from its own week and from a year before it, not when none is within a year")
    func weekFiftyThree() {
        let odd = DayRules(weeks: .odd)
        #expect(odd.weekFiftyThree(from: Self.day(2026, 12, 30)) == Self.day(2026, 12, 28))
        #expect(odd.weekFiftyThree(from: Self.day(2026, 1, 5)) == Self.day(2026, 12, 28))
        #expect(odd.weekFiftyThree(from: Self.day(2027, 3, 1)) == nil)
        #expect(odd.weekFiftyThree(from: Self.day(2032, 1, 1)) == Self.day(2032, 12, 27))
        #expect(DayRules(every: .init(days: 3, from: Self.day(2026, 12, 1))).weekFiftyThree(from: Self.day(2026, 12, 1)) == nil)
    }
}

private extension Result where Failure == AlarmOption.Problem {
    var problem: String? { if case .failure(let p) = self { return p.message } else { return nil } }
}
