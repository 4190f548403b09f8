/// A calendar date in the proleptic Gregorian calendar.
///
/// The fields are public and may hold anything a caller or a file put there, so every
/// computation here is total: out-of-range months carry into the year, and the day count is
/// clamped to about ±a billion years, which keeps every product inside Int64.
public struct CivilDate: Hashable, Sendable, Comparable {
    public var year: Int
    public var month: Int
    public var day: Int

    public init(year: Int, month: Int, day: Int) {
        self.year = year; self.month = month; self.day = day
    }

    public static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public var isValid: Bool {
        (1...12).contains(month) && day >= 1 && day <= CivilDate.daysIn(month: month, year: year)
    }

    /// Years beyond this are not calendar dates anyone means; clamping there keeps the era
    /// arithmetic below far from overflow (400-year eras × 146,097 days).
    static let yearLimit: Int64 = 1_000_000_000
    /// Days covering `yearLimit` years either side of the epoch.
    static let dayLimit: Int64 = 365_250_000_000

    /// Days since 1970-01-01 (negative before). Era-based so it is exact for any year within
    /// a billion years of ours; saturates beyond.
    public var daysSinceEpoch: Int64 {
        let (carry, m0) = Int64(month).minus(1).floorDivided(by: 12)
        let m = m0 + 1
        let year64 = Int64(year).plus(carry).clamped(to: -Self.yearLimit...Self.yearLimit)
        let y = m <= 2 ? year64 - 1 : year64
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return (era * 146_097 + doe - 719_468).plus(Int64(day)).clamped(to: -Self.dayLimit...Self.dayLimit)
    }

    public init(daysSinceEpoch days: Int64) {
        let z = days.clamped(to: -Self.dayLimit...Self.dayLimit) + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(year: Int(yoe + era * 400 + (m <= 2 ? 1 : 0)), month: Int(m), day: Int(d))
    }

    /// 0 = Sunday ... 6 = Saturday.
    public var weekday: Int {
        Int((daysSinceEpoch + 4).floorDivided(by: 7).remainder)  // 1970-01-01 was a Thursday
    }

    /// The next calendar day: calendar arithmetic, never "+86400 seconds".
    public var nextDay: CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + 1) }

    /// `n` calendar days later (earlier when negative), held to the dates wake represents.
    public func adding(days n: Int) -> CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch.plus(Int64(n))) }

    public static func < (a: CivilDate, b: CivilDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
}

/// A wall-clock reading with no zone attached: what a person types.
public struct LocalDateTime: Hashable, Sendable {
    public var date: CivilDate
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(date: CivilDate, hour: Int, minute: Int, second: Int) {
        self.date = date; self.hour = hour; self.minute = minute; self.second = second
    }

    /// Seconds since 1970-01-01T00:00 of this reading, as if it were UTC (saturating for
    /// readings no calendar holds, so a hostile value is refused later rather than trapping).
    public var secondsAsIfUTC: Int64 {
        let clock = Int64(hour).times(3600).plus(Int64(minute).times(60)).plus(Int64(second))
        return date.daysSinceEpoch.times(86_400).plus(clock)
    }

    public init(secondsAsIfUTC s: Int64) {
        let (days, rem) = s.floorDivided(by: 86_400)
        let r = Int(rem)
        self.init(date: CivilDate(daysSinceEpoch: days), hour: r / 3600, minute: r / 60 % 60, second: r % 60)
    }
}
