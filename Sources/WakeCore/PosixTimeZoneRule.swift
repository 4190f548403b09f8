/// A POSIX `TZ` rule such as `CET-1CEST,M3.5.0,M10.5.0/3`: the form a `TZ` variable may take
/// directly, and the footer of a TZif file that covers every year after its last transition.
public struct PosixTimeZoneRule: Hashable, Sendable {
    /// When, in a given year, a change of offset happens.
    public enum Day: Hashable, Sendable {
        case julianNoLeap(Int)  // Jn: 1...365, February 29 never counted
        case zeroBased(Int)  // n: 0...365
        case monthWeekDay(month: Int, week: Int, weekday: Int)  // Mm.w.d

        func date(in year: Int) -> CivilDate {
            switch self {
            case .julianNoLeap(let n):
                var day = n
                if CivilDate.isLeap(year) && n >= 60 { day += 1 }
                return CivilDate(daysSinceEpoch: CivilDate(year: year, month: 1, day: 1).daysSinceEpoch + Int64(day - 1))
            case .zeroBased(let n):
                return CivilDate(daysSinceEpoch: CivilDate(year: year, month: 1, day: 1).daysSinceEpoch + Int64(n))
            case .monthWeekDay(let month, let week, let weekday):
                let first = CivilDate(year: year, month: month, day: 1)
                var day = 1 + (weekday - first.weekday + 7) % 7 + (week - 1) * 7
                let last = CivilDate.daysIn(month: month, year: year)
                while day > last { day -= 7 }  // week 5 means "the last such weekday"
                return CivilDate(year: year, month: month, day: day)
            }
        }
    }

    public struct Transition: Hashable, Sendable {
        public var day: Day
        public var secondsAfterMidnight: Int  // local time, may be negative or past 24h
    }

    public var standardName: String
    /// Seconds east of UTC (the POSIX string writes them west, with the opposite sign).
    public var standardOffset: Int
    public var daylightName: String?
    public var daylightOffset: Int
    public var daylightStart: Transition?
    public var daylightEnd: Transition?

    public enum ParseError: Error, Equatable { case invalid(String) }

    public init(_ text: String) throws(ParseError) {
        var s = Substring(text)
        func fail() -> ParseError { .invalid(text) }

        func name() -> String? {
            if s.first == "<" {
                guard let close = s.firstIndex(of: ">") else { return nil }
                let n = String(s[s.index(after: s.startIndex)..<close])
                s = s[s.index(after: close)...]
                return n.count >= 3 ? n : nil
            }
            let n = s.prefix { $0.isASCII && $0.isLetter }
            s = s[n.endIndex...]
            return n.count >= 3 ? String(n) : nil
        }
        func number() -> Int? {
            let digits = s.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, digits.count <= 3 else { return nil }
            s = s[digits.endIndex...]
            return Int(digits)
        }
        // [+-]hh[:mm[:ss]]
        func time() -> Int? {
            var sign = 1
            if s.first == "+" { s.removeFirst() } else if s.first == "-" { sign = -1; s.removeFirst() }
            guard let h = number(), h <= 167 else { return nil }
            var total = h * 3600
            for scale in [60, 1] {
                guard s.first == ":" else { break }
                s.removeFirst()
                guard let v = number(), v < 60 else { return nil }
                total += v * scale
            }
            return sign * total
        }
        func transition() -> Transition? {
            let day: Day
            if s.first == "J" {
                s.removeFirst()
                guard let n = number(), (1...365).contains(n) else { return nil }
                day = .julianNoLeap(n)
            } else if s.first == "M" {
                s.removeFirst()
                guard let m = number(), (1...12).contains(m), s.first == "." else { return nil }
                s.removeFirst()
                guard let w = number(), (1...5).contains(w), s.first == "." else { return nil }
                s.removeFirst()
                guard let d = number(), (0...6).contains(d) else { return nil }
                day = .monthWeekDay(month: m, week: w, weekday: d)
            } else {
                guard let n = number(), (0...365).contains(n) else { return nil }
                day = .zeroBased(n)
            }
            var at = 7200
            if s.first == "/" {
                s.removeFirst()
                guard let t = time() else { return nil }
                at = t
            }
            return Transition(day: day, secondsAfterMidnight: at)
        }

        guard let std = name(), let stdWest = time() else { throw fail() }
        standardName = std
        standardOffset = -stdWest
        daylightName = nil
        daylightOffset = standardOffset
        daylightStart = nil
        daylightEnd = nil
        if s.isEmpty { return }
        guard let dst = name() else { throw fail() }
        daylightName = dst
        daylightOffset = standardOffset + 3600
        if let c = s.first, c != "," {
            guard let west = time() else { throw fail() }
            daylightOffset = -west
        }
        if s.isEmpty {
            // No rule given: POSIX leaves it to the implementation; glibc uses the US rules.
            daylightStart = Transition(day: .monthWeekDay(month: 3, week: 2, weekday: 0), secondsAfterMidnight: 7200)
            daylightEnd = Transition(day: .monthWeekDay(month: 11, week: 1, weekday: 0), secondsAfterMidnight: 7200)
            return
        }
        guard s.first == "," else { throw fail() }
        s.removeFirst()
        guard let start = transition(), s.first == "," else { throw fail() }
        s.removeFirst()
        guard let end = transition(), s.isEmpty else { throw fail() }
        daylightStart = start
        daylightEnd = end
    }

    /// The offset (seconds east of UTC) and whether it is daylight time, at a UTC instant.
    public func offset(atUTC t: Int64) -> (offset: Int, isDaylight: Bool) {
        guard let start = daylightStart, let end = daylightEnd else { return (standardOffset, false) }
        let year = LocalDateTime(secondsAsIfUTC: t + Int64(standardOffset)).date.year
        // Check the neighbouring years too: a rule's change can fall on either side of New Year in UTC.
        for y in [year + 1, year, year - 1] {
            // Daylight starts at a local standard time, and ends at a local daylight time.
            let begins = start.day.date(in: y).daysSinceEpoch * 86_400 + Int64(start.secondsAfterMidnight - standardOffset)
            let ends = end.day.date(in: y).daysSinceEpoch * 86_400 + Int64(end.secondsAfterMidnight - daylightOffset)
            if begins < ends {  // northern hemisphere
                if t >= begins && t < ends { return (daylightOffset, true) }
                if t >= ends { return (standardOffset, false) }
            } else {  // southern: daylight spans the New Year
                if t >= begins { return (daylightOffset, true) }
                if t >= ends { return (standardOffset, false) }
                // before `ends`: daylight from the previous year's start, checked next round
                if y == year - 1 { return (daylightOffset, true) }
            }
        }
        return (standardOffset, false)
    }
}
