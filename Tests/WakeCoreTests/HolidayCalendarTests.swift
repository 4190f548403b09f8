import Testing
import WakeCore

/// Reading an iCalendar file into the days an alarm skips: what calendar programs export (all-day
/// events, yearly rules, exceptions, folded lines) and what must be refused with its line rather
/// than read wrongly.
@Suite("Holiday calendars (iCalendar)")
struct HolidayCalendarTests {
    static func calendar(_ body: String, zone: TimeZoneRules = .utc) throws -> HolidayCalendar {
        try HolidayCalendar.parse("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n" + body + "END:VCALENDAR\r\n", zone: zone)
    }

    static func d(_ y: Int, _ m: Int, _ day: Int) -> CivilDate { CivilDate(year: y, month: m, day: day) }

    @Test func allDayEventEndsTheDayBeforeDTEND() throws {
        let c = try Self.calendar("BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261224\r\nDTEND;VALUE=DATE:20261227\r\nSUMMARY:Christmas\r\nEND:VEVENT\r\n")
        #expect(c.event(on: Self.d(2026, 12, 23)) == nil)
        #expect(c.event(on: Self.d(2026, 12, 24))?.summary == "Christmas")
        #expect(c.event(on: Self.d(2026, 12, 26)) != nil)
        #expect(c.event(on: Self.d(2026, 12, 27)) == nil)
        #expect(c.event(on: Self.d(2027, 12, 24)) == nil, "no rule: once")
    }

    @Test func durationAndNoEndMeanTheirDays() throws {
        let c = try Self.calendar("""
            BEGIN:VEVENT\nDTSTART;VALUE=DATE:20270301\nDURATION:P1W\nSUMMARY:Skiing\nEND:VEVENT
            BEGIN:VEVENT\nDTSTART;VALUE=DATE:20270501\nSUMMARY:Labour Day\nEND:VEVENT\n
            """)
        #expect(c.event(on: Self.d(2027, 3, 7))?.summary == "Skiing")
        #expect(c.event(on: Self.d(2027, 3, 8)) == nil)
        #expect(c.event(on: Self.d(2027, 5, 1))?.summary == "Labour Day")
        #expect(c.event(on: Self.d(2027, 5, 2)) == nil)
    }

    @Test func yearlyRuleWithExceptionsCountAndUntil() throws {
        let c = try Self.calendar("""
            BEGIN:VEVENT\nDTSTART;VALUE=DATE:20261003\nRRULE:FREQ=YEARLY\nEXDATE;VALUE=DATE:20281003,20291003\nSUMMARY:Unity Day\nEND:VEVENT
            BEGIN:VEVENT\nDTSTART;VALUE=DATE:20260101\nRRULE:FREQ=YEARLY;COUNT=2\nSUMMARY:New Year\nEND:VEVENT
            BEGIN:VEVENT\nDTSTART;VALUE=DATE:20260704\nRRULE:FREQ=YEARLY;UNTIL=20270704\nSUMMARY:Fourth\nEND:VEVENT\n
            """)
        #expect(c.event(on: Self.d(2026, 10, 3)) != nil)
        #expect(c.event(on: Self.d(2027, 10, 3)) != nil)
        #expect(c.event(on: Self.d(2028, 10, 3)) == nil)
        #expect(c.event(on: Self.d(2030, 10, 3)) != nil)
        #expect(c.event(on: Self.d(2025, 10, 3)) == nil, "not before DTSTART")
        #expect(c.event(on: Self.d(2027, 1, 1)) != nil)
        #expect(c.event(on: Self.d(2028, 1, 1)) == nil, "COUNT=2")
        #expect(c.event(on: Self.d(2027, 7, 4)) != nil)
        #expect(c.event(on: Self.d(2028, 7, 4)) == nil, "UNTIL")
    }

    @Test func aRepeatOverNewYearAndTheLeapDay() throws {
        let c = try Self.calendar("""
            BEGIN:VEVENT\nDTSTART;VALUE=DATE:20261231\nDTEND;VALUE=DATE:20270102\nRRULE:FREQ=YEARLY\nSUMMARY:Turn\nEND:VEVENT
            BEGIN:VEVENT\nDTSTART;VALUE=DATE:20280229\nRRULE:FREQ=YEARLY\nSUMMARY:Leap\nEND:VEVENT\n
            """)
        #expect(c.event(on: Self.d(2028, 1, 1))?.summary == "Turn")
        #expect(c.event(on: Self.d(2028, 1, 2)) == nil)
        #expect(c.event(on: Self.d(2032, 2, 29))?.summary == "Leap")
        #expect(c.event(on: Self.d(2029, 3, 1)) == nil, "29 February repeats only in leap years")
    }

    @Test func timedEventsCoverTheDaysTheyTouchInTheZone() throws {
        let berlin = try zone("Europe/Berlin")
        // 23:30 UTC on 1 March is 00:30 on 2 March in Berlin; it ends at 01:00 on 3 March, Berlin.
        let c = try Self.calendar("BEGIN:VEVENT\nDTSTART:20270301T233000Z\nDTEND:20270303T000000Z\nSUMMARY:Night shift\nEND:VEVENT\n", zone: berlin)
        #expect(c.event(on: Self.d(2027, 3, 1)) == nil)
        #expect(c.event(on: Self.d(2027, 3, 2)) != nil)
        #expect(c.event(on: Self.d(2027, 3, 3)) != nil)
        // Wall times as written (a TZID or floating time): ends at midnight, so the next day is free.
        let floating = try Self.calendar("BEGIN:VEVENT\nDTSTART;TZID=Europe/Berlin:20270310T090000\nDTEND;TZID=Europe/Berlin:20270311T000000\nEND:VEVENT\n")
        #expect(floating.event(on: Self.d(2027, 3, 10))?.summary == "a day of the calendar")
        #expect(floating.event(on: Self.d(2027, 3, 11)) == nil)
    }

    @Test func foldedLinesAndEscapedText() throws {
        let c = try Self.calendar("BEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20270405\r\nSUMMARY:Easter\r\n  Monday\\, Bavaria\\; public\r\nEND:VEVENT\r\n")
        #expect(c.event(on: Self.d(2027, 4, 5))?.summary == "Easter Monday, Bavaria; public")
    }

    @Test func lastDayLooksAhead() throws {
        let c = try Self.calendar("BEGIN:VEVENT\nDTSTART;VALUE=DATE:20270105\nEND:VEVENT\n")
        #expect(c.lastDay(from: Self.d(2027, 1, 1), within: 60) == Self.d(2027, 1, 5))
        #expect(c.lastDay(from: Self.d(2027, 1, 6), within: 60) == nil)
    }

    @Test(arguments: [
        ("BEGIN:VEVENT\nDTSTART;VALUE=DATE:20270525\nRRULE:FREQ=YEARLY;BYDAY=-1MO\nEND:VEVENT\n", 5, "BYDAY"),
        ("BEGIN:VEVENT\nDTSTART;VALUE=DATE:20270525\nRRULE:FREQ=WEEKLY\nEND:VEVENT\n", 5, "not yearly"),
        ("BEGIN:VEVENT\nDTSTART;VALUE=DATE:20270230\nEND:VEVENT\n", 4, "not a calendar date"),
        ("BEGIN:VEVENT\nDTSTART;VALUE=DATE:20270510\nDTEND;VALUE=DATE:20270510\nEND:VEVENT\n", 5, "not after DTSTART"),
        ("BEGIN:VEVENT\nDTSTART;VALUE=DATE:20270510\nDURATION:PT0S\nEND:VEVENT\n", 5, "DURATION"),
        ("BEGIN:VEVENT\nSUMMARY:x\nEND:VEVENT\n", 5, "without DTSTART"),
        ("BEGIN:VEVENT\nDTSTART;VALUE=DATE:20270510\n", 3, "not ended"),
        ("this is not a calendar\n", 3, "NAME:value"),
    ])
    func refusedWithItsLine(body: String, line: Int, words: String) {
        #expect {
            _ = try Self.calendar(body)
        } throws: { error in
            guard let e = error as? HolidayCalendar.ParseError else { return false }
            return e.line == line && e.message.contains(words)
        }
    }

    @Test func notACalendarAtAll() {
        #expect(throws: HolidayCalendar.ParseError.self) { try HolidayCalendar.parse("hello\n", zone: .utc) }
        #expect(throws: HolidayCalendar.ParseError.self) { try HolidayCalendar.parse("", zone: .utc) }
    }
}
