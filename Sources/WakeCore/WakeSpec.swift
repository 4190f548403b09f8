/// What a person typed as `wake <when>`, parsed but not yet tied to a moment.
public enum WakeSpec: Hashable, Sendable {
    /// The next occurrence of this time of day, strictly after now.
    case timeOfDay(hour: Int, minute: Int, second: Int)
    /// A span from now, measured on a clock that counts suspend and ignores clock steps.
    case relative(seconds: Int64)
    /// Ring at once: the sound test.
    case now
    /// A specific local date and time.
    case dateTime(LocalDateTime)

    public static let acceptedForms =
        "accepted forms: 07:00, 07:00:30, 7am, 7:30pm, +8h, +90m, +1h30m15s, now, 2026-11-22T07:00[:30]"

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var token: String
        public var reason: String
        public init(token: String, reason: String) { self.token = token; self.reason = reason }
        public var description: String {
            "invalid time '\(token.printable.abbreviated(to: 40))': \(reason); \(WakeSpec.acceptedForms)"
        }
    }

    /// The longest relative span accepted: ten years is far past any alarm and far from overflow.
    public static let maximumRelativeSeconds: Int64 = 10 * 366 * 86_400

    public init(parsing text: String) throws(ParseError) {
        func fail(_ reason: String) -> ParseError { ParseError(token: text, reason: reason) }
        guard !text.isEmpty else { throw fail("empty") }
        guard text.utf8.count <= 64 else { throw fail("too long") }
        guard text.allSatisfy({ $0.isASCII && $0 != "\0" }) else { throw fail("only ASCII letters and digits are understood") }
        guard text.first != " ", text.last != " " else { throw fail("leading or trailing space") }
        let lower = text.lowercased()

        if lower == "now" { self = .now; return }
        if lower.hasPrefix("+") { self = try .relative(seconds: WakeSpec.relativeSeconds(String(lower.dropFirst()), token: text)); return }
        if lower.hasPrefix("-") { throw fail("a time cannot be in the past; use +DURATION for a span from now") }

        if lower.hasSuffix("am") || lower.hasSuffix("pm") {
            let isPM = lower.hasSuffix("pm")
            var clock = String(lower.dropLast(2))
            if clock.last == " " { clock.removeLast() }
            let (h, m, s) = try WakeSpec.clockFields(clock, token: text, allowHourOnly: true)
            guard (1...12).contains(h) else { throw fail("a 12-hour clock runs from 1 to 12") }
            let hour = (h % 12) + (isPM ? 12 : 0)
            self = .timeOfDay(hour: hour, minute: m, second: s)
            return
        }

        if lower.count >= 10, lower.prefix(4).allSatisfy(\.isNumber), lower.dropFirst(4).first == "-" {
            let separator = lower.index(lower.startIndex, offsetBy: 10)
            guard separator < lower.endIndex, lower[separator] == "t" || lower[separator] == " " else {
                throw fail("a date needs a time too, as 2026-11-22T07:00")
            }
            let parts = lower[..<separator].split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
                  parts.allSatisfy({ $0.allSatisfy(\.isNumber) }),
                  let y = Int(parts[0]), let mo = Int(parts[1]), let d = Int(parts[2]) else {
                throw fail("a date is written YYYY-MM-DD")
            }
            // Far enough for any alarm, and well inside what Instant's nanoseconds can hold.
            guard (1970...2200).contains(y) else { throw fail("the year must be between 1970 and 2200") }
            let date = CivilDate(year: y, month: mo, day: d)
            guard date.isValid else { throw fail("no such date") }
            let (h, m, s) = try WakeSpec.clockFields(String(lower[lower.index(after: separator)...]), token: text, allowHourOnly: false)
            guard h <= 23 else { throw fail("hour must be 0-23") }
            self = .dateTime(LocalDateTime(date: date, hour: h, minute: m, second: s))
            return
        }

        let (h, m, s) = try WakeSpec.clockFields(lower, token: text, allowHourOnly: false)
        guard h <= 23 else { throw fail("hour must be 0-23") }
        self = .timeOfDay(hour: h, minute: m, second: s)
    }

    /// `H[:MM[:SS]]` with two-digit minutes and seconds.
    static func clockFields(_ s: String, token: String, allowHourOnly: Bool) throws(ParseError) -> (Int, Int, Int) {
        func fail(_ reason: String) -> ParseError { ParseError(token: token, reason: reason) }
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 3, parts.count >= (allowHourOnly ? 1 : 2) else { throw fail("not a time of day") }
        guard parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else { throw fail("not a time of day") }
        guard parts[0].count <= 2 else { throw fail("hour must be one or two digits") }
        guard parts.dropFirst().allSatisfy({ $0.count == 2 }) else { throw fail("minutes and seconds take two digits") }
        let h = Int(parts[0])!
        let m = parts.count > 1 ? Int(parts[1])! : 0
        let sec = parts.count > 2 ? Int(parts[2])! : 0
        guard m <= 59 else { throw fail("minute must be 00-59") }
        guard sec <= 59 else { throw fail("second must be 00-59") }
        return (h, m, sec)
    }

    /// `1h30m15s`: each unit at most once, in that order, adding up to more than zero.
    static func relativeSeconds(_ s: String, token: String) throws(ParseError) -> Int64 {
        func fail(_ reason: String) -> ParseError { ParseError(token: token, reason: reason) }
        let units: [(Character, Int64)] = [("h", 3600), ("m", 60), ("s", 1)]
        var rest = Substring(s)
        var total: Int64 = 0
        var nextUnit = 0
        guard !rest.isEmpty else { throw fail("a span needs a number and a unit (h, m or s)") }
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isNumber }
            guard !digits.isEmpty else { throw fail("a span is numbers with units h, m, s, as +1h30m") }
            rest = rest[digits.endIndex...]
            guard let unit = rest.first else { throw fail("missing unit after \(digits) (h, m or s)") }
            guard let index = units.firstIndex(where: { $0.0 == unit }), index >= nextUnit else {
                throw fail("unknown or repeated unit '\(String(unit).printable)' (use h, m, s in that order)")
            }
            rest.removeFirst()
            nextUnit = index + 1
            guard digits.count <= 12, let n = Int64(digits) else { throw fail("too large") }
            total += n * units[index].1
            guard total <= maximumRelativeSeconds else { throw fail("too large (at most 10 years)") }
        }
        guard total > 0 else { throw fail("a span must be longer than zero") }
        return total
    }
}

extension String {
    /// The string with control characters escaped, for quoting user input in one-line messages.
    public var printable: String {
        var out = ""
        for scalar in unicodeScalars {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\x" + String(scalar.value, radix: 16).leftPadded(to: 2)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// At most `limit` characters, so a pasted novel does not become a 100 KB error line.
    public func abbreviated(to limit: Int) -> String {
        count <= limit ? self : String(prefix(limit)) + "..."
    }

    public func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
