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
    public static let optionOrder = AlarmOption.all(.stored).map(\.name)
    /// The same, as a set.
    public static let optionKeys = Set(optionOrder)
    /// The stored options that take one file or several (`AlarmOption.Kind.files`).
    static let fileListKeys = Set(AlarmOption.all(.stored).filter { $0.kind.isList }.map(\.name))
    /// Each key's place in `optionOrder`.
    static let optionRank = Dictionary(optionOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })

    /// Day names as written, Sunday first (the bit order of `StandingAlarm.days`).
    public static let dayNames = DaySet.shortNames
    /// The order days are written in: Monday first, as people read a week.
    static let writtenDayOrder = [1, 2, 3, 4, 5, 6, 0]

    /// The comment at the top of every file wake writes: the format's documentation. The ring
    /// options it names are the table's (`AlarmOption`), so a new one is documented here too.
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
        #   at = "2026-12-03T16:25:17Z"  or rings once at this instant, UTC (`wake add +25m`, a timer); time is then
        #                            only shown, and may be left out
        #   timer = "4m"             a timer (`wake timer`) of this span; remaining = "3m20s" while it is paused
        #                            (no at then); repeat = "true": it starts again, timer long, after each ring

        """ + optionLines + """
        #   message = "Dentist"      a note shown with the alarm (--message), at most 120 characters
        #   created = "2026-11-23T03:00:00Z"   added or last changed, UTC (required)
        #
        # Every value is a string in double quotes, with TOML's escapes (\\" \\\\ \\n \\t \\uXXXX); days and
        # skip-days are arrays of them on one line. Keys are bare (no quotes, no dots). # starts a comment; blank
        # lines are ignored. Anything else is an error that names its line, and wake then leaves
        # the file as it is.

        """

    /// The header's lines on the ring options: every stored option but the message (which has a
    /// line of its own), wrapped beside two examples.
    static var optionLines: String {
        let keys = optionOrder.filter { $0 != AlarmOption.message.name }
        let words = ("ring options as given to `wake add`, without the dashes: " + keys.joined(separator: ", ")
                     + "; always strings, checked like the command line's options when read").split(separator: " ")
        let examples = ["sound = \"/path/a.flac\"", "volume = \"80\""]
        // `#   ` and the examples' column, then the text up to 100 characters a line.
        let column = 25, room = 100 - 4 - column
        var lines: [String] = []
        var line = ""
        for word in words {
            if !line.isEmpty && line.count + 1 + word.count > room {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        var out = ""
        for (i, text) in lines.enumerated() {
            let example = i < examples.count ? examples[i] : ""
            out += "#   " + example + String(repeating: " ", count: column - example.count) + text + "\n"
        }
        return out
    }

    // MARK: Parsing

    public static func parse(_ text: String) throws(ParseError) -> [StandingAlarm] {
        var alarms: [StandingAlarm] = []
        var seen: Set<String> = []
        var current: Draft?
        // Alarms written alike share one copy of their options (2,000 alarms with one sound
        // held 2,000 dictionaries: 0.4 MB of a waiting daemon's 8).
        var sharedOptions: Set<[String: String]> = []

        func finish() throws(ParseError) {
            guard let d = current else { return }
            var alarm = try d.alarm()
            if !alarm.options.isEmpty { alarm.options = sharedOptions.insert(alarm.options).memberAfterInsert }
            alarms.append(alarm)
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
        /// The options in the order read, made a dictionary once the table ends: a dictionary
        /// grown key by key, and a set of the keys seen, were half of reading 2,000 alarms.
        var options: [(key: String, value: String)] = []
        /// The fields seen (bits of `fields`), for duplicates; an option's duplicate is found in `options`.
        var fieldsSeen: UInt8 = 0
        static let fields = ["time", "days", "date", "created", "at", "timer", "remaining", "repeat"]
        var at: Instant?
        var timer: (span: Duration?, remaining: Duration?, repeats: Bool) = (nil, nil, false)

        init(name: String, line: Int) { self.name = name; self.line = line }

        mutating func set(_ key: String, _ value: TOMLSubset.Value, line n: Int) throws(ParseError) {
            func fail(_ m: String) -> ParseError { ParseError(line: n, message: m) }
            let field = Self.fields.firstIndex(of: key)
            guard field != nil || AlarmBook.optionKeys.contains(key) else { throw fail("unknown key '\(key)' in alarm '\(name)'") }
            let seen = field.map { fieldsSeen & (1 << UInt8($0)) != 0 } ?? options.contains { $0.key == key }
            guard !seen else { throw fail("duplicate key '\(key)' in alarm '\(name)'") }
            if let field { fieldsSeen |= 1 << UInt8(field) }
            let isField = field != nil
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
            if !isField, AlarmBook.fileListKeys.contains(key) {
                // One name or an array of them; held as one text, names on lines of their own.
                switch value {
                case .string(let s): options.append((key, s))
                case .array(let items):
                    guard !items.isEmpty else { throw fail("\(key) is empty: leave it out, or give at least one value") }
                    if let bad = items.first(where: { $0.contains(AlarmOption.listSeparator) }) {
                        throw fail("\(key): a value holds a line break: \"\(bad.printable)\"")
                    }
                    options.append((key, items.joined(separator: String(AlarmOption.listSeparator))))
                default: throw fail("\(key) takes a string in double quotes, or an array of them")
                }
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
            case "at", "timer", "remaining", "repeat":
                try setTimed(key, s, fail: fail)
            case "created":
                guard let t = TOMLSubset.instant(s) else {
                    throw fail("created must be a UTC time such as \"2026-11-23T03:00:00Z\", not \"\(s.printable)\"")
                }
                created = t
            default:
                options.append((key, s))
            }
        }

        func alarm() throws(ParseError) -> StandingAlarm {
            let timed = try timed()
            guard let t = time ?? (timed.at != nil || timed.timer != nil ? (0, 0, 0) : nil) else {
                throw ParseError(line: line, message: "alarm '\(name)' has no time = \"HH:MM:SS\"")
            }
            guard let c = created else {
                throw ParseError(line: line, message: "alarm '\(name)' has no created = \"YYYY-MM-DDTHH:MM:SSZ\"")
            }
            let options = Dictionary(options.lazy.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            return StandingAlarm(name: name, hour: t.0, minute: t.1, second: t.2, days: days, date: date,
                                 options: options, created: c, at: timed.at, timer: timed.timer)
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
        // Bytes appended to one reserved buffer, made a string once: interpolating each line, and
        // then appending strings to a string, were most of the cost of writing 2,000 alarms.
        var out: [UInt8] = []
        out.reserveCapacity(header.utf8.count + alarms.count * 160)
        func put(_ text: String) { out.append(contentsOf: text.utf8) }
        put(header)
        for a in alarms.sorted(by: { $0.name < $1.name }) {
            put("\n[alarms.")
            put(a.name)
            put("]\ntime = \"")
            put(a.timeText)
            put("\"\n")
            if a.days != 0 {
                put("days = [")
                var first = true
                for d in writtenDayOrder where a.days & (1 << UInt8(d)) != 0 {
                    put(first ? "\"" : ", \"")
                    put(dayNames[d])
                    put("\"")
                    first = false
                }
                put("]\n")
            }
            if let d = a.date {
                put("date = \"")
                put(TOMLSubset.dateText(d))
                put("\"\n")
            }
            // The table's options in `optionOrder`, then any other key by name: sorted by rank
            // rather than looked up key by key of the table (most alarms have a few options).
            let keys = a.options.count < 2 ? Array(a.options.keys)
                : a.options.keys.sorted { (optionRank[$0] ?? Int.max, $0) < (optionRank[$1] ?? Int.max, $1) }
            for key in keys {
                guard let v = a.options[key] else { continue }
                put(key)
                put(" = ")
                // Several files as an array; one (or a text the parser would refuse) as it is.
                let names = fileListKeys.contains(key)
                    ? v.split(separator: AlarmOption.listSeparator, omittingEmptySubsequences: false) : []
                if names.count > 1, !names.contains(where: \.isEmpty) {
                    put("[")
                    put(names.map { TOMLSubset.quoted(String($0)) }.joined(separator: ", "))
                    put("]\n")
                } else {
                    put(TOMLSubset.quoted(v))
                    put("\n")
                }
            }
            putTimed(a, put)
            put("created = \"")
            put(TOMLSubset.instantText(a.created))
            put("\"\n")
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func two(_ n: Int) -> String { n >= 0 && n < 10 ? "0\(n)" : "\(n)" }
}
