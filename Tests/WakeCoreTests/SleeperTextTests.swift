import Testing
import WakeCore

/// Messages a sleeper can act on (issue 12 item 22): which day, how long, and whether a
/// daylight-saving change moved the alarm.
@Suite("Sleeper text")
struct SleeperTextTests {
    @Test("the day phrase: today, tomorrow, the weekday and date, the year when not this year")
    func dayPhrase() throws {
        let berlin = try zone("Europe/Berlin")
        let now = utc(2026, 11, 23, 22, 30)  // Mon 23 Nov 23:30 CET
        #expect(Formatting.dayPhrase(utc(2026, 11, 23, 22, 59, 59), now: now, zone: berlin) == "today")
        #expect(Formatting.dayPhrase(utc(2026, 11, 23, 23, 0), now: now, zone: berlin) == "tomorrow")  // 00:00 CET
        #expect(Formatting.dayPhrase(utc(2026, 11, 24, 6, 0), now: now, zone: berlin) == "tomorrow")
        #expect(Formatting.dayPhrase(utc(2026, 11, 25, 6, 0), now: now, zone: berlin) == "Wed 25 Nov")
        #expect(Formatting.dayPhrase(utc(2026, 12, 31, 6, 0), now: now, zone: berlin) == "Thu 31 Dec")
        #expect(Formatting.dayPhrase(utc(2027, 1, 4, 6, 0), now: now, zone: berlin) == "Mon 4 Jan 2027")
        #expect(Formatting.dayPhrase(utc(2026, 11, 22, 12, 0), now: now, zone: berlin) == "yesterday")
        // The same instant is "tomorrow" in Berlin and "today" in New York.
        let ny = try zone("America/New_York")
        #expect(Formatting.dayPhrase(utc(2026, 11, 24, 3, 0), now: now, zone: ny) == "today")
        // Across New Year: 1 January seen from 31 December is tomorrow, not a date with a year.
        #expect(Formatting.dayPhrase(utc(2027, 1, 1, 7), now: utc(2026, 12, 31, 22), zone: .utc) == "tomorrow")
    }

    static let waits: [(Duration, String)] = [
        (Duration.seconds(2 * 86_400 + 3 * 3600 + 59), "in 2d 3h"),
        (.seconds(23 * 3600 + 58 * 60 + 20), "in 23h 58m"),
        (.seconds(45), "in 45s"),
        (.milliseconds(44_001), "in 45s"),
        (.milliseconds(1), "in 1s"),
        (.seconds(12 * 60 + 5), "in 12m 5s"),
        (.seconds(86_400), "in 1d"),
        (.seconds(86_399), "in 23h 59m"),
        (.seconds(3600), "in 1h 0m"),
        (.seconds(60), "in 1m 0s"),
        (.zero, "now"),
        (.seconds(-5), "now"),
        (.seconds(3660 * 86_400), "in 3660d"),
    ]

    @Test("the wait phrase uses days for long waits", arguments: waits)
    func waitPhrase(_ wait: Duration, _ text: String) {
        #expect(Formatting.waitPhrase(wait) == text)
    }

    @Test("the armed line's account: clock time, day, wait")
    func ringsAt() throws {
        let berlin = try zone("Europe/Berlin")
        let now = utc(2026, 11, 23, 6, 2)  // 07:02 CET
        #expect(Formatting.ringsAt(utc(2026, 11, 24, 6, 0), now: now, zone: berlin) == "07:00 tomorrow, in 23h 58m")
        #expect(Formatting.ringsAt(utc(2026, 11, 23, 6, 2, 45), now: now, zone: berlin) == "07:02:45 today, in 45s")
        #expect(Formatting.ringsAt(utc(2026, 11, 25, 9, 30), now: now, zone: berlin) == "10:30 Wed 25 Nov, in 2d 3h")
    }

    @Test("a snooze's end ('snoozed until ...' on the console, the notification, wake list): the time, and the day when it is not today")
    func snoozedUntil() throws {
        let berlin = try zone("Europe/Berlin")
        let now = utc(2026, 11, 23, 15, 3, 57)  // Mon 23 Nov 16:03:57 CET
        #expect(Formatting.clockTimeAndDay(utc(2026, 11, 23, 15, 12, 57), now: now, zone: berlin, alwaysSeconds: true) == "16:12:57")
        #expect(Formatting.clockTimeAndDay(utc(2026, 11, 23, 22, 59), now: now, zone: berlin) == "23:59")
        // Past midnight in Berlin (23:30 UTC), though the same day in UTC.
        #expect(Formatting.clockTimeAndDay(utc(2026, 11, 23, 23, 30), now: now, zone: berlin, alwaysSeconds: true) == "00:30:00 tomorrow")
        #expect(Formatting.clockTimeAndDay(utc(2026, 11, 23, 23, 30), now: now, zone: .utc) == "23:30")
        // 90h for 90s, as before the ceiling: Saturday, said as such.
        #expect(Formatting.clockTimeAndDay(now + .seconds(90 * 3600), now: now, zone: berlin, alwaysSeconds: true) == "10:03:57 Fri 27 Nov")
        #expect(Formatting.clockTimeAndDay(utc(2026, 11, 28, 15, 3, 57), now: now, zone: berlin, alwaysSeconds: true)
                == "16:03:57 Sat 28 Nov")
    }

    @Test("a time in a spring-forward gap: the deadline says so, and the note explains")
    func gapNote() throws {
        let berlin = try zone("Europe/Berlin")
        let d = try Schedule.resolve(WakeSpec(parsing: "02:30"), token: "02:30", now: utc(2026, 3, 28, 23, 0), zone: berlin)
        #expect(d.instant == utc(2026, 3, 29, 1, 0))
        #expect(d.shiftedFrom == local(2026, 3, 29, 2, 30))
        #expect(Formatting.gapNote(d, zone: berlin) == "02:30 does not exist on 29 March (clocks go forward); ringing at 03:00")
        // A local date-time in the gap carries it too.
        let dt = try Schedule.resolve(WakeSpec(parsing: "2026-03-29T02:15:30"), token: "x", now: utc(2026, 3, 1), zone: berlin)
        #expect(Formatting.gapNote(dt, zone: berlin) == "02:15:30 does not exist on 29 March (clocks go forward); ringing at 03:00")
        // Times that exist, including a repeated one (fall back), are not moved.
        for (text, now) in [("03:00", utc(2026, 3, 28, 23)), ("01:59:59", utc(2026, 3, 28, 23)), ("02:30", utc(2026, 10, 24, 23)),
                            ("07:00", utc(2026, 11, 22))] {
            let d = try Schedule.resolve(WakeSpec(parsing: text), token: text, now: now, zone: berlin)
            #expect(d.shiftedFrom == nil, "\(text)")
            #expect(Formatting.gapNote(d, zone: berlin) == nil)
        }
        // Relative spans and now are never moved.
        #expect(try Schedule.resolve(.relative(seconds: 60), now: utc(2026, 3, 29, 0, 59, 30), zone: berlin).shiftedFrom == nil)
    }

    @Test("a whole skipped day: the note names the day it rings")
    func skippedDay() throws {
        let apia = try zone("Pacific/Apia")
        let d = try Schedule.resolve(WakeSpec(parsing: "07:00"), token: "07:00", now: utc(2011, 12, 29, 22, 0), zone: apia)
        #expect(d.shiftedFrom == local(2011, 12, 30, 7, 0))
        #expect(Formatting.gapNote(d, zone: apia) == "07:00 does not exist on 30 December (clocks go forward); ringing at 00:00 on 31 December")
    }

    @Test("existing callers still build a Deadline without the new field")
    func compatibility() {
        let d = Deadline(instant: utc(2026, 1, 1), clock: .wall)
        #expect(d.shiftedFrom == nil)
        #expect(Formatting.gapNote(d, zone: .utc) == nil)
    }
}
