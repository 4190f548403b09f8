/// A POSIX `TZ` rule such as `CET-1CEST,M3.5.0,M10.5.0/3`: the form a `TZ` variable may take
/// directly, and the footer of a TZif file that covers every year after its last transition.
public struct PosixTimeZoneRule: Hashable, Sendable {
    /// When, in a given year, a change of offset happens.
    public enum Day: Hashable, Sendable {
        case julianNoLeap(Int)  // Jn: 1...365, February 29 never counted
        case zeroBased(Int)  // n: 0...365
        case monthWeekDay(month: Int, week: Int, weekday: Int)  // Mm.w.d

        /// The day's date in `year`. Total for any associated values (the cases are public and
        /// can be built by hand): out-of-range numbers are clamped to what the parser accepts.
        func date(in year: Int) -> CivilDate {
            let newYear = CivilDate(year: year, month: 1, day: 1).daysSinceEpoch
            switch self {
            case .julianNoLeap(let n):
                var day = Int64(min(max(n, 1), 365))
                if CivilDate.isLeap(year) && day >= 60 { day += 1 }
                return CivilDate(daysSinceEpoch: newYear + day - 1)
            case .zeroBased(let n):
                return CivilDate(daysSinceEpoch: newYear + Int64(min(max(n, 0), 365)))
            case .monthWeekDay(let month, let week, let weekday):
                let m = min(max(month, 1), 12), w = min(max(week, 1), 5)
                let wd = ((weekday % 7) + 7) % 7
                let first = CivilDate(year: year, month: m, day: 1)
                var day = 1 + (wd - first.weekday + 7) % 7 + (w - 1) * 7
                let last = CivilDate.daysIn(month: m, year: year)
                while day > last { day -= 7 }  // week 5 means "the last such weekday"
                return CivilDate(year: year, month: m, day: day)
            }
        }
    }

    public struct Transition: Hashable, Sendable {
        public var day: Day
        public var secondsAfterMidnight: Int  // local time, may be negative or past 24h (POSIX: within ±167h)
        public init(day: Day, secondsAfterMidnight: Int) { self.day = day; self.secondsAfterMidnight = secondsAfterMidnight }
    }

    public var standardName: String
    /// Seconds east of UTC (the POSIX string writes them west, with the opposite sign).
    public var standardOffset: Int
    public var daylightName: String?
    public var daylightOffset: Int
    public var daylightStart: Transition?
    public var daylightEnd: Transition?

    public enum ParseError: Error, Equatable, CustomStringConvertible {
        case invalid(String)
        public var description: String {
            switch self {
            case .invalid(let text):
                return "invalid time-zone rule '\(text.printable)'; write it as STDoffset[DST[offset][,start[/time],end[/time]]], as CET-1CEST,M3.5.0,M10.5.0/3, or use a zone name such as Europe/Berlin"
            }
        }
    }

    public init(_ text: String) throws(ParseError) {
        var s = Substring(text)
        func fail() -> ParseError { .invalid(text) }

        func name() -> String? {
            if s.first == "<" {
                guard let close = s.firstIndex(of: ">") else { return nil }
                let n = String(s[s.index(after: s.startIndex)..<close])
                s = s[s.index(after: close)...]
                // POSIX allows letters, digits, '+' and '-' here; anything else would end up
                // printed on the terminal as the zone's abbreviation.
                guard n.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-") }) else { return nil }
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
        // [+-]hh[:mm[:ss]]: POSIX allows hours up to 24 in an offset and, as an extension
        // glibc and RFC 8536 share, up to 167 in a transition time.
        func time(maxHours: Int) -> Int? {
            var sign = 1
            if s.first == "+" { s.removeFirst() } else if s.first == "-" { sign = -1; s.removeFirst() }
            guard let h = number(), h <= maxHours else { return nil }
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
                guard let t = time(maxHours: 167) else { return nil }
                at = t
            }
            return Transition(day: day, secondsAfterMidnight: at)
        }

        guard let std = name(), let stdWest = time(maxHours: 24) else { throw fail() }
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
            guard let west = time(maxHours: 24) else { throw fail() }
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

    /// The instant (UTC seconds) a transition happens in `year`, written in local time at `offset`.
    /// Saturating: a hand-built transition far out of range lands at an end of the time line.
    static func instant(of transition: Transition, in year: Int, offset: Int) -> Int64 {
        transition.day.date(in: year).daysSinceEpoch.times(86_400)
            .plus(Int64(transition.secondsAfterMidnight)).minus(Int64(offset))
    }

    /// The offset (seconds east of UTC) and whether it is daylight time, at a UTC instant.
    public func offset(atUTC t: Int64) -> (offset: Int, isDaylight: Bool) {
        guard let start = daylightStart, let end = daylightEnd else { return (standardOffset, false) }
        let year = LocalDateTime(secondsAsIfUTC: t.plus(Int64(standardOffset))).date.year
        // Check the neighbouring years too: a rule's change can fall on either side of New Year in UTC.
        for y in [year + 1, year, year - 1] {
            // Daylight starts at a local standard time, and ends at a local daylight time.
            let begins = Self.instant(of: start, in: y, offset: standardOffset)
            let ends = Self.instant(of: end, in: y, offset: daylightOffset)
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
