import Testing
import WakeCore

/// `DaySet`: what `--days` takes, and its canonical text.
@Suite("Day sets")
struct DaySetTests {
    /// The set of the named weekday numbers (0 = Sunday).
    func set(_ weekdays: Int...) -> DaySet { DaySet(weekdays: weekdays) }

    func parse(_ text: String) throws -> DaySet { try DaySet(parsing: text) }

    @Test("the keywords, in any case")
    func keywords() throws {
        #expect(try parse("daily") == .daily)
        #expect(try parse("weekdays") == .weekdays)
        #expect(try parse("weekends") == .weekends)
        #expect(try parse("DAILY") == .daily)
        #expect(try parse("WeekDays") == .weekdays)
        #expect(try parse("weekENDS") == .weekends)
        #expect(DaySet.daily == set(0, 1, 2, 3, 4, 5, 6))
        #expect(DaySet.weekdays == set(1, 2, 3, 4, 5))
        #expect(DaySet.weekends == set(0, 6))
        #expect(DaySet.none.isEmpty)
        #expect(DaySet.none.bits == 0)
    }

    @Test("day names, short and full, in any case", arguments: [
        ("sun", 0), ("mon", 1), ("tue", 2), ("wed", 3), ("thu", 4), ("fri", 5), ("sat", 6),
        ("sunday", 0), ("monday", 1), ("tuesday", 2), ("wednesday", 3), ("thursday", 4), ("friday", 5), ("saturday", 6),
    ])
    func names(text: String, weekday: Int) throws {
        for spelling in [text, text.uppercased(), text.prefix(1).uppercased() + text.dropFirst(), " \(text)\t"] {
            let s = try parse(spelling)
            #expect(s == set(weekday), "\(spelling)")
            #expect(s.contains(weekday))
            #expect(s.names.count == 1)
        }
    }

    @Test("ranges are inclusive and go forward through the week, wrapping after Saturday")
    func ranges() throws {
        #expect(try parse("mon-fri") == .weekdays)
        #expect(try parse("sat-sun") == .weekends)
        #expect(try parse("fri-mon") == set(5, 6, 0, 1))
        #expect(try parse("sun-sat") == .daily)
        #expect(try parse("mon-sun") == .daily)
        #expect(try parse("sat-fri") == .daily)
        #expect(try parse("tue-thu") == set(2, 3, 4))
        #expect(try parse("thu-tue") == set(4, 5, 6, 0, 1, 2))
        #expect(try parse("Monday-Friday") == .weekdays)
        #expect(try parse("mon-friday") == .weekdays)
        #expect(try parse("SAT-Mon") == set(6, 0, 1))
        // A range from a day to itself is that one day (documented); `daily` says the week.
        #expect(try parse("mon-mon") == set(1))
        #expect(try parse("sun-sunday") == set(0))
    }

    @Test("lists are unions of names, ranges and keywords")
    func lists() throws {
        #expect(try parse("mon,wed,fri") == set(1, 3, 5))
        #expect(try parse("sat,sun") == .weekends)
        #expect(try parse("mon-wed,fri") == set(1, 2, 3, 5))
        #expect(try parse("fri-sun,tue") == set(5, 6, 0, 2))
        #expect(try parse("weekends,fri") == set(5, 6, 0))
        #expect(try parse("weekdays,weekends") == .daily)
        #expect(try parse("mon,mon") == set(1))  // named twice: simply selected
        #expect(try parse("mon-wed,tue-thu") == set(1, 2, 3, 4))
        #expect(try parse("sun,mon,tue,wed,thu,fri,sat") == .daily)
    }

    @Test("whitespace around the whole, commas and dashes", arguments: [
        " mon , wed , fri ", "mon ,wed,  fri", "\tmon,\twed\n,fri\n", "mon,wed,fri ",
    ])
    func whitespaceInLists(text: String) throws {
        #expect(try parse(text) == set(1, 3, 5))
    }

    @Test("whitespace around dashes", arguments: ["mon - fri", "mon -fri", " mon-  fri ", "mon\t-\tfri"])
    func whitespaceInRanges(text: String) throws {
        #expect(try parse(text) == .weekdays)
    }

    @Test("errors name the problem", arguments: [
        ("", "no days given"),
        ("   ", "no days given"),
        ("mon,,fri", "an empty item in the list"),
        ("mon,", "an empty item in the list"),
        (",mon", "an empty item in the list"),
        ("mon, ,fri", "an empty item in the list"),
        ("xyz", "unknown day 'xyz'"),
        ("mon-xyz", "unknown day 'xyz'"),
        ("mo", "unknown day 'mo'"),
        ("mondays", "unknown day 'mondays'"),
        ("tues", "unknown day 'tues'"),
        ("mon wed", "unknown day 'mon wed'"),
        ("mon;wed", "unknown day 'mon;wed'"),
        ("1", "unknown day '1'"),
        ("mon-", "the range 'mon-' lacks a day at one end"),
        ("-fri", "the range '-fri' lacks a day at one end"),
        ("-", "the range '-' lacks a day at one end"),
        ("mon - ", "the range 'mon -' lacks a day at one end"),
        ("mon-wed-fri", "the range 'mon-wed-fri' has more than two ends"),
        ("weekdays-sun", "'weekdays' cannot be the end of a range; ranges join day names (mon-fri)"),
        ("mon-Daily", "'Daily' cannot be the end of a range; ranges join day names (mon-fri)"),
    ])
    func errors(text: String, reason: String) {
        #expect(throws: DaySet.ParseError(text: text, reason: reason)) { try DaySet(parsing: text) }
    }

    @Test("the message is one line, quotes the input escaped, and says what is accepted")
    func message() throws {
        let e = try #require(throws: DaySet.ParseError.self) { try DaySet(parsing: "mon-xyz") }
        #expect(e.description == "invalid days 'mon-xyz': unknown day 'xyz'; use daily, weekdays, weekends, day names (mon...sun), ranges (mon-fri) or lists (mon,wed,fri)")
        // Control characters in the input never reach the terminal raw, in the text or the reason.
        let hostile = try #require(throws: DaySet.ParseError.self) { try DaySet(parsing: "mon,\u{1B}[2Jx\n") }
        #expect(!hostile.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(hostile.description.contains("\\x1b[2Jx"))
        // A pasted novel gives a short line: each quoted part is cut to 80 characters.
        let long = try #require(throws: DaySet.ParseError.self) { try DaySet(parsing: String(repeating: "mon-", count: 25_000) + "mon") }
        #expect(long.description.count < 320)
    }

    @Test("canonical text round-trips for all 127 non-empty sets")
    func canonicalRoundTrip() throws {
        var seen = Set<String>()
        for bits in UInt8(1)...0x7F {
            let s = DaySet(bits: bits)
            #expect(!s.isEmpty)
            let text = s.canonical
            #expect(try DaySet(parsing: text) == s, "\(text)")
            #expect(seen.insert(text).inserted, "\(text) names two sets")
            #expect(try DaySet(parsing: text.uppercased()) == s)
        }
        #expect(seen.count == 127)
    }

    @Test("canonical forms")
    func canonicalForms() throws {
        #expect(DaySet.daily.canonical == "daily")
        #expect(DaySet.weekdays.canonical == "weekdays")
        #expect(DaySet.weekends.canonical == "weekends")
        #expect(try parse("mon,wed,fri").canonical == "mon,wed,fri")
        #expect(try parse("fri-mon").canonical == "mon,fri,sat,sun")  // week order, Monday first
        #expect(try parse("sun,sat").canonical == "weekends")
        #expect(try parse("mon-thu").canonical == "mon,tue,wed,thu")
        #expect(try parse("sunday").canonical == "sun")
        #expect(DaySet.none.canonical == "")
    }

    @Test("names are in week order, Monday first")
    func namesOrder() {
        #expect(DaySet.daily.names == ["mon", "tue", "wed", "thu", "fri", "sat", "sun"])
        #expect(DaySet.weekends.names == ["sat", "sun"])
        #expect(set(0, 1).names == ["mon", "sun"])
        #expect(DaySet.none.names == [])
    }

    @Test("out-of-range numbers and bits name no day")
    func outOfRange() {
        #expect(DaySet(weekdays: [-1, 7, 8, Int.max, Int.min, 3]) == set(3))
        #expect(DaySet(bits: 0xFF) == .daily)
        #expect(DaySet(bits: 0x80).isEmpty)
        #expect(DaySet(bits: 0x80) == .none)
        for w in [-1, 7, 8, Int.max, Int.min] { #expect(!DaySet.daily.contains(w)) }
        // `bits` is a public var: bit 7 set by hand is ignored too.
        var s = DaySet.none
        s.bits = 0x80
        #expect(s.isEmpty)
        #expect(s.names == [])
        s.bits = 0xFF
        #expect(s.canonical == "daily")
        #expect(!s.contains(7))
    }
}
