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

    @Test("refused with the line: a weekly rule (as holidays are), a zone this machine does not know")
    func refusals() {
        let weekly = Self.calendar(Self.event(":20270301T090000", "Stand-up", extra: "RRULE:FREQ=WEEKLY\r\n"))
        do {
            _ = try EventCalendar.parse(weekly, zones: Self.zones)
            Issue.record("a weekly rule was read")
        } catch {
            #expect(error.description == "line 6: RRULE 'FREQ=WEEKLY' is not yearly; only FREQ=YEARLY rules are read", "\(error)")
        }
        let windows = Self.calendar(Self.event(";TZID=W. Europe Standard Time:20270301T090000", "Outlook"))
        do {
            _ = try EventCalendar.parse(windows, zones: Self.zones)
            Issue.record("an unknown TZID was read")
        } catch {
            #expect(error.line == 4 && error.message.hasPrefix("TZID 'W. Europe Standard Time' is not a time zone"), "\(error)")
        }
    }
}
