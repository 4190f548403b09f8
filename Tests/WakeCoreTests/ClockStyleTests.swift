import Testing
import WakeCore

/// Issue 55's reader's clock: the locale's LC_TIME formats read as 12- or 24-hour and day or
/// month first, config.toml's `clock` over the hours, and the phrases written in it.
@Suite("The reader's clock")
struct ClockStyleTests {
    @Test("glibc's formats: en_US 12-hour and month first, en_GB, de_DE and fr_FR 24-hour and day first; clock over the hours",
          arguments: [
              ("%r", "%m/%d/%Y", nil, true, true),          // en_US
              ("%T", "%d/%m/%y", nil, false, false),        // en_GB
              ("%T", "%d.%m.%Y", nil, false, false),        // de_DE
              ("%T", "%d/%m/%Y", nil, false, false),        // fr_FR
              ("%r", "%m/%d/%Y", "24h", false, true),       // clock = "24h" under en_US
              ("%T", "%d.%m.%Y", "12h", true, false),       // clock = "12h" under de_DE
              ("%I:%M:%S %p", "%D", "locale", true, true),
          ] as [(String, String, String?, Bool, Bool)])
    func fromTheLocale(time: String, date: String, setting: String?, twelve: Bool, monthFirst: Bool) {
        let style = ClockStyle(timeFormat: time, dateFormat: date, setting: setting)
        #expect(style.twelveHour == twelve && style.monthFirst == monthFirst, "\(style)")
    }

    @Test("12-hour: no leading zero, noon and midnight as 12, seconds only when there are any; 24-hour as before")
    func wallTimes() {
        let us = ClockStyle(twelveHour: true, monthFirst: true)
        #expect(Formatting.wallTime(hour: 0, minute: 5, second: 0, style: us) == "12:05 AM")
        #expect(Formatting.wallTime(hour: 12, minute: 30, second: 0, alwaysSeconds: true, style: us) == "12:30 PM")
        #expect(Formatting.wallTime(hour: 18, minute: 30, second: 15, style: us) == "6:30:15 PM")
        #expect(Formatting.wallTime(hour: 6, minute: 30, second: 0, style: .twentyFourHour) == "06:30")
        #expect(Formatting.wallTime(hour: 6, minute: 30, second: 0, alwaysSeconds: true, style: .twentyFourHour) == "06:30:00")
    }

    @Test("the phrases follow the bound style: times, days and dates month first; unbound, 24-hour and day first")
    func phrases() {
        let now = utc(2026, 12, 7, 12)
        let later = utc(2027, 1, 13, 18, 30)
        #expect(Formatting.clockTimeAndDay(later, now: now, zone: .utc) == "18:30 Wed 13 Jan 2027")
        ClockStyle.$current.withValue(ClockStyle(twelveHour: true, monthFirst: true)) {
            #expect(Formatting.clockTimeAndDay(later, now: now, zone: .utc) == "6:30 PM Wed, Jan 13, 2027")
            #expect(Formatting.ringsAt(utc(2026, 12, 9, 7), now: now, zone: .utc) == "7:00 AM Wed, Dec 9, in 1d 19h")
            #expect(Formatting.datePhrase(utc(2026, 12, 24, 7), now: now, zone: .utc) == "Thu, Dec 24")
            #expect(Formatting.clockTime(later, zone: .utc, style: .twentyFourHour) == "18:30", "a machine's field names its style")
        }
    }
}
