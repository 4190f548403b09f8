/// How the person reading wake's lines reads a clock: 24-hour (`06:30`) or 12-hour (`6:30 AM`),
/// and a date with the day first (`Mon 7 Dec`) or the month first (`Mon, Dec 7`). Made from the
/// locale's LC_TIME formats (`nl_langinfo(T_FMT)` and `D_FMT`, read at the edge) and config.toml's
/// `clock`; every text a person reads is written in it (`Formatting`), while what machines read
/// (`--json`, `--events`, the D-Bus API, the files) stays ISO 8601.
///
/// Bound for a command's run (`$current.withValue`), not set process-wide: threads and the
/// in-process tests each read their own, and what is not bound reads as 24-hour, day first.
public struct ClockStyle: Equatable, Sendable, CustomStringConvertible {
    public var twelveHour: Bool
    public var monthFirst: Bool

    public init(twelveHour: Bool, monthFirst: Bool) {
        self.twelveHour = twelveHour
        self.monthFirst = monthFirst
    }

    /// The style where nothing says otherwise, and the one machine outputs are written in.
    public static let twentyFourHour = ClockStyle(twelveHour: false, monthFirst: false)

    @TaskLocal public static var current = ClockStyle.twentyFourHour

    /// config.toml's `clock`: the locale's, or the hours forced either way (the date order stays the locale's).
    public static let settings = ["locale", "12h", "24h"]

    /// The style of a locale's `T_FMT` and `D_FMT` (`%r`/`%I:%M:%S %p` and `%m/%d/%Y` for
    /// en_US, `%T` and `%d.%m.%Y` for de_DE), with `setting` (`clock`) over its hours.
    public init(timeFormat: String, dateFormat: String, setting: String? = nil) {
        let time = Array(timeFormat.utf8)
        let localeTwelve = time.indices.dropLast().contains { time[$0] == UInt8(ascii: "%") && "pPrIl".utf8.contains(time[$0 + 1]) }
        switch setting {
        case "12h": twelveHour = true
        case "24h": twelveHour = false
        default: twelveHour = localeTwelve
        }
        // `%D` is `%m/%d/%y`; otherwise whichever of month and day comes first.
        let codes = Array(dateFormat.utf8)
        func offset(_ letters: String) -> Int? {
            let wanted = Set(letters.utf8)
            return codes.indices.dropLast().first { codes[$0] == UInt8(ascii: "%") && wanted.contains(codes[$0 + 1]) }
        }
        let month = offset("mbBh")
        let day = offset("de")
        if offset("D") != nil {
            monthFirst = true
        } else if let month, let day {
            monthFirst = month < day
        } else {
            monthFirst = false
        }
    }

    public var description: String { (twelveHour ? "12-hour" : "24-hour") + (monthFirst ? ", month first" : ", day first") }
}

extension Formatting {
    /// A wall time in `style`: `06:30`, `06:30:15` (seconds when there are any, or `alwaysSeconds`);
    /// `6:30 AM`, `6:30:15 PM` (12-hour: seconds only when there are any, never `:00`).
    public static func wallTime(hour: Int, minute: Int, second: Int, alwaysSeconds: Bool = false,
                                style: ClockStyle = .current) -> String {
        guard style.twelveHour else {
            return "\(two(hour)):\(two(minute))" + (alwaysSeconds || second != 0 ? ":\(two(second))" : "")
        }
        let h = hour % 12 == 0 ? 12 : hour % 12
        return "\(h):\(two(minute))" + (second != 0 ? ":\(two(second))" : "") + (hour < 12 ? " AM" : " PM")
    }

    /// `Wed 25 Nov` or `Wed, Nov 25` (`monthFirst`), with ` 2028` or `, 2028` after when `year` is given.
    static func weekdayDate(_ day: CivilDate, year: Int?, style: ClockStyle) -> String {
        let weekday = weekdayName(day.weekday)
        let month = monthName(day.month, short: true)
        guard style.monthFirst else { return "\(weekday) \(day.day) \(month)" + (year.map { " \($0)" } ?? "") }
        return "\(weekday), \(month) \(day.day)" + (year.map { ", \($0)" } ?? "")
    }
}
