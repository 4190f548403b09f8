import Testing
import WakeCore

/// Issue 54's `--before-first-event`: the first timed event of a local day in an iCalendar file,
/// with events floating, in UTC and in another zone; all-day ones ignored; a day with none.
@Suite("First event of the day")
struct FirstEventScheduleTests {
    static func calendar(_ events: String) -> String {
        "BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + events + "END:VCALENDAR\r\n"
    }
    static func event(_ start: String, _ summary: String, extra: String = "") -> String {
        "BEGIN:VEVENT\r\nDTSTART\(start)\r\nSUMMARY:\(summary)\r\n\(extra)END:VEVENT\r\n"
    }
    static func zones(_ name: String) -> TimeZoneRules? { try? zone(name) }

    @Test("the earliest start of the day in the alarm's zone: floating, UTC and TZID events; all-day ones are none")
    func firstOfTheDay() throws {
        let berlin = try zone("Europe/Berlin")
        let text = Self.calendar(Self.event(";VALUE=DATE:20270301", "Holiday")
            + Self.event(":20270301T100000", "Stand-up")                               // 10:00 Berlin (floating)
            + Self.event(":20270301T080000Z", "Review")                                // 09:00 Berlin
            + Self.event(";TZID=America/New_York:20270301T020000", "Call")            // 08:00 Berlin
            + Self.event(";TZID=\"Asia/Tokyo\":20270302T053000", "Tokyo"))            // 21:30 Berlin on the 1st
        let cal = try EventCalendar.parse(text, zones: Self.zones)
        #expect(cal.events.count == 4, "the all-day event is none")
        let first = try #require(cal.first(on: CivilDate(year: 2027, month: 3, day: 1), zone: berlin))
        #expect(first.start == utc(2027, 3, 1, 7) && first.summary == "Call")
        // In UTC the New York call (07:00Z) is still first. In Tokyo the floating stand-up is at 10:00 there, before the
        // call (16:00) and the review (17:00), and the Tokyo event is the 2nd's.
        #expect(cal.first(on: CivilDate(year: 2027, month: 3, day: 1), zone: .utc)?.start == utc(2027, 3, 1, 7))
        let tokyo = try zone("Asia/Tokyo")
        #expect(cal.first(on: CivilDate(year: 2027, month: 3, day: 1), zone: tokyo)?.start == utc(2027, 3, 1, 1))
        #expect(cal.first(on: CivilDate(year: 2027, month: 3, day: 2), zone: tokyo)?.summary == "Tokyo")
        let schedule = FirstEventSchedule(calendar: cal, lead: .seconds(5400), label: "work.ics")
        #expect(schedule.ring(on: CivilDate(year: 2027, month: 3, day: 1), zone: berlin)?.instant == utc(2027, 3, 1, 5, 30))
        #expect(schedule.ring(on: CivilDate(year: 2027, month: 3, day: 3), zone: berlin) == nil, "a day with no timed event")
    }

    @Test("a yearly event and its exception; a floating time in a spring-forward gap starts when the clocks jump")
    func yearlyAndDST() throws {
        let berlin = try zone("Europe/Berlin")
        let text = Self.calendar(Self.event(":20260328T023000", "Night shift", extra: "RRULE:FREQ=YEARLY\r\nEXDATE:20280328T023000\r\n"))
        let cal = try EventCalendar.parse(text, zones: Self.zones)
        // 2027-03-28 02:30 does not exist in Berlin: 03:00 CEST, 01:00 UTC.
        #expect(cal.first(on: CivilDate(year: 2027, month: 3, day: 28), zone: berlin)?.start == utc(2027, 3, 28, 1))
        #expect(cal.first(on: CivilDate(year: 2028, month: 3, day: 28), zone: berlin) == nil, "EXDATE")
        #expect(cal.first(on: CivilDate(year: 2029, month: 3, day: 28), zone: berlin) != nil)
    }

    @Test("a weekly series on its days, every other week, to its UNTIL or COUNT, less its EXDATEs; a daily one; each in its zone")
    func series() throws {
        let berlin = try zone("Europe/Berlin")
        func day(_ m: Int, _ d: Int) -> CivilDate { CivilDate(year: 2027, month: m, day: d) }
        // Monday 1 March 2027: a stand-up on Mondays and Wednesdays at 09:00 Berlin, every other week, 6 times, one left out.
        let text = Self.calendar(Self.event(";TZID=Europe/Berlin:20270301T090000", "Stand-up",
                                            extra: "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;COUNT=6\r\n"
                                                + "EXDATE;TZID=Europe/Berlin:20270315T090000\r\n")
            + Self.event(":20270401T070000Z", "Daily", extra: "RRULE:FREQ=DAILY;INTERVAL=3;UNTIL=20270410T000000Z\r\n")
            + Self.event(":20270301T080000", "Weekly", extra: "RRULE:FREQ=WEEKLY;UNTIL=20270322\r\n"))
        let cal = try EventCalendar.parse(text, zones: Self.zones)
        let standUps = [day(3, 3), day(3, 17), day(3, 29), day(3, 31)]  // and the 1st, after the 08:00 weekly
        for d in (1...31).map({ day(3, $0) }) {
            let first = cal.first(on: d, zone: berlin)
            if standUps.contains(d) {
                let nine = berlin.instant(for: LocalDateTime(date: d, hour: 9, minute: 0, second: 0))
                #expect(first?.summary == "Stand-up" && first?.start == nine, "\(d)")
            } else if [day(3, 1), day(3, 8), day(3, 15), day(3, 22)].contains(d) {
                #expect(first?.summary == "Weekly", "the plain weekly series, DTSTART's weekday: \(d)")
            } else {
                #expect(first == nil, "\(d): \(String(describing: first))")
            }
        }
        #expect(cal.first(on: day(4, 5), zone: berlin) == nil, "COUNT=6 (one of them an EXDATE) ended on 31 March")
        #expect([1, 4, 7, 10].allSatisfy { cal.first(on: day(4, $0), zone: .utc)?.summary == "Daily" })
        #expect([2, 3, 5, 13].allSatisfy { cal.first(on: day(4, $0), zone: .utc) == nil }, "every third day, to UNTIL")
    }

    @Test("refused with the line: a monthly rule, a numbered BYDAY, an unknown zone; a holiday calendar refuses a weekly rule")
    func refusals() {
        for (rule, message) in [("FREQ=MONTHLY", "RRULE 'FREQ=MONTHLY' is not yearly; only FREQ=YEARLY, WEEKLY and DAILY rules are read"),
                                ("FREQ=WEEKLY;BYDAY=1MO", "RRULE's BYDAY '1MO' is not a plain weekday"),
                                ("FREQ=WEEKLY;BYMONTH=3", "RRULE part BYMONTH is not read in a weekly rule")] {
            let text = Self.calendar(Self.event(":20270301T090000", "Stand-up", extra: "RRULE:\(rule)\r\n"))
            do {
                _ = try EventCalendar.parse(text, zones: Self.zones)
                Issue.record("\(rule) was read")
            } catch {
                #expect(error.line == 6 && error.message.hasPrefix(message), "\(error)")
            }
        }
        let weekly = Self.calendar(Self.event(";VALUE=DATE:20270301", "Every Monday", extra: "RRULE:FREQ=WEEKLY\r\n"))
        #expect(throws: HolidayCalendar.ParseError.self) { try HolidayCalendar.parse(weekly, zone: .utc) }
        let windows = Self.calendar(Self.event(";TZID=W. Europe Standard Time:20270301T090000", "Outlook"))
        do {
            _ = try EventCalendar.parse(windows, zones: Self.zones)
            Issue.record("an unknown TZID was read")
        } catch {
            #expect(error.line == 4 && error.message.hasPrefix("TZID 'W. Europe Standard Time' is not a time zone"), "\(error)")
        }
    }
}
