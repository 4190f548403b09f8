/// A day named with a time of day, as people say it: `tomorrow 7am`, `mon 6:30`, `dec 24 8:00`.
public enum NamedDay: Hashable, Sendable {
    case today
    case tomorrow
    /// The next such weekday (0 = Sunday ... 6 = Saturday): today, if the time is still ahead.
    case weekday(Int)
    /// The next such date, this year or a later one (`dec 24`, `24 dec`).
    case monthDay(month: Int, day: Int)
}

/// The words of WHEN beyond a single token: a day and a time in either order (`tomorrow 7am`,
/// `7:30 pm mon`, `24 dec 8:00`), `noon` and `midnight`, and `in DURATION` (`in 20m`, `in 1
/// hour 30 minutes`). Pure; every refusal says what was expected.
enum TimeWords {
    static let weekdays: [String: Int] = [
        "sun": 0, "sunday": 0, "mon": 1, "monday": 1, "tue": 2, "tues": 2, "tuesday": 2, "wed": 3, "wednesday": 3,
        "thu": 4, "thur": 4, "thurs": 4, "thursday": 4, "fri": 5, "friday": 5, "sat": 6, "saturday": 6,
    ]
    static let months: [String: Int] = [
        "jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4, "may": 5,
        "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8, "sep": 9, "sept": 9, "september": 9,
        "oct": 10, "october": 10, "nov": 11, "november": 11, "dec": 12, "december": 12,
    ]
    /// `in 20 minutes`: each unit word as the span grammar's letter.
    static let units: [String: String] = [
        "d": "d", "day": "d", "days": "d", "h": "h", "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
        "m": "m", "min": "m", "mins": "m", "minute": "m", "minutes": "m",
        "s": "s", "sec": "s", "secs": "s", "second": "s", "seconds": "s", "ms": "ms",
    ]
    /// The most days a month may have in some year: `feb 29` is a date, `feb 30` is not.
    static let longestMonth = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

    static let example = "as 'tomorrow 7am', 'mon 6:30', 'dec 24 8:00' or 'in 20m'"

    /// A day word alone (`tomorrow`, `mon`), nil for anything else.
    static func day(_ lower: String) -> NamedDay? {
        if lower == "today" { return .today }
        if lower == "tomorrow" { return .tomorrow }
        return weekdays[lower].map { NamedDay.weekday($0) }
    }

    /// `noon` and `midnight`, as times of day.
    static func namedTime(_ lower: String) -> (Int, Int, Int)? {
        switch lower {
        case "noon": return (12, 0, 0)
        case "midnight": return (0, 0, 0)
        default: return nil
        }
    }

    /// A day of the month: one or two digits, 1 to 31.
    static func dayNumber(_ lower: String) -> Int? {
        guard (1...2).contains(lower.count), lower.allSatisfy(\.isWholeNumberDigit), let n = Int(lower), (1...31).contains(n) else { return nil }
        return n
    }

    /// `in` and what follows it: compact spans (`1h30m`, `1h 30m`) and number-and-unit pairs
    /// (`20 minutes`, `1 hour 30 minutes`), read as one span of the span grammar.
    static func span(_ words: ArraySlice<String>, token: String) throws(WakeSpec.ParseError) -> Duration {
        func fail(_ reason: String) -> WakeSpec.ParseError { WakeSpec.ParseError(token: token, reason: reason) }
        guard !words.isEmpty else { throw fail("'in' needs a span after it, as 'in 20m' or 'in 20 minutes'") }
        var compact = ""
        var i = words.startIndex
        while i < words.endIndex {
            let w = words[i]
            if w.allSatisfy(\.isWholeNumberDigit) {
                let next = words.index(after: i)
                guard next < words.endIndex, let unit = units[words[next]] else {
                    throw fail("'in \(w)' has no unit; say 'in \(w)m' or 'in \(w) minutes' (units: days, hours, minutes, seconds)")
                }
                compact += w + unit
                i = words.index(after: next)
            } else if units[w] != nil {
                throw fail("'\(w)' has no number before it; say 'in 20 minutes'")
            } else {
                compact += w
                i = words.index(after: i)
            }
        }
        return try WakeSpec.relativeSpan(compact, token: token)
    }

    /// Several words (split at spaces, am/pm not yet joined): a day and a time, `in` and a span,
    /// or a date and a time (`2026-11-22 07:00`).
    static func parse(_ words: [String], token: String) throws(WakeSpec.ParseError) -> WakeSpec {
        func fail(_ reason: String) -> WakeSpec.ParseError { WakeSpec.ParseError(token: token, reason: reason) }
        func unexpected(_ word: String) -> WakeSpec.ParseError {
            fail("unexpected '\(TerminalText.printable(word, limit: WakeSpec.tokenLimit))' after the time; quote the time if it has spaces, as '7:30 pm', and put options before or after it with their dashes")
        }
        var lower = words.map { $0.lowercased() }
        if lower.first == "in" { return .relative(try span(lower.dropFirst(), token: token)) }
        // `7:30 pm`: an am/pm word joins the time before it.
        var joined: [String] = []
        var original: [String] = []
        for (i, w) in lower.enumerated() {
            if (w == "am" || w == "pm"), let last = joined.last, let first = last.first, first.isWholeNumberDigit,
               !(last.hasSuffix("am") || last.hasSuffix("pm")) {
                joined[joined.count - 1] = last + w
                original[original.count - 1] += " " + words[i]
            } else {
                joined.append(w)
                original.append(words[i])
            }
        }
        lower = joined
        if lower.count == 1 { return try single(lower[0], original: original[0], token: token) }
        // `now`, `+8h` and a date and time with its offset stand alone.
        let first = lower[0]
        if first == "now" || first.hasPrefix("+") || first.hasPrefix("-") || (first.count > 10 && WakeSpec.isDate(String(first.prefix(10)))) {
            _ = try WakeSpec(single: lower[0], token: token)
            throw unexpected(original[1])
        }
        // A date and a time split by the shell, as before: nothing else goes with them.
        if WakeSpec.isDate(lower[0]) {
            if lower.count > 2 { throw unexpected(original[2]) }
            return try WakeSpec(single: lower[0] + " " + lower[1], token: token)
        }
        var used = Set<Int>()
        var day: NamedDay?
        var dayWord = ""
        for (i, w) in lower.enumerated() {
            guard let month = months[w] else { continue }
            if day != nil { throw fail("two days, '\(dayWord)' and '\(original[i])'; give one, \(example)") }
            let candidates = [i + 1, i - 1].filter { lower.indices.contains($0) && !used.contains($0) }
            guard let j = candidates.first(where: { dayNumber(lower[$0]) != nil }), let d = dayNumber(lower[j]) else {
                throw fail("'\(original[i])' needs a day of the month, as 'dec 24 8:00' or '24 dec 8:00'")
            }
            guard d <= longestMonth[month - 1] else {
                throw fail("no such date: \(original[i]) \(d); \(original[i]) has \(longestMonth[month - 1]) days at most")
            }
            day = .monthDay(month: month, day: d)
            dayWord = j < i ? "\(original[j]) \(original[i])" : "\(original[i]) \(original[j])"
            used.formUnion([i, j])
        }
        var time: (Int, Int, Int)?
        var timeWord = ""
        for (i, w) in lower.enumerated() where !used.contains(i) {
            if let named = TimeWords.day(w) {
                if day != nil { throw fail("two days, '\(dayWord)' and '\(original[i])'; give one, \(example)") }
                day = named
                dayWord = original[i]
                continue
            }
            if w == "in" { throw fail("'in' goes first and takes a span, as 'in 20m'; a day goes with a time, as 'tomorrow 7am'") }
            let t: (Int, Int, Int)
            if let named = namedTime(w) {
                t = named
            } else if w.first?.isWholeNumberDigit == true || w.hasPrefix("+") || w == "now" {
                switch try WakeSpec(single: w, token: token) {
                case .timeOfDay(let h, let m, let s): t = (h, m, s)
                default:
                    guard day != nil else { throw unexpected(original[i]) }
                    throw fail("'\(original[i])' does not go with a day; give a time of day, as 'tomorrow 7am', or the date and time alone")
                }
            } else if time != nil || day != nil, i > 0 {
                throw unexpected(original[i])
            } else {
                throw fail("unknown word '\(TerminalText.printable(original[i], limit: WakeSpec.tokenLimit))'; give a time of day and, if you like, a day, \(example)")
            }
            if time != nil { throw fail("two times, '\(timeWord)' and '\(original[i])'; give one, \(example)") }
            time = t
            timeWord = original[i]
        }
        guard let (h, m, s) = time else {
            throw fail("'\(dayWord)' needs a time too, as '\(dayWord) 7am'")
        }
        guard let day else { return .timeOfDay(hour: h, minute: m, second: s) }
        return .dayTime(day, hour: h, minute: m, second: s)
    }

    /// One word (after am/pm joined): a day alone is refused, `noon` and `midnight` are times.
    static func single(_ lower: String, original: String, token: String) throws(WakeSpec.ParseError) -> WakeSpec {
        if day(lower) != nil || months[lower] != nil {
            throw WakeSpec.ParseError(token: token, reason: "'\(original)' needs a time too, as '\(original) 7am'")
        }
        if lower == "in" { throw WakeSpec.ParseError(token: token, reason: "'in' needs a span after it, as 'in 20m' or 'in 20 minutes'") }
        if let (h, m, s) = namedTime(lower) { return .timeOfDay(hour: h, minute: m, second: s) }
        if let first = lower.first, first.isLetter, lower != "now" {
            throw WakeSpec.ParseError(token: token, reason: "unknown word '\(TerminalText.printable(original, limit: WakeSpec.tokenLimit))'; give a time of day and, if you like, a day, \(example)")
        }
        return try WakeSpec(single: original, token: token)
    }
}
