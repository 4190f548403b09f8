import Testing
import WakeCore

/// The forms people type (issue 43): a day with a time in either order (`tomorrow 7am`, `mon
/// 6:30`, `dec 24 8:00`), `noon` and `midnight`, `in DURATION`; each against the same moment
/// written as ISO 8601 (`2026-12-24T08:00`), in several zones, over days that include
/// daylight-saving changes; and the refusals, each one line saying what was expected.
@Suite("Time forms: days, noon, in DURATION")
struct DayWordsTests {
    static let weekdayNames = ["sun", "monday", "Tue", "wed", "THURSDAY", "fri", "Sat"]
    static let monthNames = ["jan", "February", "mar", "apr", "May", "june", "jul", "aug", "sept", "oct", "nov", "December"]

    func resolve(_ text: String, now: Instant, in zone: TimeZoneRules) throws -> Deadline {
        try Schedule.resolve(WakeSpec(parsing: text), token: text, now: now, zone: zone)
    }

    /// The same moment as a local date and time, the oracle every form is held to.
    func iso(_ date: CivilDate, _ h: Int, _ m: Int, now: Instant, in zone: TimeZoneRules) throws -> Deadline {
        let text = "\(date.year)-\(two(date.month))-\(two(date.day))T\(two(h)):\(two(m))"
        return try Schedule.resolve(WakeSpec(parsing: text), token: text, now: now, zone: zone)
    }

    func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// A 12-hour spelling of a time (`7am`, `12:30 pm`), or the 24-hour one.
    func clock(_ h: Int, _ m: Int, twelve: Bool) -> String {
        guard twelve else { return "\(two(h)):\(two(m))" }
        let hour = h % 12 == 0 ? 12 : h % 12
        return (m == 0 ? "\(hour)" : "\(hour):\(two(m))") + (h < 12 ? "am" : " pm")
    }

    @Test("every day form is the ISO 8601 date it names, across DST days in four zones", .timeLimit(.minutes(2)))
    func againstISO() throws {
        let zones = [TimeZoneRules.utc, try zone("Europe/Berlin"), try zone("America/New_York"), try zone("Australia/Lord_Howe")]
        var rng = PropertyRNG(seed: 0x4341_5953)
        // Nows spread over two years, with a day before each European and American change.
        var nows: [Instant] = [utc(2026, 3, 28, 23, 30), utc(2026, 10, 24, 22, 0), utc(2026, 3, 7, 12), utc(2026, 10, 31, 3)]
        for _ in 0..<120 { nows.append(utc(2026, 1, 1) + .seconds(Int64(rng.below(2 * 366 * 86_400)))) }
        var checked = 0
        for zone in zones {
            for now in nows {
                let today = zone.localTime(at: now).date
                // Times in and around the 02:00-03:00 hours that DST moves, and any.
                let h = rng.chance(40) ? rng.pick([1, 2, 3]) : rng.below(24)
                let m = rng.pick([0, 15, 30, 59])
                let time = clock(h, m, twelve: rng.chance(50))
                // tomorrow, either order.
                let tomorrow = try iso(today.adding(days: 1), h, m, now: now, in: zone)
                #expect(try resolve("tomorrow \(time)", now: now, in: zone) == tomorrow, "tomorrow \(time) at \(now) in \(zone.name)")
                #expect(try resolve("\(time) Tomorrow", now: now, in: zone) == tomorrow)
                // A weekday: the first such day from today whose time is ahead.
                let w = rng.below(7)
                var date = today
                while !(date.weekday == w && zone.instant(for: LocalDateTime(date: date, hour: h, minute: m, second: 0)) > now) {
                    date = date.adding(days: 1)
                }
                #expect(try resolve("\(Self.weekdayNames[w]) \(time)", now: now, in: zone) == iso(date, h, m, now: now, in: zone),
                        "\(Self.weekdayNames[w]) \(time) at \(now) in \(zone.name)")
                // A date without a year: this year's, else next year's.
                let month = 1 + rng.below(12), day = 1 + rng.below(28)
                var year = today.year
                if zone.instant(for: LocalDateTime(date: CivilDate(year: year, month: month, day: day), hour: h, minute: m, second: 0)) <= now {
                    year += 1
                }
                let expected = try iso(CivilDate(year: year, month: month, day: day), h, m, now: now, in: zone)
                let name = Self.monthNames[month - 1]
                #expect(try resolve("\(name) \(day) \(time)", now: now, in: zone) == expected, "\(name) \(day) \(time) at \(now) in \(zone.name)")
                #expect(try resolve("\(time) \(day) \(name)", now: now, in: zone) == expected)
                // noon and midnight are 12:00 and 00:00; today, when ahead.
                #expect(try resolve("noon", now: now, in: zone) == resolve("12:00", now: now, in: zone))
                #expect(try resolve("midnight", now: now, in: zone) == resolve("00:00", now: now, in: zone))
                let todays = LocalDateTime(date: today, hour: h, minute: m, second: 0)
                if zone.instant(for: todays) > now {
                    #expect(try resolve("today \(time)", now: now, in: zone) == iso(today, h, m, now: now, in: zone))
                } else {
                    #expect(throws: ScheduleError.self) { try resolve("today \(time)", now: now, in: zone) }
                }
                checked += 1
            }
        }
        #expect(checked == 4 * 124)
    }

    @Test("a time in a spring-forward gap rings when the clocks jump, said; a repeated time at its first pass")
    func daylightSaving() throws {
        let berlin = try zone("Europe/Berlin")
        // Saturday 28 March 2026, noon: Sunday 29 March 02:30 does not exist in Berlin.
        let now = utc(2026, 3, 28, 11)
        for text in ["tomorrow 2:30am", "sun 02:30", "mar 29 2:30", "29 march 2:30 am"] {
            let d = try resolve(text, now: now, in: berlin)
            #expect(d.instant == utc(2026, 3, 29, 1, 0), "\(text): at the jump, 03:00 CEST")
            #expect(d.shiftedFrom == LocalDateTime(date: CivilDate(year: 2026, month: 3, day: 29), hour: 2, minute: 30, second: 0))
        }
        // Sunday 25 October 2026 02:30 happens twice: the first pass, 00:30 UTC.
        let autumn = utc(2026, 10, 24, 11)
        for text in ["tomorrow 2:30am", "sun 2:30", "oct 25 02:30"] {
            #expect(try resolve(text, now: autumn, in: berlin).instant == utc(2026, 10, 25, 0, 30), "\(text)")
        }
    }

    @Test("in DURATION is +DURATION, in the span grammar or in words")
    func inSpans() throws {
        let now = utc(2026, 11, 28, 3)
        let cases: [(String, String)] = [
            ("in 20m", "+20m"), ("in 20 minutes", "+20m"), ("in 1 minute", "+1m"), ("in 1h 30m", "+1h30m"),
            ("in 1 hour 30 minutes", "+1h30m"), ("in 1h30m", "+1h30m"), ("IN 2 Hours", "+2h"), ("in 90 s", "+90s"),
            ("in 1 day 2 hrs", "+1d2h"), ("in 500ms", "+500ms"), ("in 1 hour 30m", "+1h30m"),
        ]
        for (words, plus) in cases {
            #expect(try WakeSpec(parsing: words) == WakeSpec(parsing: plus), "\(words)")
            #expect(try WakeSpec(parsing: words.split(separator: " ").map(String.init)) == WakeSpec(parsing: plus), "\(words) unquoted")
            #expect(try resolve(words, now: now, in: .utc) == resolve(plus, now: now, in: .utc))
        }
    }

    @Test("the same words unquoted (as the shell splits them) and quoted")
    func quotedOrNot() throws {
        for text in ["tomorrow 7am", "7:30 pm mon", "dec 24 8:00", "24 Dec 8 am", "noon", "in 20 minutes", "friday 06:30"] {
            let words = text.split(separator: " ").map(String.init)
            #expect(try WakeSpec(parsing: words) == WakeSpec(parsing: text), "\(text)")
        }
        #expect(try WakeSpec(parsing: ["tomorrow", "7:30", "pm"]) == .dayTime(.tomorrow, hour: 19, minute: 30, second: 0))
        #expect(try WakeSpec(parsing: "dec 24 8:00") == .dayTime(.monthDay(month: 12, day: 24), hour: 8, minute: 0, second: 0))
        #expect(try WakeSpec(parsing: "Mon 6:30") == .dayTime(.weekday(1), hour: 6, minute: 30, second: 0))
        #expect(try WakeSpec(parsing: "midnight") == .timeOfDay(hour: 0, minute: 0, second: 0))
    }

    @Test("refused, one line saying what was expected: a day without a time, in without a span, two days, two times, no such date, an unknown word")
    func refusals() throws {
        let cases: [(String, String)] = [
            ("tomorrow", "'tomorrow' needs a time too, as 'tomorrow 7am'"),
            ("mon", "'mon' needs a time too"),
            ("dec 24", "'dec 24' needs a time too"),
            ("in", "'in' needs a span after it"),
            ("in 20", "'in 20' has no unit"),
            ("in minutes", "'minutes' has no number before it"),
            ("tomorrow mon 7am", "two days, 'tomorrow' and 'mon'"),
            ("dec 24 tomorrow 8:00", "two days"),
            ("7am 8am", "two times, '7am' and '8am'"),
            ("tomorrow noon 7am", "two times"),
            ("feb 30 7am", "no such date: feb 30"),
            ("apr 31 7am", "no such date"),
            ("dec 7am", "'dec' needs a day of the month"),
            ("banana", "unknown word 'banana'"),
            ("banana 7am", "unknown word 'banana'"),
            ("tomorrow +8h", "'+8h' does not go with a day"),
            ("7am in 5m", "'in' goes first"),
        ]
        for (text, reason) in cases {
            do {
                let spec = try WakeSpec(parsing: text)
                Issue.record("'\(text)' parsed as \(spec)")
            } catch {
                #expect(error.reason.contains(reason), "\(text): \(error.reason)")
                #expect(error.description.contains(WakeSpec.acceptedForms) && !error.description.contains("\n"))
            }
        }
        // feb 29 is a date: it waits for a leap year.
        let d = try resolve("feb 29 7:00", now: utc(2026, 11, 28), in: .utc)
        #expect(d.instant == utc(2028, 2, 29, 7))
    }
}
