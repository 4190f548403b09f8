/// The text forms of times, dates and instants that wake's files hold: `06:30:00`,
/// `2026-11-24`, `2026-11-23T03:00:00Z` (UTC, exact to the nanosecond).
extension TOMLSubset {

    /// Exactly `count` ASCII digits at `i` in `u`, as a number.
    static func digits(_ u: [UInt8], _ i: Int, _ count: Int) -> Int? {
        guard i >= 0, i + count <= u.count else { return nil }
        var v = 0
        for c in u[i..<(i + count)] {
            guard c >= 48, c <= 57 else { return nil }
            v = v * 10 + Int(c - 48)
        }
        return v
    }

    /// `HH:MM:SS` or `HH:MM`.
    static func timeOfDay(_ s: String) -> (Int, Int, Int)? {
        let u = Array(s.utf8)
        guard u.count == 5 || u.count == 8, u[2] == UInt8(ascii: ":"),
              let h = digits(u, 0, 2), let m = digits(u, 3, 2), h < 24, m < 60 else { return nil }
        if u.count == 5 { return (h, m, 0) }
        guard u[5] == UInt8(ascii: ":"), let sec = digits(u, 6, 2), sec < 60 else { return nil }
        return (h, m, sec)
    }

    /// `YYYY-MM-DD`, a real date.
    static func date(_ s: String) -> CivilDate? {
        let u = Array(s.utf8)
        guard u.count == 10 else { return nil }
        return date(u, 0)
    }

    static func date(_ u: [UInt8], _ i: Int) -> CivilDate? {
        guard i + 10 <= u.count, u[i + 4] == UInt8(ascii: "-"), u[i + 7] == UInt8(ascii: "-"),
              let y = digits(u, i, 4), let m = digits(u, i + 5, 2), let d = digits(u, i + 8, 2) else { return nil }
        let date = CivilDate(year: y, month: m, day: d)
        return date.isValid ? date : nil
    }

    static func dateText(_ d: CivilDate) -> String {
        guard (0...9999).contains(d.year) else {
            return "\(String(d.year).leftPadded(to: 4))-\(AlarmBook.two(d.month))-\(AlarmBook.two(d.day))"
        }
        var b: [UInt8] = []
        b.reserveCapacity(10)
        appendDate(d, to: &b)
        return String(decoding: b, as: UTF8.self)
    }

    /// `n` as `width` ASCII digits (0 <= n < 10^width), appended to `out`: the files' dates and
    /// times made from digits rather than interpolated (a fifth of writing 2,000 alarms).
    static func appendDigits(_ n: Int, width: Int, to out: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = n
        while divisor > 0 {
            out.append(UInt8(48 + rest / divisor % 10))
            rest %= divisor
            divisor /= 10
        }
    }

    static func appendDate(_ d: CivilDate, to b: inout [UInt8]) {
        appendDigits(d.year, width: 4, to: &b)
        b.append(UInt8(ascii: "-"))
        appendDigits(d.month, width: 2, to: &b)
        b.append(UInt8(ascii: "-"))
        appendDigits(d.day, width: 2, to: &b)
    }

    /// `06:30:00`
    static func timeText(_ hour: Int, _ minute: Int, _ second: Int) -> String {
        guard (0..<100).contains(hour), (0..<100).contains(minute), (0..<100).contains(second) else {
            return "\(AlarmBook.two(hour)):\(AlarmBook.two(minute)):\(AlarmBook.two(second))"
        }
        var b: [UInt8] = []
        b.reserveCapacity(8)
        appendTime(hour, minute, second, to: &b)
        return String(decoding: b, as: UTF8.self)
    }

    static func appendTime(_ hour: Int, _ minute: Int, _ second: Int, to b: inout [UInt8]) {
        appendDigits(hour, width: 2, to: &b)
        b.append(UInt8(ascii: ":"))
        appendDigits(minute, width: 2, to: &b)
        b.append(UInt8(ascii: ":"))
        appendDigits(second, width: 2, to: &b)
    }

    /// `2026-11-23T03:00:00Z`, with as many fraction digits as the instant needs (at most 9),
    /// so every `Instant` is written exactly and reads back equal.
    static func instantText(_ t: Instant) -> String {
        let l = LocalDateTime(secondsAsIfUTC: t.seconds)
        guard (0...9999).contains(l.date.year) else {
            var s = dateText(l.date) + "T\(AlarmBook.two(l.hour)):\(AlarmBook.two(l.minute)):\(AlarmBook.two(l.second))"
            let ns = t.nanosecondOfSecond
            if ns != 0 {
                var f = String(ns).leftPadded(to: 9)
                while f.last == "0" { f.removeLast() }
                s += "." + f
            }
            return s + "Z"
        }
        var b: [UInt8] = []
        b.reserveCapacity(30)
        appendDate(l.date, to: &b)
        b.append(UInt8(ascii: "T"))
        appendTime(l.hour, l.minute, l.second, to: &b)
        let ns = Int(t.nanosecondOfSecond)
        if ns != 0 {
            b.append(UInt8(ascii: "."))
            appendDigits(ns, width: 9, to: &b)
            while b.last == UInt8(ascii: "0") { b.removeLast() }
        }
        b.append(UInt8(ascii: "Z"))
        return String(decoding: b, as: UTF8.self)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (1 to 9 fraction digits), within `Instant`'s range.
    static func instant(_ s: String) -> Instant? {
        let u = Array(s.utf8)
        guard u.count >= 20, u.last == UInt8(ascii: "Z"), u[10] == UInt8(ascii: "T"),
              let d = date(u, 0), u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":"),
              let h = digits(u, 11, 2), let m = digits(u, 14, 2), let sec = digits(u, 17, 2),
              h < 24, m < 60, sec < 60 else { return nil }
        var fraction: Int64 = 0
        if u.count > 20 {
            let n = u.count - 21  // digits between '.' and 'Z'
            guard u[19] == UInt8(ascii: "."), (1...9).contains(n), let f = digits(u, 20, n) else { return nil }
            fraction = Int64(f)
            for _ in n..<9 { fraction *= 10 }
        }
        let seconds = LocalDateTime(date: d, hour: h, minute: m, second: sec).secondsAsIfUTC
        // seconds * 1e9 + fraction, without overflowing on the way to Instant's extremes.
        let (whole, adjust) = seconds < 0 && fraction > 0 ? (seconds + 1, fraction - 1_000_000_000) : (seconds, fraction)
        let (scaled, o1) = whole.multipliedReportingOverflow(by: 1_000_000_000)
        let (total, o2) = scaled.addingReportingOverflow(adjust)
        guard !o1, !o2 else { return nil }
        return Instant(nanoseconds: total)
    }
}
