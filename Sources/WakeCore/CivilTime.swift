/// A calendar date in the proleptic Gregorian calendar.
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

    /// Days since 1970-01-01 (negative before). Era-based so it is exact for any year.
    public var daysSinceEpoch: Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public init(daysSinceEpoch days: Int64) {
        let z = days + 719_468
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
        let d = daysSinceEpoch
        return Int(((d % 7) + 7 + 4) % 7)  // 1970-01-01 was a Thursday
    }

    /// The next calendar day: calendar arithmetic, never "+86400 seconds".
    public var nextDay: CivilDate { CivilDate(daysSinceEpoch: daysSinceEpoch + 1) }

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

    /// Seconds since 1970-01-01T00:00 of this reading, as if it were UTC.
    public var secondsAsIfUTC: Int64 {
        date.daysSinceEpoch * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    public init(secondsAsIfUTC s: Int64) {
        let days = s >= 0 ? s / 86_400 : -((-s + 86_399) / 86_400)
        let rem = Int(s - days * 86_400)
        self.init(date: CivilDate(daysSinceEpoch: days), hour: rem / 3600, minute: rem / 60 % 60, second: rem % 60)
    }
}
