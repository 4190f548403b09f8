/// The alarms file: standing alarms as a small, documented, strict subset of TOML, read and
/// written by the hand-written code below (no dependency, nothing to load at start-up).
///
/// ```
/// [alarms.work]
/// time = "06:30:00"
/// days = ["mon", "tue", "wed", "thu", "fri"]
/// sound = "/home/me/alarm.flac"
/// created = "2026-11-23T03:00:00Z"
/// ```
///
/// `serialize` writes the format with a header comment that documents it (`header`); `parse`
/// accepts exactly what that comment describes and names the line of anything else. Every
/// value is a string, the options too, so the command line's own checks run on them again
/// when the alarms are loaded: a hand edit is held to the same rules as `wake add`.
public enum AlarmBook {
    /// What is wrong with a file, and on which line (1-based).
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var line: Int
        public var message: String
        public init(line: Int, message: String) { self.line = line; self.message = message }
        /// `line 7: unknown key 'tyme'`
        public var description: String { "line \(line): \(message)" }
    }

    /// The ring options an alarm may carry, in the order they are written.
    public static let optionOrder = ["sound", "device", "volume", "fade-in", "snooze", "ring-for", "late-limit", "min-volume", "mixer",
                                     "message"]
    /// The same, as a set.
    public static let optionKeys = Set(optionOrder)

    /// Day names as written, Sunday first (the bit order of `StandingAlarm.days`).
    public static let dayNames = DaySet.shortNames
    /// The order days are written in: Monday first, as people read a week.
    static let writtenDayOrder = [1, 2, 3, 4, 5, 6, 0]

    /// The comment at the top of every file wake writes: the format's documentation.
    public static let header = """
        # wake: standing alarms. `wake add` and `wake remove` rewrite this file; comments are not kept.
        #
        # The format is a strict subset of TOML (https://toml.io), read by wake itself:
        #
        #   [alarms.NAME]            one table per alarm; NAME is 1 to 32 of a-z 0-9 _ - (not starting with -)
        #   time = "06:30:00"        local time of day, "HH:MM:SS" or "HH:MM" (required)
        #   days = ["mon", "fri"]    rings on these weekdays: mon tue wed thu fri sat sun
        #   date = "2026-11-24"      or rings once, on this local date
        #                            (neither days nor date: once, at the first such time after created)
        #   sound = "/path/a.flac"   ring options as given to `wake add`, without the dashes: sound,
        #   volume = "80"            device, volume, fade-in, snooze, ring-for, late-limit, min-volume,
        #                            mixer; always strings, checked like the command line's options when read
        #   message = "Dentist"      a note shown with the alarm (--message), at most 120 characters
        #   created = "2026-11-23T03:00:00Z"   when the alarm was added, UTC (required)
        #
        # Every value is a string in double quotes, with TOML's escapes (\\" \\\\ \\n \\t \\uXXXX); days is an
        # array of them on one line. Keys are bare (no quotes, no dots). # starts a comment; blank
        # lines are ignored. Anything else is an error that names its line, and wake then leaves
        # the file as it is.

        """

    // MARK: Parsing

    public static func parse(_ text: String) throws(ParseError) -> [StandingAlarm] {
        var alarms: [StandingAlarm] = []
        var seen: Set<String> = []
        var current: Draft?

        func finish() throws(ParseError) {
            guard let d = current else { return }
            alarms.append(try d.alarm())
            current = nil
        }

        for (number, scalars) in TOMLSubset.lines(text) {
            switch try TOMLSubset.parseLine(scalars, number: number) {
            case .blank:
                continue
            case .table(let parts):
                try finish()
                guard parts.count == 2, parts[0] == "alarms" else {
                    throw ParseError(line: number, message: "expected a table [alarms.NAME], not [\(parts.joined(separator: "."))]")
                }
                let name = parts[1]
                guard StandingAlarm.isValidName(name) else {
                    throw ParseError(line: number, message: "invalid alarm name '\(name.printable)': \(nameRule)")
                }
                guard seen.insert(name).inserted else {
                    throw ParseError(line: number, message: "duplicate alarm '\(name)'")
                }
                current = Draft(name: name, line: number)
            case .pair(let key, let value):
                guard current != nil else {
                    throw ParseError(line: number, message: "'\(key) = ...' comes before the first [alarms.NAME] table")
                }
                try current!.set(key, value, line: number)
            }
        }
        try finish()
        return alarms
    }

    static let nameRule = "use 1 to 32 of a-z, 0-9, _ and -, not starting with -"

    /// An alarm whose table is being read.
    struct Draft {
        var name: String
        var line: Int
        var time: (Int, Int, Int)?
        var days: UInt8 = 0
        var daysLine: Int?
        var date: CivilDate?
        var dateLine: Int?
        var created: Instant?
        var options: [String: String] = [:]
        var keys: Set<String> = []

        init(name: String, line: Int) { self.name = name; self.line = line }

        mutating func set(_ key: String, _ value: TOMLSubset.Value, line n: Int) throws(ParseError) {
            func fail(_ m: String) -> ParseError { ParseError(line: n, message: m) }
            let known = ["time", "days", "date", "created"].contains(key) || AlarmBook.optionKeys.contains(key)
            guard known else { throw fail("unknown key '\(key)' in alarm '\(name)'") }
            guard keys.insert(key).inserted else { throw fail("duplicate key '\(key)' in alarm '\(name)'") }
            if key == "days" {
                guard case .array(let items) = value else {
                    throw fail("days takes an array of day names, such as days = [\"mon\", \"tue\"]")
                }
                guard !items.isEmpty else { throw fail("days is empty: leave it out for a one-off alarm") }
                for item in items {
                    guard let w = AlarmBook.dayNames.firstIndex(of: item) else {
                        throw fail("unknown day '\(item.printable)': use mon, tue, wed, thu, fri, sat or sun")
                    }
                    guard days & (1 << UInt8(w)) == 0 else { throw fail("day '\(item)' is listed twice") }
                    days |= 1 << UInt8(w)
                }
                daysLine = n
                if date != nil { throw fail("alarm '\(name)' has both days and a date: keep one") }
                return
            }
            guard case .string(let s) = value else {
                throw fail("\(key) takes a string in double quotes, not an array")
            }
            switch key {
            case "time":
                guard let t = TOMLSubset.timeOfDay(s) else {
                    throw fail("time must be \"HH:MM:SS\" or \"HH:MM\" (00:00:00 to 23:59:59), not \"\(s.printable)\"")
                }
                time = t
            case "date":
                guard let d = TOMLSubset.date(s) else {
                    throw fail("date must be a calendar date \"YYYY-MM-DD\", not \"\(s.printable)\"")
                }
                date = d
                dateLine = n
                if daysLine != nil { throw fail("alarm '\(name)' has both days and a date: keep one") }
            case "created":
                guard let t = TOMLSubset.instant(s) else {
                    throw fail("created must be a UTC time such as \"2026-11-23T03:00:00Z\", not \"\(s.printable)\"")
                }
                created = t
            default:
                options[key] = s
            }
        }

        func alarm() throws(ParseError) -> StandingAlarm {
            guard let t = time else { throw ParseError(line: line, message: "alarm '\(name)' has no time = \"HH:MM:SS\"") }
            guard let c = created else {
                throw ParseError(line: line, message: "alarm '\(name)' has no created = \"YYYY-MM-DDTHH:MM:SSZ\"")
            }
            return StandingAlarm(name: name, hour: t.0, minute: t.1, second: t.2, days: days, date: date,
                                 options: options, created: c)
        }
    }

    // MARK: Writing

    /// The file for `alarms`: the header, then one table per alarm in name order.
    ///
    /// Total: it writes whatever it is given. A value the parser would refuse (an invalid name,
    /// hour 25, an unknown option key, two alarms with one name) comes out as written, and
    /// `parse` then reports it; `AlarmStore` parses what it is about to write and refuses to
    /// write a file it could not read back.
    public static func serialize(_ alarms: [StandingAlarm]) -> String {
        var out = header
        for a in alarms.sorted(by: { $0.name < $1.name }) {
            out += "\n[alarms.\(a.name)]\n"
            out += "time = \"\(a.timeText)\"\n"
            if a.days != 0 {
                let names = writtenDayOrder.filter { a.days & (1 << UInt8($0)) != 0 }.map { "\"\(dayNames[$0])\"" }
                out += "days = [\(names.joined(separator: ", "))]\n"
            }
            if let d = a.date { out += "date = \"\(TOMLSubset.dateText(d))\"\n" }
            let extra = a.options.keys.filter { !optionKeys.contains($0) }.sorted()
            for key in optionOrder + extra {
                if let v = a.options[key] { out += "\(key) = \(TOMLSubset.quoted(v))\n" }
            }
            out += "created = \"\(TOMLSubset.instantText(a.created))\"\n"
        }
        return out
    }

    static func two(_ n: Int) -> String { n >= 0 && n < 10 ? "0\(n)" : "\(n)" }
}

/// The TOML subset both wake files use: blank lines, `#` comments, `[a.b]` table headers with
/// bare keys, and `key = value` lines where a value is a basic string or a one-line array of
/// them. Also the text forms of times, dates and instants the files hold.
enum TOMLSubset {
    enum Value: Equatable {
        case string(String)
        case array([String])
        /// Only where the caller allows scalars (the config file): `volume = 60`.
        case integer(Int)
        case boolean(Bool)
    }

    enum Line: Equatable {
        case blank
        case table([String])
        case pair(String, Value)
    }

    typealias ParseError = AlarmBook.ParseError

    /// The lines of `text`, numbered from 1, split at LF with a CR before it dropped (a bare
    /// CR stays and is refused where it stands). A byte-order mark at the start is skipped.
    static func lines(_ text: String) -> [(Int, ArraySlice<Unicode.Scalar>)] {
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        var result: [(Int, ArraySlice<Unicode.Scalar>)] = []
        var start = 0, number = 1
        for i in scalars.indices where scalars[i] == "\n" {
            var end = i
            if end > start, scalars[end - 1] == "\r" { end -= 1 }
            result.append((number, scalars[start..<end]))
            number += 1
            start = i + 1
        }
        if start < scalars.count { result.append((number, scalars[start...])) }
        return result
    }

    static func isBareKey(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-": return true
        default: return false
        }
    }

    /// One line, parsed. `scalars` also accepts TOML's decimal integers and booleans as values.
    static func parseLine(_ line: ArraySlice<Unicode.Scalar>, number: Int, scalars: Bool = false) throws(ParseError) -> Line {
        var s = Scanner(line, number)
        s.skipSpace()
        if s.atEndOrComment { return .blank }
        if s.peek == "[" {
            s.advance()
            if s.peek == "[" { throw s.fail("arrays of tables ([[...]]) are not part of this format") }
            var parts: [String] = []
            while true {
                s.skipSpace()
                let key = s.bareKey()
                if key.isEmpty {
                    throw s.fail(s.peek == "\"" || s.peek == "'" ? "quoted table names are not part of this format"
                                                                  : "expected a table name, such as [alarms.work]")
                }
                parts.append(key)
                s.skipSpace()
                if s.peek == "." { s.advance(); continue }
                if s.peek == "]" { s.advance(); break }
                throw s.fail("expected ']' to close the table name")
            }
            s.skipSpace()
            guard s.atEndOrComment else { throw s.fail("unexpected text after the table name") }
            return .table(parts)
        }
        if s.peek == "\"" || s.peek == "'" { throw s.fail("quoted keys are not part of this format; write the key bare") }
        let key = s.bareKey()
        guard !key.isEmpty else { throw s.fail("expected key = value") }
        s.skipSpace()
        if s.peek == "." { throw s.fail("dotted keys are not part of this format; write '\(key)' inside its table") }
        guard s.peek == "=" else { throw s.fail("expected key = value") }
        s.advance()
        s.skipSpace()
        let value: Value
        switch s.peek {
        case "\"":
            value = .string(try s.basicString())
        case "[":
            s.advance()
            var items: [String] = []
            while true {
                s.skipSpace()
                if s.peek == "]" { s.advance(); break }
                if s.atEnd { throw s.fail("the array of '\(key)' must close with ']' on the same line") }
                guard s.peek == "\"" else { throw s.fail("the array of '\(key)' may hold only strings in double quotes") }
                items.append(try s.basicString())
                s.skipSpace()
                if s.peek == "," { s.advance(); continue }
                if s.peek == "]" { s.advance(); break }
                throw s.fail(s.atEnd ? "the array of '\(key)' must close with ']' on the same line"
                                     : "expected ',' or ']' in the array of '\(key)'")
            }
            value = .array(items)
        case "'":
            throw s.fail("literal strings ('...') are not part of this format; use double quotes")
        case nil, "#":
            throw s.fail("'\(key) =' has no value")
        default:
            guard scalars else { throw s.fail("the value of '\(key)' must be a string in double quotes") }
            value = try s.scalar(key)
        }
        s.skipSpace()
        guard s.atEndOrComment else { throw s.fail("unexpected text after the value of '\(key)'") }
        return .pair(key, value)
    }

    struct Scanner {
        let text: ArraySlice<Unicode.Scalar>
        var i: Int
        let number: Int

        init(_ text: ArraySlice<Unicode.Scalar>, _ number: Int) { self.text = text; self.i = text.startIndex; self.number = number }

        var atEnd: Bool { i >= text.endIndex }
        var peek: Unicode.Scalar? { atEnd ? nil : text[i] }
        var atEndOrComment: Bool { atEnd || text[i] == "#" }
        mutating func advance() { i += 1 }
        mutating func skipSpace() { while let c = peek, c == " " || c == "\t" { i += 1 } }
        func fail(_ m: String) -> ParseError { ParseError(line: number, message: m) }

        /// `true`, `false`, or a decimal integer as TOML writes one: an optional sign, no leading
        /// zeros, `_` only between digits. Anything else (floats, dates, hex) is named as such.
        mutating func scalar(_ key: String) throws(ParseError) -> Value {
            var word = ""
            while let c = peek, c != " ", c != "\t", c != "#" { word.unicodeScalars.append(c); i += 1 }
            if word == "true" { return .boolean(true) }
            if word == "false" { return .boolean(false) }
            var digits = Substring(word)
            var negative = false
            if let sign = digits.first, sign == "+" || sign == "-" { negative = sign == "-"; digits = digits.dropFirst() }
            let parts = digits.split(separator: "_", omittingEmptySubsequences: false)
            let isInteger = !digits.isEmpty && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }
                && !(digits.count > 1 && digits.first == "0")
            guard isInteger else {
                throw fail("the value of '\(key)' must be a string in double quotes, a whole number or true/false, not '\(word)'")
            }
            guard let magnitude = Int(parts.joined()), magnitude <= Int(Int32.max) else { throw fail("the number for '\(key)' is too large") }
            return .integer(negative ? -magnitude : magnitude)
        }

        mutating func bareKey() -> String {
            var k = ""
            while let c = peek, TOMLSubset.isBareKey(c) { k.unicodeScalars.append(c); i += 1 }
            return k
        }

        /// A basic string starting at the opening quote, with TOML's escapes.
        mutating func basicString() throws(ParseError) -> String {
            advance()
            if peek == "\"", i + 1 < text.endIndex, text[i + 1] == "\"" {
                throw fail("multi-line strings (\"\"\"...\"\"\") are not part of this format")
            }
            var out = ""
            while true {
                guard let c = peek else { throw fail("the string has no closing '\"'") }
                advance()
                switch c {
                case "\"":
                    return out
                case "\\":
                    guard let e = peek else { throw fail("the string has no closing '\"'") }
                    advance()
                    switch e {
                    case "\"": out += "\""
                    case "\\": out += "\\"
                    case "n": out += "\n"
                    case "t": out += "\t"
                    case "r": out.unicodeScalars.append("\r")
                    case "b": out += "\u{8}"
                    case "f": out += "\u{C}"
                    case "e": out += "\u{1B}"
                    case "u", "U":
                        let width = e == "u" ? 4 : 8
                        var v: UInt32 = 0
                        for _ in 0..<width {
                            guard let h = peek, let d = hexValue(h) else {
                                throw fail("\\\(e) needs \(width) hexadecimal digits")
                            }
                            v = v << 4 | d
                            advance()
                        }
                        guard let u = Unicode.Scalar(v) else {
                            throw fail("\\\(e)\(String(v, radix: 16, uppercase: true)) is not a Unicode character")
                        }
                        out.unicodeScalars.append(u)
                    default:
                        throw fail("unknown escape '\\\(String(e).printable)' in a string (use \\\" \\\\ \\n \\t \\uXXXX)")
                    }
                default:
                    if TOMLSubset.mustEscape(c) && c != "\t" {
                        throw fail("a control character (U+\(hex4(c.value))) in a string: write it as \\u\(hex4(c.value))")
                    }
                    out.unicodeScalars.append(c)
                }
            }
        }

        func hexValue(_ c: Unicode.Scalar) -> UInt32? {
            switch c {
            case "0"..."9": return c.value - 48
            case "a"..."f": return c.value - 87
            case "A"..."F": return c.value - 55
            default: return nil
            }
        }
    }

    static func hex4(_ v: UInt32) -> String {
        let h = String(v, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - h.count)) + h
    }

    /// The C0 controls, DEL and the C1 controls: TOML forbids the first two raw in a string
    /// (a tab excepted); wake escapes all three when writing, so the file stays readable.
    static func mustEscape(_ c: Unicode.Scalar) -> Bool { c.value < 0x20 || (0x7F...0x9F).contains(c.value) }

    /// `s` as a TOML basic string, quotes included.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if mustEscape(c) { out += "\\u" + hex4(c.value) } else { out.unicodeScalars.append(c) }
            }
        }
        return out + "\""
    }

    // MARK: Times, dates and instants

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
        "\(String(d.year).leftPadded(to: 4))-\(AlarmBook.two(d.month))-\(AlarmBook.two(d.day))"
    }

    /// `2026-11-23T03:00:00Z`, with as many fraction digits as the instant needs (at most 9),
    /// so every `Instant` is written exactly and reads back equal.
    static func instantText(_ t: Instant) -> String {
        let l = LocalDateTime(secondsAsIfUTC: t.seconds)
        var s = dateText(l.date) + "T\(AlarmBook.two(l.hour)):\(AlarmBook.two(l.minute)):\(AlarmBook.two(l.second))"
        let ns = t.nanosecondOfSecond
        if ns != 0 {
            var f = String(ns).leftPadded(to: 9)
            while f.last == "0" { f.removeLast() }
            s += "." + f
        }
        return s + "Z"
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
