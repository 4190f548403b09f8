/// What a person typed as `wake <when>`, parsed but not yet tied to a moment.
public enum WakeSpec: Hashable, Sendable {
    /// The next occurrence of this time of day, strictly after now.
    case timeOfDay(hour: Int, minute: Int, second: Int)
    /// A span from now, measured on a clock that counts suspend and ignores clock steps.
    case relative(Duration)
    /// Ring at once: the sound test.
    case now
    /// A specific local date and time.
    case dateTime(LocalDateTime)
    /// A date and time with its own UTC offset (ISO 8601 `...+01:00` or `...Z`): one absolute
    /// instant whatever the local zone, waited for on the wall clock.
    case zonedDateTime(LocalDateTime, utcOffsetSeconds: Int)
    /// A time of day on a named day: `tomorrow 7am`, `mon 6:30`, `dec 24 8:00`.
    case dayTime(NamedDay, hour: Int, minute: Int, second: Int)

    /// A span of whole seconds from now (the form before spans took milliseconds).
    public static func relative(seconds: Int64) -> WakeSpec { .relative(.seconds(seconds)) }

    public static var acceptedForms: String { localized("accepted forms: {forms}", forms) }
    static let forms =
        "07:00, 07:00:30, 7am, 7:30pm, noon, midnight, tomorrow 7am, mon 6:30, dec 24 8:00, +8h, +90m, +1h30m15s, in 20 minutes, now, "
            + "2026-11-22T07:00[:30], 2026-11-22T07:00+01:00, 2026-11-22T07:00Z"

    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var token: String
        public var reason: String
        public init(token: String, reason: String) { self.token = token; self.reason = reason }
        public var description: String {
            localized("invalid time '{time}': {reason}; {forms}", TerminalText.printable(token, limit: WakeSpec.tokenLimit), reason,
                      WakeSpec.acceptedForms)
        }
    }

    /// How much of a refused token its message quotes: the whole of any real time form.
    public static let tokenLimit = 40

    /// The longest relative span accepted: ten years is far past any alarm and far from overflow.
    public static let maximumRelativeSeconds: Int64 = 10 * 366 * 86_400

    /// Years a date may name: far enough for any alarm, and well inside what Instant holds.
    public static let acceptedYears = 1970...2200

    /// WHEN given as several command-line words, as a shell splits `wake 7:30 pm`, `wake
    /// tomorrow 7am` or `wake in 20 minutes`: read as the one text they make (`TimeWords`).
    public init(parsing words: [String]) throws(ParseError) {
        guard !words.isEmpty else { throw ParseError(token: "", reason: localized("empty")) }
        try self.init(parsing: words.joined(separator: " "))
    }

    /// `YYYY-MM-DD` and nothing else: the first word of a date and time split by the shell.
    static func isDate(_ s: String) -> Bool {
        let u = Array(s.utf8)
        return u.count == 10 && u[4] == UInt8(ascii: "-") && u[7] == UInt8(ascii: "-")
            && u.enumerated().allSatisfy { i, c in i == 4 || i == 7 || (48...57).contains(c) }
    }

    /// WHEN as one text: one form (`07:00`, `+8h`, `2026-11-22T07:00`), or words (`tomorrow 7am`,
    /// `7:30 pm`, `noon`, `in 20 minutes`).
    public init(parsing text: String) throws(ParseError) {
        func fail(_ reason: String) -> ParseError { ParseError(token: text, reason: reason) }
        guard !text.isEmpty else { throw fail(localized("empty")) }
        guard text.utf8.count <= 64 else { throw fail(localized("too long")) }
        guard text.allSatisfy({ $0.isASCII && $0 != "\0" }) else { throw fail(localized("only ASCII letters and digits are understood")) }
        guard text.first != " ", text.last != " " else { throw fail(localized("leading or trailing space")) }
        guard !text.contains("  ") else { throw fail(localized("two spaces in a row; separate the words with one")) }
        self = try TimeWords.parse(text.split(separator: " ").map(String.init), token: text)
    }

    /// One form, without words: what `TimeWords` reads each time word with. `token` is the whole
    /// text, for the message.
    init(single text: String, token: String) throws(ParseError) {
        func fail(_ reason: String) -> ParseError { ParseError(token: token, reason: reason) }
        let lower = text.lowercased()

        if lower == "now" { self = .now; return }
        if lower.hasPrefix("+") { self = try .relative(WakeSpec.relativeSpan(String(lower.dropFirst()), token: token)); return }
        if lower.hasPrefix("-") { throw fail(localized("a time cannot be in the past; use +SPAN for a span from now, as +8h")) }

        if lower.hasSuffix("am") || lower.hasSuffix("pm") {
            let isPM = lower.hasSuffix("pm")
            var clock = String(lower.dropLast(2))
            if clock.last == " " { clock.removeLast() }
            let (h, m, s) = try WakeSpec.clockFields(clock, token: token, allowHourOnly: true)
            guard (1...12).contains(h) else { throw fail(localized("a 12-hour clock runs from 1 to 12")) }
            let hour = (h % 12) + (isPM ? 12 : 0)
            self = .timeOfDay(hour: hour, minute: m, second: s)
            return
        }

        if lower.count >= 10, lower.prefix(4).allSatisfy(\.isWholeNumberDigit), lower.dropFirst(4).first == "-" {
            self = try WakeSpec.dateAndTime(lower, token: token)
            return
        }

        let (h, m, s) = try WakeSpec.clockFields(lower, token: token, allowHourOnly: false)
        guard h <= 23 else { throw fail(localized("hour must be 0-23")) }
        self = .timeOfDay(hour: h, minute: m, second: s)
    }

    /// `YYYY-MM-DD[T ]H:MM[:SS]`, optionally followed by `Z` or `±HH:MM` (`±HHMM`, `±HH`).
    static func dateAndTime(_ lower: String, token text: String) throws(ParseError) -> WakeSpec {
        func fail(_ reason: String) -> ParseError { ParseError(token: text, reason: reason) }
        let separator = lower.index(lower.startIndex, offsetBy: 10)
        guard separator < lower.endIndex, lower[separator] == "t" || lower[separator] == " " else {
            throw fail(localized("a date needs a time too, as 2026-11-22T07:00"))
        }
        let parts = lower[..<separator].split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy(\.isWholeNumberDigit) }),
              let y = Int(parts[0]), let mo = Int(parts[1]), let d = Int(parts[2]) else {
            throw fail(localized("a date is written YYYY-MM-DD"))
        }
        guard acceptedYears.contains(y) else { throw fail(localized("the year must be between 1970 and 2200")) }
        let date = CivilDate(year: y, month: mo, day: d)
        guard date.isValid else { throw fail(localized("no such date")) }

        var clock = lower[lower.index(after: separator)...]
        var offset: Int?
        if clock.last == "z" {
            offset = 0
            clock = clock.dropLast()
        } else if let sign = clock.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            offset = try utcOffset(clock[sign...], token: text)
            clock = clock[..<sign]
        }
        let (h, m, s) = try clockFields(String(clock), token: text, allowHourOnly: false)
        guard h <= 23 else { throw fail(localized("hour must be 0-23")) }
        let local = LocalDateTime(date: date, hour: h, minute: m, second: s)
        if let offset { return .zonedDateTime(local, utcOffsetSeconds: offset) }
        return .dateTime(local)
    }

    /// `+HH:MM`, `-HHMM`, `+HH`: seconds east of UTC.
    static func utcOffset(_ s: Substring, token: String) throws(ParseError) -> Int {
        let fail = ParseError(token: token, reason: localized("a UTC offset is written +HH:MM or -HH:MM (hours 00-23), or Z for UTC"))
        let sign = s.first == "-" ? -1 : 1
        let digits = s.dropFirst().filter { $0 != ":" }
        let colons = s.dropFirst().filter { $0 == ":" }.count
        guard digits.allSatisfy(\.isWholeNumberDigit), digits.count == 2 || digits.count == 4,
              colons == 0 || (colons == 1 && digits.count == 4 && s.dropFirst(3).first == ":"),
              let hh = Int(digits.prefix(2)), let mm = Int(digits.dropFirst(2).isEmpty ? "0" : String(digits.dropFirst(2))),
              hh <= 23, mm <= 59 else { throw fail }
        return sign * (hh * 3600 + mm * 60)
    }

    /// `H[:MM[:SS]]` with two-digit minutes and seconds.
    static func clockFields(_ s: String, token: String, allowHourOnly: Bool) throws(ParseError) -> (Int, Int, Int) {
        func fail(_ reason: String) -> ParseError { ParseError(token: token, reason: reason) }
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 3, parts.count >= (allowHourOnly ? 1 : 2) else { throw fail(localized("not a time of day")) }
        guard parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isWholeNumberDigit) }) else { throw fail(localized("not a time of day")) }
        guard parts[0].count <= 2 else { throw fail(localized("hour must be one or two digits")) }
        guard parts.dropFirst().allSatisfy({ $0.count == 2 }) else { throw fail(localized("minutes and seconds take two digits")) }
        // At most two ASCII digits each, checked above: these conversions cannot fail.
        let fields = parts.map { Int($0) ?? 99 }
        let h = fields[0]
        let m = fields.count > 1 ? fields[1] : 0
        let sec = fields.count > 2 ? fields[2] : 0
        guard m <= 59 else { throw fail(localized("minute must be 00-59")) }
        guard sec <= 59 else { throw fail(localized("second must be 00-59")) }
        return (h, m, sec)
    }

    /// The `SPAN` of `+SPAN`: the span grammar shared with DURATION options, longer than zero.
    static func relativeSpan(_ s: String, token: String) throws(ParseError) -> Duration {
        switch SpanGrammar.parse(Substring(s), allowBareZero: false) {
        case .failure(let e):
            throw ParseError(token: token, reason: e.reason)
        case .success(let ms):
            guard ms > 0 else { throw ParseError(token: token, reason: localized("a span must be longer than zero")) }
            return .milliseconds(ms)
        }
    }
}

extension String {
    /// The string made safe to quote in a one-line message: control, C1 and bidi characters
    /// escaped, and shortened in the middle to `TerminalText.nameLimit` characters.
    public var printable: String { TerminalText.printable(self) }

    public func leftPadded(to width: Int, with pad: Character = "0") -> String {
        count >= width ? self : String(repeating: pad, count: width - count) + self
    }
}
