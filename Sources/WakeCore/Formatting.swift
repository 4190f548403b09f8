/// Text forms of times and spans as wake prints them.
public enum Formatting {
    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// `+01:00`, `-04:00`, `+05:30`.
    public static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let a = Int(clamping: seconds.magnitude)
        var s = "\(sign)\(two(a / 3600)):\(two(a / 60 % 60))"
        if a % 60 != 0 { s += ":\(two(a % 60))" }
        return s
    }

    /// ISO-8601 local time with its UTC offset: `2026-11-22T07:00:00+01:00`
    /// (with `.123` milliseconds when asked, as the event log writes times).
    public static func iso8601(_ instant: Instant, zone: TimeZoneRules, milliseconds: Bool = false) -> String {
        let utcOffset = zone.offset(atUTC: instant.seconds)
        let l = LocalDateTime(secondsAsIfUTC: instant.seconds.plus(Int64(utcOffset)))
        var s = "\(String(l.date.year).leftPadded(to: 4))-\(two(l.date.month))-\(two(l.date.day))"
        s += "T\(two(l.hour)):\(two(l.minute)):\(two(l.second))"
        if milliseconds {
            s += "." + String(instant.nanosecondOfSecond / 1_000_000).leftPadded(to: 3)
        }
        return s + offset(utcOffset)
    }

    /// `HH:MM` or `HH:MM:SS` local time, seconds only when they are not zero; in `style`
    /// (`6:30 AM` on a 12-hour clock: `wallTime`).
    public static func clockTime(_ instant: Instant, zone: TimeZoneRules, alwaysSeconds: Bool = false,
                                 style: ClockStyle = .current) -> String {
        let l = zone.localTime(at: instant)
        return wallTime(hour: l.hour, minute: l.minute, second: l.second, alwaysSeconds: alwaysSeconds, style: style)
    }

    /// `7h 12m 29s`, `12m 5s`, `9s`: largest unit first, leading zero units left out.
    public static func span(seconds total: Int64) -> String {
        let t = max(0, total)
        let (h, m, s) = (t / 3600, t / 60 % 60, t % 60)
        if h > 0 { return "\(h)h \(m)m \(s)s" }
        if m > 0 { return "\(m)m \(s)s" }
        return "\(s)s"
    }

    /// A length of audio to a tenth of a second: `2.4 s`, `600.0 s`.
    public static func seconds(_ d: Duration) -> String {
        let tenths = d.milliseconds.plus(50) / 100
        return "\(tenths / 10).\(tenths % 10) s"
    }

    /// How late something is: whole seconds rounded down (`2h 12m 5s`), or milliseconds under
    /// a second (`12 ms`), so a lateness is never overstated.
    public static func lateness(_ d: Duration) -> String {
        d < .seconds(1) ? "\(max(0, d.milliseconds)) ms" : span(seconds: d.nanoseconds / 1_000_000_000)
    }

    /// A span given in nanoseconds, rounded up to whole seconds.
    public static func span(_ d: Duration) -> String { span(seconds: d.secondsRoundedUp) }
}
