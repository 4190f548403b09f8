import Testing
import WakeCore

/// `WakeSpec(parsing:)`: every accepted form, and a clear error for everything else.
@Suite("WakeSpec parsing")
struct WakeSpecTests {
    struct Valid: Sendable, CustomTestStringConvertible {
        var text: String
        var spec: WakeSpec
        init(_ text: String, _ spec: WakeSpec) { self.text = text; self.spec = spec }
        var testDescription: String { "\"\(text)\"" }
    }

    static func tod(_ h: Int, _ m: Int, _ s: Int = 0) -> WakeSpec { .timeOfDay(hour: h, minute: m, second: s) }

    static let twentyFourHour: [Valid] = [
        Valid("7:00", tod(7, 0)),
        Valid("07:00", tod(7, 0)),
        Valid("07:00:30", tod(7, 0, 30)),
        Valid("7:05:09", tod(7, 5, 9)),
        Valid("0:00", tod(0, 0)),
        Valid("00:00:00", tod(0, 0, 0)),
        Valid("12:00", tod(12, 0)),
        Valid("19:45", tod(19, 45)),
        Valid("23:59:59", tod(23, 59, 59)),
    ]

    static let twelveHour: [Valid] = [
        Valid("7am", tod(7, 0)),
        Valid("7AM", tod(7, 0)),
        Valid("7Am", tod(7, 0)),
        Valid("07am", tod(7, 0)),
        Valid("7pm", tod(19, 0)),
        Valid("7:30pm", tod(19, 30)),
        Valid("7:30PM", tod(19, 30)),
        Valid("7:30pM", tod(19, 30)),
        Valid("7:30 pm", tod(19, 30)),
        Valid("7:30 PM", tod(19, 30)),
        Valid("7 am", tod(7, 0)),
        Valid("7:30:15am", tod(7, 30, 15)),
        Valid("12am", tod(0, 0)),  // midnight
        Valid("12:30am", tod(0, 30)),
        Valid("12pm", tod(12, 0)),  // noon
        Valid("12:30pm", tod(12, 30)),
        Valid("1am", tod(1, 0)),
        Valid("11:59:59pm", tod(23, 59, 59)),
        Valid("11:59pm", tod(23, 59)),
    ]

    static let relative: [Valid] = [
        Valid("+8h", .relative(seconds: 8 * 3600)),
        Valid("+90m", .relative(seconds: 90 * 60)),
        Valid("+1h30m", .relative(seconds: 5400)),
        Valid("+45s", .relative(seconds: 45)),
        Valid("+1h30m15s", .relative(seconds: 5415)),
        Valid("+1h15s", .relative(seconds: 3615)),
        Valid("+2m3s", .relative(seconds: 123)),
        Valid("+8H", .relative(seconds: 8 * 3600)),
        Valid("+1H30M15S", .relative(seconds: 5415)),
        Valid("+0h5m", .relative(seconds: 300)),
        Valid("+0090m", .relative(seconds: 5400)),
        Valid("+1s", .relative(seconds: 1)),
        // The longest span accepted, in each unit.
        Valid("+87840h", .relative(seconds: WakeSpec.maximumRelativeSeconds)),
        Valid("+316224000s", .relative(seconds: WakeSpec.maximumRelativeSeconds)),
        Valid("+3660d", .relative(seconds: WakeSpec.maximumRelativeSeconds)),
        Valid("+316224000000ms", .relative(seconds: WakeSpec.maximumRelativeSeconds)),
        // Days and milliseconds, as DURATION options take them (one grammar).
        Valid("+1d", .relative(seconds: 86_400)),
        Valid("+1d2h", .relative(seconds: 93_600)),
        Valid("+2D", .relative(seconds: 172_800)),
        Valid("+500ms", .relative(.milliseconds(500))),
        Valid("+500MS", .relative(.milliseconds(500))),
        Valid("+1s500ms", .relative(.milliseconds(1500))),
        Valid("+1d1h1m1s1ms", .relative(.milliseconds(90_061_001))),
    ]

    static let others: [Valid] = [
        Valid("now", .now),
        Valid("NOW", .now),
        Valid("Now", .now),
        Valid("2026-11-22T07:00", .dateTime(local(2026, 11, 22, 7, 0, 0))),
        Valid("2026-11-22T07:00:30", .dateTime(local(2026, 11, 22, 7, 0, 30))),
        Valid("2026-11-22 07:00", .dateTime(local(2026, 11, 22, 7, 0, 0))),
        Valid("2026-11-22 07:00:30", .dateTime(local(2026, 11, 22, 7, 0, 30))),
        Valid("2026-11-22t07:00", .dateTime(local(2026, 11, 22, 7, 0, 0))),
        Valid("2026-11-22T7:00", .dateTime(local(2026, 11, 22, 7, 0, 0))),
        Valid("2026-01-01T00:00", .dateTime(local(2026, 1, 1, 0, 0, 0))),
        Valid("2026-12-31T23:59:59", .dateTime(local(2026, 12, 31, 23, 59, 59))),
        Valid("2028-02-29T06:00", .dateTime(local(2028, 2, 29, 6, 0, 0))),  // leap day
        // With a UTC offset or Z: an absolute instant.
        Valid("2026-11-23T07:00+01:00", .zonedDateTime(local(2026, 11, 23, 7, 0, 0), utcOffsetSeconds: 3600)),
        Valid("2026-11-23T07:00:30-05:30", .zonedDateTime(local(2026, 11, 23, 7, 0, 30), utcOffsetSeconds: -19_800)),
        Valid("2026-11-23T07:00Z", .zonedDateTime(local(2026, 11, 23, 7, 0, 0), utcOffsetSeconds: 0)),
        Valid("2026-11-23t07:00z", .zonedDateTime(local(2026, 11, 23, 7, 0, 0), utcOffsetSeconds: 0)),
        Valid("2026-11-23 07:00+01:00", .zonedDateTime(local(2026, 11, 23, 7, 0, 0), utcOffsetSeconds: 3600)),
        Valid("2026-11-23 07:00:30Z", .zonedDateTime(local(2026, 11, 23, 7, 0, 30), utcOffsetSeconds: 0)),
        Valid("2026-11-23T07:00+0530", .zonedDateTime(local(2026, 11, 23, 7, 0, 0), utcOffsetSeconds: 19_800)),
        Valid("2026-11-23T07:00-08", .zonedDateTime(local(2026, 11, 23, 7, 0, 0), utcOffsetSeconds: -28_800)),
        Valid("2026-11-23T07:00+00:00", .zonedDateTime(local(2026, 11, 23, 7, 0, 0), utcOffsetSeconds: 0)),
        Valid("2026-11-23T07:00-00:00", .zonedDateTime(local(2026, 11, 23, 7, 0, 0), utcOffsetSeconds: 0)),
        Valid("2026-11-23T07:00+23:59", .zonedDateTime(local(2026, 11, 23, 7, 0, 0), utcOffsetSeconds: 86_340)),
    ]

    @Test("24-hour times", arguments: twentyFourHour)
    func twentyFourHourTimes(_ c: Valid) throws {
        #expect(try WakeSpec(parsing: c.text) == c.spec)
    }

    @Test("12-hour times, any case", arguments: twelveHour)
    func twelveHourTimes(_ c: Valid) throws {
        #expect(try WakeSpec(parsing: c.text) == c.spec)
    }

    @Test("relative spans", arguments: relative)
    func relativeSpans(_ c: Valid) throws {
        #expect(try WakeSpec(parsing: c.text) == c.spec)
    }

    @Test("now and local date-times", arguments: others)
    func nowAndDateTimes(_ c: Valid) throws {
        #expect(try WakeSpec(parsing: c.text) == c.spec)
    }

    @Test("every 12-hour reading maps to the same 24-hour time")
    func twelveHourTable() throws {
        for h in 1...12 {
            for (suffix, isPM) in [("am", false), ("pm", true), ("AM", false), (" PM", true)] {
                let expected = h % 12 + (isPM ? 12 : 0)
                #expect(try WakeSpec(parsing: "\(h)\(suffix)") == Self.tod(expected, 0), "\(h)\(suffix)")
                #expect(try WakeSpec(parsing: "\(h):45\(suffix)") == Self.tod(expected, 45), "\(h):45\(suffix)")
            }
        }
    }

    @Test("every minute of the day parses")
    func everyMinute() throws {
        for h in 0...23 {
            for m in 0...59 {
                let padded = (h < 10 ? "0" : "") + "\(h):" + (m < 10 ? "0" : "") + "\(m)"
                #expect(try WakeSpec(parsing: padded) == Self.tod(h, m))
            }
        }
    }

    // MARK: - Rejections

    static func parseError(_ text: String) -> WakeSpec.ParseError? {
        do {
            let spec = try WakeSpec(parsing: text)
            Issue.record("\(text.debugDescription) parsed as \(spec)")
            return nil
        } catch {
            return error
        }
    }

    static let invalid: [String] = [
        // Out-of-range fields.
        "25:00", "24:00", "99:00", "7:60", "07:60", "07:00:60", "07:00:99", "13pm", "0am", "00am", "0pm", "13:00am",
        "12:60pm",
        // Not a time at all.
        "abc", "", "am", "pm", " pm", "7", "07", "7:0", "7:000", "007:00", "7:", ":30", "7::00", "7:30:", "1:2:3",
        "1:02:03:04", "7.30", "7h", "7:30x", "7:30 am pm", "7:30  pm", "7:30 p.m.", "x7:00", "nowish", "now!",
        "tomorrow",
        // Bad spans.
        "+0m", "+0s", "+0h0m0s", "-5m", "-1h", "+5x", "+5", "+", "+h", "+m5", "+1m1h", "+1h1h", "+1s1m", "+1h 30m",
        "+ 5m", "+5 m", "+-5m", "++5m", "+5m+", "+1.5h", "+0ms", "+0d", "+1ms1s", "+1s1d", "+1d1d", "+90", "+0",
        "+1w", "+1y", "+5min", "+5sec",
        // Spans too long, or too long to hold.
        "+87841h", "+316224001s", "+9999999999h", "+99999999999999999999h", "+999999999999h", "+9223372036854775807s",
        "+9223372036854775808s", "+99999999999999999999999999999999999999999m", "+9999999999999999h",
        "+99999999999999m", "+1h99999999999999s",
        // Bad dates.
        "2026-02-30T07:00", "2026-02-29T07:00", "2026-13-01T07:00", "2026-00-10T07:00", "2026-11-00T07:00",
        "2026-11-31T07:00", "2026-11-22", "2026-11-22T", "2026-11-22T25:00", "2026-11-22T24:00", "2026-11-22T07:60",
        "2026-11-22T07", "2026-11-22X07:00", "2026-1-22T07:00",
        "2026-11-2T07:00", "2026/11/22T07:00", "2026-11-22T7am", "2026-11-22T07:00pm", "2026-11-22  07:00",
        // Bad UTC offsets.
        "2026-11-22T07:00+24:00", "2026-11-22T07:00+01:60", "2026-11-22T07:00+1", "2026-11-22T07:00+01:0",
        "2026-11-22T07:00+010", "2026-11-22T07:00+01:00:00", "2026-11-22T07:00+", "2026-11-22T07:00-",
        "2026-11-22T07:00zz", "2026-11-22T07:00 +01:00", "2026-11-22T07:00+01::00", "2026-11-22T07:00+0:100",
        "2026-11-22Z", "2026-11-22T07:00+01:00Z", "07:00Z", "07:00+01:00", "2026-11-22T+01:00",
        // Too long.
        String(repeating: "1", count: 100), String(repeating: "7", count: 65), "07:00" + String(repeating: "0", count: 200),
        "+" + String(repeating: "9", count: 1000) + "h", String(repeating: "a", count: 10_000),
        // Non-ASCII digits, letters and separators.
        "٧:٠٠", "٠٧:٠٠", "۷:۰۰", "७:००", "０７:００", "７am", "7:００", "7：00", "７ａｍ", "+８h", "+8ｈ", "2026-11-22T٠٧:٠٠",
        "7:00\u{00A0}pm", "7:00 ᴘᴍ", "🕖", "7:00\u{200B}",
        // Control characters, embedded NUL.
        "\0", "07:00\0", "07\0:00", "\07:00", "+5m\0", "now\0", "7:00\n", "7:00\t", "7:00\r\n", "\u{7F}",
        // Leading or trailing space.
        " 07:00", "07:00 ", " 07:00 ", " ", "  ", " now", "now ", " +5m", "+5m ", " 7am", "7am ", "\t07:00",
    ]

    @Test("bad input throws ParseError naming the token and the accepted forms", arguments: invalid)
    func rejects(_ text: String) throws {
        let error = try #require(Self.parseError(text))
        #expect(error.token == text)
        #expect(!error.reason.isEmpty)
        let message = error.description
        // Long tokens are quoted abbreviated, so the line stays readable.
        #expect(message.contains("'\(TerminalText.printable(text, limit: WakeSpec.tokenLimit))'"), "message does not quote the token: \(message)")
        #expect(message.contains(WakeSpec.acceptedForms))
        for form in ["07:00", "07:00:30", "7am", "7:30pm", "+8h", "+90m", "+1h30m15s", "now", "2026-11-22T07:00"] {
            #expect(message.contains(form), "message lacks \(form): \(message)")
        }
        // One line, no raw control characters: safe to print on a terminal.
        #expect(!message.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
    }

    @Test("the message quotes the token as typed, with control characters escaped")
    func messageShape() throws {
        let e = try #require(Self.parseError("25:00"))
        #expect(e.description.hasPrefix("invalid time '25:00': "))
        let nul = try #require(Self.parseError("07:00\0"))
        #expect(nul.description.hasPrefix("invalid time '07:00\\x00': "))
        let empty = try #require(Self.parseError(""))
        #expect(empty.description.hasPrefix("invalid time '': "))
        let arabic = try #require(Self.parseError("٧:٠٠"))
        #expect(arabic.description.hasPrefix("invalid time '٧:٠٠': "))
    }

    @Test("reasons say what is wrong")
    func reasons() throws {
        #expect(try #require(Self.parseError("25:00")).reason.contains("hour"))
        #expect(try #require(Self.parseError("7:60")).reason.contains("minute"))
        #expect(try #require(Self.parseError("07:00:60")).reason.contains("second"))
        #expect(try #require(Self.parseError("13pm")).reason.contains("12-hour"))
        #expect(try #require(Self.parseError("0am")).reason.contains("12-hour"))
        #expect(try #require(Self.parseError("")).reason.contains("empty"))
        #expect(try #require(Self.parseError("+0m")).reason.contains("zero"))
        #expect(try #require(Self.parseError("-5m")).reason.contains("past"))
        #expect(try #require(Self.parseError("+9999999999h")).reason.contains("too large"))
        #expect(try #require(Self.parseError("+99999999999999999999h")).reason.contains("too large"))
        #expect(try #require(Self.parseError("2026-02-30T07:00")).reason.contains("no such date"))
        #expect(try #require(Self.parseError(String(repeating: "1", count: 100))).reason.contains("too long"))
        #expect(try #require(Self.parseError(" 07:00")).reason.contains("space"))
        #expect(try #require(Self.parseError("07:00 ")).reason.contains("space"))
    }

    @Test("printable escapes control, C1 and bidi characters, and shortens long names")
    func printable() {
        #expect("07:00".printable == "07:00")
        #expect("a\0b".printable == "a\\x00b")
        #expect("\u{1B}[2J".printable == "\\x1b[2J")
        #expect("\u{7F}".printable == "\\x7f")
        #expect("tab\there".printable == "tab\\x09here")
        #expect("٧:٠٠ ü".printable == "٧:٠٠ ü")
        #expect("a\u{9B}2J".printable == "a\\x9b2J")
        #expect("\u{202E}evil".printable == "\\u{202E}evil")
        let long = String(repeating: "x", count: 5000) + "END"
        #expect(long.printable.count == TerminalText.nameLimit)
        #expect(long.printable.hasSuffix("END"))
    }
}
