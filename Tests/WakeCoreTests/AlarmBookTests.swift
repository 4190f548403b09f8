import Testing
import WakeCore

/// The alarms file: what `serialize` writes reads back equal, for hostile values too; every
/// departure from the documented format is refused with its line.

func alarm(_ name: String, _ h: Int = 6, _ m: Int = 30, _ s: Int = 0, days: UInt8 = StandingAlarm.weekdays,
           date: CivilDate? = nil, options: [String: String] = [:],
           created: Instant = utc(2026, 11, 23, 3)) -> StandingAlarm {
    StandingAlarm(name: name, hour: h, minute: m, second: s, days: days, date: date, options: options, created: created)
}

/// The error `text` is refused with (nil when it parses).
func bookError(_ text: String) -> AlarmBook.ParseError? {
    do {
        _ = try AlarmBook.parse(text)
        return nil
    } catch {
        return error
    }
}

@Suite("AlarmBook")
struct AlarmBookTests {
    @Test func writesTheDocumentedShape() {
        let text = AlarmBook.serialize([
            alarm("work", options: ["sound": "/home/me/a.flac", "volume": "80"]),
            alarm("dentist", 9, 15, 30, days: 0, date: CivilDate(year: 2026, month: 11, day: 24), created: utc(2026, 11, 23, 3, ns: 5_000_000)),
        ])
        #expect(text.hasPrefix(AlarmBook.header))
        let body = String(text.dropFirst(AlarmBook.header.count))
        #expect(body == """

            [alarms.dentist]
            time = "09:15:30"
            date = "2026-11-24"
            created = "2026-11-23T03:00:00.005Z"

            [alarms.work]
            time = "06:30:00"
            days = ["mon", "tue", "wed", "thu", "fri"]
            sound = "/home/me/a.flac"
            volume = "80"
            created = "2026-11-23T03:00:00Z"

            """)
    }

    @Test func theHeaderIsOnlyComments() throws {
        for line in AlarmBook.header.split(separator: "\n") { #expect(line.hasPrefix("#")) }
        #expect(try AlarmBook.parse(AlarmBook.header) == [])
        #expect(try AlarmBook.parse("") == [])
    }

    @Test("the header names every option a file may store, from the option table")
    func theHeaderNamesEveryStoredOption() {
        let comment = AlarmBook.header.split(separator: "\n").joined(separator: " ")
        for key in AlarmBook.optionOrder {
            #expect(comment.contains(" \(key),") || comment.contains(" \(key);") || comment.contains("\(key) ="), "the header lacks \(key)")
        }
    }

    @Test func readsWhatAPersonMightWrite() throws {
        let text = "\u{FEFF}" + """
            # my alarms\r
               [ alarms . work ]   # the job\r
            time="06:30"
            days = [ "sat","sun", ]  # trailing comma, any order
            \tsound = "a \\"b\\" \\u00e9\\U0001F600\\e"
            created = "2026-11-23T03:00:00.1Z"

            [alarms.once]
            time = "23:59:59"
            created = "1970-01-01T00:00:00Z"
            """
        let alarms = try AlarmBook.parse(text)
        #expect(alarms.count == 2)
        #expect(alarms[0] == alarm("work", 6, 30, 0, days: StandingAlarm.weekend, options: ["sound": "a \"b\" é😀\u{1B}"],
                                   created: utc(2026, 11, 23, 3, ns: 100_000_000)))
        #expect(alarms[1] == alarm("once", 23, 59, 59, days: 0, created: Instant(nanoseconds: 0)))
    }

    @Test func daysMapToWeekdayBits() throws {
        let a = try AlarmBook.parse("[alarms.a]\ntime = \"07:00\"\ndays = [\"sun\", \"sat\", \"wed\"]\ncreated = \"2026-01-01T00:00:00Z\"\n")
        #expect(a[0].days == 0b100_1001)
        #expect(a[0].daySet.contains(0) && a[0].daySet.contains(3) && a[0].daySet.contains(6))
        #expect(!a[0].daySet.contains(1))
    }

    @Test func namesAreShortLowercaseWords() {
        for good in ["work", "a", "0", "_x", "early-bird_2", String(repeating: "z", count: 32)] {
            #expect(StandingAlarm.isValidName(good), "\(good)")
        }
        for bad in ["", "Work", "-rf", "a b", "a.b", "é", "a/b", "a\"b", String(repeating: "z", count: 33), "a\n"] {
            #expect(!StandingAlarm.isValidName(bad), "\(bad)")
        }
    }

    /// Every error the parser knows, on the line it is on.
    @Test(arguments: [
        ("[alarms.a]\ntime = \"07:00\"\ntyme = \"07:00\"", 3, "unknown key 'tyme' in alarm 'a'"),
        ("[alarms.a]\ntime", 2, "expected key = value"),
        ("[alarms.a]\n= \"x\"", 2, "expected key = value"),
        ("[alarms.a]\ntime \"07:00\"", 2, "expected key = value"),
        ("[alarms.a]\ntime =", 2, "'time =' has no value"),
        ("[alarms.a]\ntime = # none", 2, "'time =' has no value"),
        ("[alarms.a]\ntime = 7", 2, "the value of 'time' must be a string in double quotes"),
        ("[alarms.a]\nvolume = 80", 2, "the value of 'volume' must be a string in double quotes"),
        ("[alarms.a]\ntime = '07:00'", 2, "literal strings ('...') are not part of this format; use double quotes"),
        ("[alarms.a]\ntime = \"\"\"07:00\"\"\"", 2, "multi-line strings (\"\"\"...\"\"\") are not part of this format"),
        ("[alarms.a]\ntime = \"07:00", 2, "the string has no closing '\"'"),
        ("[alarms.a]\ntime = \"07:00\\", 2, "the string has no closing '\"'"),
        ("[alarms.a]\ntime = \"07:00\" x", 2, "unexpected text after the value of 'time'"),
        ("[alarms.a]\nsound = \"a\\qb\"", 2, "unknown escape '\\q' in a string (use \\\" \\\\ \\n \\t \\uXXXX)"),
        ("[alarms.a]\nsound = \"\\u12\"", 2, "\\u needs 4 hexadecimal digits"),
        ("[alarms.a]\nsound = \"\\uD800\"", 2, "\\uD800 is not a Unicode character"),
        ("[alarms.a]\nsound = \"\\U00110000\"", 2, "\\U110000 is not a Unicode character"),
        ("[alarms.a]\nsound = \"a\u{1}b\"", 2, "a control character (U+0001) in a string: write it as \\u0001"),
        ("[alarms.a]\nsound = \"a\rb\"", 2, "a control character (U+000D) in a string: write it as \\u000D"),
        ("[alarms.a]\n\"time\" = \"07:00\"", 2, "quoted keys are not part of this format; write the key bare"),
        ("[alarms.a]\nx.time = \"07:00\"", 2, "dotted keys are not part of this format; write 'x' inside its table"),
        ("time = \"07:00\"", 1, "'time = ...' comes before the first [alarms.NAME] table"),
        ("\n\n[work]", 3, "expected a table [alarms.NAME], not [work]"),
        ("[alarms]", 1, "expected a table [alarms.NAME], not [alarms]"),
        ("[alarms.a.b]", 1, "expected a table [alarms.NAME], not [alarms.a.b]"),
        ("[[alarms.a]]", 1, "arrays of tables ([[...]]) are not part of this format"),
        ("[alarms.\"a\"]", 1, "quoted table names are not part of this format"),
        ("[alarms.]", 1, "expected a table name, such as [alarms.work]"),
        ("[alarms.a", 1, "expected ']' to close the table name"),
        ("[alarms.a] x", 1, "unexpected text after the table name"),
        ("[alarms.Work]", 1, "invalid alarm name 'Work': use 1 to 32 of a-z, 0-9, _ and -, not starting with -"),
        ("[alarms.-x]", 1, "invalid alarm name '-x': use 1 to 32 of a-z, 0-9, _ and -, not starting with -"),
        ("[alarms.a]\ntime = \"07:00\"\ncreated = \"2026-11-23T03:00:00Z\"\n[alarms.b]\ntime = \"07:00\"\ncreated = \"2026-11-23T03:00:00Z\"\n\n# again\n[alarms.a]", 9,
         "duplicate alarm 'a'"),
        ("[alarms.a]\ntime = \"07:00\"\ntime = \"08:00\"", 3, "duplicate key 'time' in alarm 'a'"),
        ("[alarms.a]\ntime = \"24:00\"", 2, "time must be \"HH:MM:SS\" or \"HH:MM\" (00:00:00 to 23:59:59), not \"24:00\""),
        ("[alarms.a]\ntime = \"7:00\"", 2, "time must be \"HH:MM:SS\" or \"HH:MM\" (00:00:00 to 23:59:59), not \"7:00\""),
        ("[alarms.a]\ntime = \"07:00:60\"", 2, "time must be \"HH:MM:SS\" or \"HH:MM\" (00:00:00 to 23:59:59), not \"07:00:60\""),
        ("[alarms.a]\ntime = [\"07:00\"]", 2, "time takes a string in double quotes, not an array"),
        ("[alarms.a]\ndays = \"mon\"", 2, "days takes an array of day names, such as days = [\"mon\", \"tue\"]"),
        ("[alarms.a]\ndays = []", 2, "days is empty: leave it out for a one-off alarm"),
        ("[alarms.a]\ndays = [\"monday\"]", 2, "unknown day 'monday': use mon, tue, wed, thu, fri, sat or sun"),
        ("[alarms.a]\ndays = [\"Mon\"]", 2, "unknown day 'Mon': use mon, tue, wed, thu, fri, sat or sun"),
        ("[alarms.a]\ndays = [\"mon\", \"mon\"]", 2, "day 'mon' is listed twice"),
        ("[alarms.a]\ndays = [\"mon\"", 2, "the array of 'days' must close with ']' on the same line"),
        ("[alarms.a]\ndays = [\"mon\",", 2, "the array of 'days' must close with ']' on the same line"),
        ("[alarms.a]\ndays = [\"mon\" \"tue\"]", 2, "expected ',' or ']' in the array of 'days'"),
        ("[alarms.a]\ndays = [mon]", 2, "the array of 'days' may hold only strings in double quotes"),
        ("[alarms.a]\ndays = [\"mon\"]\ndate = \"2026-11-24\"", 3, "alarm 'a' has both days and a date: keep one"),
        ("[alarms.a]\ndate = \"2026-11-24\"\ndays = [\"mon\"]", 3, "alarm 'a' has both days and a date: keep one"),
        ("[alarms.a]\ndate = \"2026-02-29\"", 2, "date must be a calendar date \"YYYY-MM-DD\", not \"2026-02-29\""),
        ("[alarms.a]\ndate = \"26-11-24\"", 2, "date must be a calendar date \"YYYY-MM-DD\", not \"26-11-24\""),
        ("[alarms.a]\ncreated = \"2026-11-23T03:00:00+01:00\"", 2,
         "created must be a UTC time such as \"2026-11-23T03:00:00Z\", not \"2026-11-23T03:00:00+01:00\""),
        ("[alarms.a]\ncreated = \"2026-11-23T03:00:00.Z\"", 2,
         "created must be a UTC time such as \"2026-11-23T03:00:00Z\", not \"2026-11-23T03:00:00.Z\""),
        ("[alarms.a]\ncreated = \"2026-11-23T03:00:00.1234567890Z\"", 2,
         "created must be a UTC time such as \"2026-11-23T03:00:00Z\", not \"2026-11-23T03:00:00.1234567890Z\""),
        ("[alarms.a]\ncreated = \"2300-01-01T00:00:00Z\"", 2,
         "created must be a UTC time such as \"2026-11-23T03:00:00Z\", not \"2300-01-01T00:00:00Z\""),
        ("# one\n[alarms.a]\ncreated = \"2026-11-23T03:00:00Z\"\n", 2, "alarm 'a' has no time = \"HH:MM:SS\""),
        ("[alarms.a]\ntime = \"07:00\"\n[alarms.b]\ntime = \"07:00\"\ncreated = \"2026-11-23T03:00:00Z\"", 1,
         "alarm 'a' has no created = \"YYYY-MM-DDTHH:MM:SSZ\""),
    ] as [(String, Int, String)])
    func refusesWithTheLine(text: String, line: Int, message: String) {
        let e = bookError(text)
        #expect(e == AlarmBook.ParseError(line: line, message: message))
    }

    @Test func theErrorSaysItsLine() {
        #expect(AlarmBook.ParseError(line: 7, message: "expected key = value").description == "line 7: expected key = value")
    }

    @Test func hostileTextInAnErrorIsEscaped() throws {
        let e = try #require(bookError("[alarms.a]\ndays = [\"\\u001b[2J\"]"))
        #expect(!e.description.unicodeScalars.contains { $0.value < 0x20 })
    }

    @Test func crlfLinesCountOnce() {
        #expect(bookError("# a\r\n# b\r\n[alarms.a]\r\nbad\r\n")?.line == 4)
    }

    @Test func instantsAtTheEdgesRoundTrip() throws {
        for t in [Instant.distantPast, .distantFuture, Instant(nanoseconds: -1), Instant(nanoseconds: 1),
                  Instant(nanoseconds: -1_000_000_000), Instant(nanoseconds: 999_999_999)] {
            let a = alarm("a", created: t)
            #expect(try AlarmBook.parse(AlarmBook.serialize([a])) == [a], "\(t)")
        }
    }

    @Test func writesInNameOrderAndReadsInFileOrder() throws {
        let alarms = ["zz", "a", "m"].map { alarm($0) }
        #expect(try AlarmBook.parse(AlarmBook.serialize(alarms)).map(\.name) == ["a", "m", "zz"])
    }

    /// Random alarms with random names, options full of quotes, backslashes, controls and
    /// non-ASCII text: what is written reads back equal, and escapes keep one value on one line.
    @Test func randomAlarmsRoundTrip() throws {
        var rng = PropertyRNG(seed: 0x57A7_D1E5)
        let nameChars = Array("abcdefghijklmnopqrstuvwxyz0123456789_-")
        let hostile: [Unicode.Scalar] = ["\"", "\\", "\n", "\r", "\t", "\0", "\u{1B}", "\u{7F}", "\u{85}", "\u{2028}",
                                         "é", "😀", "#", "[", "]", "=", " ", "'", "\u{FEFF}", "\u{FFFF}", "a", "/"]
        for round in 0..<300 {
            var alarms: [StandingAlarm] = []
            var names: Set<String> = []
            for _ in 0..<(1 + rng.below(5)) {
                var name = String(rng.pick(Array("abcdefghijklmnopqrstuvwxyz0123456789_")))
                for _ in 0..<rng.below(StandingAlarm.nameLimit) { name.append(rng.pick(nameChars)) }
                guard names.insert(name).inserted else { continue }
                #expect(StandingAlarm.isValidName(name))
                var options: [String: String] = [:]
                for key in AlarmBook.optionOrder where rng.chance(40) {
                    var v = ""
                    for _ in 0..<rng.below(20) {
                        v.unicodeScalars.append(rng.chance(70) ? rng.pick(hostile)
                                                               : Unicode.Scalar(UInt32(rng.below(0xD800))) ?? "x")
                    }
                    options[key] = v
                }
                let oneOff = rng.chance(30)
                let date = oneOff && rng.chance(50)
                    ? CivilDate(daysSinceEpoch: Int64(rng.below(84_000))) : nil  // 1970 to 2199
                alarms.append(StandingAlarm(
                    name: name, hour: rng.below(24), minute: rng.below(60), second: rng.below(60),
                    days: oneOff ? 0 : UInt8(1 + rng.below(127)), date: date, options: options,
                    created: Instant(nanoseconds: Int64(bitPattern: rng.next()))))
            }
            let text = AlarmBook.serialize(alarms)
            let back: [StandingAlarm]
            do {
                back = try AlarmBook.parse(text)
            } catch {
                Issue.record("round \(round): \(error)\n\(text)")
                continue
            }
            #expect(back == alarms.sorted { $0.name < $1.name }, "round \(round)")
            // One line per key: no raw line break or control character survives in the text.
            #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) })
        }
    }
}
