import Testing
import WakeCore

/// Calendar arithmetic and instants: the ground the rest stands on.
@Suite("Civil time and instants")
struct CivilTimeTests {
    @Test("days since the epoch round-trip, and weekdays follow")
    func daysRoundTrip() {
        #expect(CivilDate(year: 1970, month: 1, day: 1).daysSinceEpoch == 0)
        #expect(CivilDate(year: 1969, month: 12, day: 31).daysSinceEpoch == -1)
        #expect(CivilDate(year: 2000, month: 3, day: 1).daysSinceEpoch == 11_017)
        #expect(CivilDate(year: 2026, month: 11, day: 22).weekday == 0)  // a Sunday
        #expect(CivilDate(year: 1970, month: 1, day: 1).weekday == 4)  // a Thursday
        // Every day from 1422 to 2517.
        var previous = CivilDate(daysSinceEpoch: -200_000)
        var failures = 0
        for days in Int64(-199_999)...Int64(200_000) {
            let date = CivilDate(daysSinceEpoch: days)
            let ok = date.isValid && date.daysSinceEpoch == days && previous < date && previous.nextDay == date
                && date.weekday == (previous.weekday + 1) % 7
                && (date.day == 1 || (date.year == previous.year && date.month == previous.month && date.day == previous.day + 1))
            if !ok {
                failures += 1
                if failures <= 5 { Issue.record("day \(days): \(date) after \(previous)") }
            }
            previous = date
        }
        #expect(failures == 0)
    }

    @Test("leap years and month lengths")
    func leapYears() {
        #expect(CivilDate.isLeap(2000))
        #expect(!CivilDate.isLeap(1900))
        #expect(!CivilDate.isLeap(2100))
        #expect(CivilDate.isLeap(2028))
        #expect(!CivilDate.isLeap(2026))
        #expect(CivilDate.daysIn(month: 2, year: 2028) == 29)
        #expect(CivilDate.daysIn(month: 2, year: 2026) == 28)
        #expect(CivilDate.daysIn(month: 4, year: 2026) == 30)
        #expect(CivilDate.daysIn(month: 12, year: 2026) == 31)
        #expect(!CivilDate(year: 2026, month: 2, day: 29).isValid)
        #expect(CivilDate(year: 2028, month: 2, day: 29).isValid)
        #expect(!CivilDate(year: 2026, month: 13, day: 1).isValid)
        #expect(!CivilDate(year: 2026, month: 1, day: 0).isValid)
        #expect(CivilDate(year: 2026, month: 12, day: 31).nextDay == CivilDate(year: 2027, month: 1, day: 1))
        #expect(CivilDate(year: 2028, month: 2, day: 28).nextDay == CivilDate(year: 2028, month: 2, day: 29))
    }

    @Test("wall readings and seconds")
    func localDateTime() {
        let l = local(2026, 11, 22, 7, 0, 30)
        #expect(LocalDateTime(secondsAsIfUTC: l.secondsAsIfUTC) == l)
        #expect(LocalDateTime(secondsAsIfUTC: -1) == local(1969, 12, 31, 23, 59, 59))
        #expect(LocalDateTime(secondsAsIfUTC: -86_400) == local(1969, 12, 31, 0, 0, 0))
        #expect(local(2026, 11, 22).secondsAsIfUTC == 1_795_305_600)
    }

    @Test("instants: whole seconds round towards the past")
    func instants() {
        #expect(Instant(nanoseconds: 1_500_000_000).seconds == 1)
        #expect(Instant(nanoseconds: 1_500_000_000).nanosecondOfSecond == 500_000_000)
        #expect(Instant(nanoseconds: -1_500_000_000).seconds == -2)
        #expect(Instant(nanoseconds: -1_500_000_000).nanosecondOfSecond == 500_000_000)
        #expect(Instant(nanoseconds: -1_000_000_000).seconds == -1)
        #expect(Instant(nanoseconds: -1_000_000_000).nanosecondOfSecond == 0)
        #expect(Instant(nanoseconds: -1).seconds == -1)
        #expect(Instant(seconds: 5, nanoseconds: 7).nanoseconds == 5_000_000_007)
        #expect(Instant(seconds: 10) + .milliseconds(1500) == Instant(nanoseconds: 11_500_000_000))
        #expect(Instant(seconds: 10) - .milliseconds(1500) == Instant(nanoseconds: 8_500_000_000))
        #expect(Instant(seconds: 10) - Instant(seconds: 4) == .seconds(6))
        #expect(Instant(seconds: 1) < Instant(seconds: 2))
    }

    @Test("durations in nanoseconds, milliseconds and rounded-up seconds")
    func durations() {
        #expect(Duration.milliseconds(1500).nanoseconds == 1_500_000_000)
        #expect(Duration.milliseconds(-1500).nanoseconds == -1_500_000_000)
        #expect(Duration.nanoseconds(-1).nanoseconds == -1)
        #expect(Duration.milliseconds(1500).milliseconds == 1500)
        #expect(Duration.nanoseconds(1_999_999).milliseconds == 1)
        #expect(Duration.milliseconds(28_600).secondsRoundedUp == 29)
        #expect(Duration.seconds(29).secondsRoundedUp == 29)
        #expect(Duration.nanoseconds(1).secondsRoundedUp == 1)
        #expect(Duration.zero.secondsRoundedUp == 0)
        #expect(Duration.milliseconds(-1500).secondsRoundedUp == -1)
        #expect(Duration.seconds(Int64.max).nanoseconds == Int64.max)
        #expect(Duration.seconds(Int64.min).nanoseconds == Int64.min)
    }
}
