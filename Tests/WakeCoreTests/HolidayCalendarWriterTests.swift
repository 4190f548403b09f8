import Testing
import WakeCore

/// Writing the iCalendar file `wake holidays import` makes: it must read back through
/// `HolidayCalendar` as exactly its days and names, and keep RFC 5545's rules (CRLF, escaped
/// TEXT, lines of at most 75 octets folded between characters) for calendar programs.
@Suite("Holiday calendars: writing the iCalendar file")
struct HolidayCalendarWriterTests {
    typealias Day = HolidayCalendarWriter.Day
    static func d(_ y: Int, _ m: Int, _ day: Int) -> CivilDate { CivilDate(year: y, month: m, day: day) }
    static let stamp = Instant(seconds: 1_795_833_867)  // 2026-11-28T02:44:27Z

    static func write(_ days: [Day]) -> String {
        HolidayCalendarWriter.text(days, title: "Holidays DE-BY (python3-holidays)", source: "de-by", stamp: stamp)
    }

    /// The physical lines, without their CRLF; fails on a lone LF or CR.
    static func lines(_ text: String) -> [String] {
        #expect(text.hasSuffix("\r\n"))
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        for line in lines { #expect(!line.contains("\n") && !line.contains("\r"), "a bare line end in \(line.debugDescription)") }
        return lines
    }

    @Test func roundTripsThroughTheReader() throws {
        let days = [Day(date: Self.d(2026, 12, 25), name: "Erster Weihnachtstag"), Day(date: Self.d(2026, 1, 1), name: "Neujahr"),
                    Day(date: Self.d(2027, 2, 28), name: "Last of February"), Day(date: Self.d(2028, 2, 29), name: "Leap day")]
        let calendar = try HolidayCalendar.parse(Self.write(days), zone: .utc)
        #expect(calendar.events.count == 4)
        #expect(calendar.events.map(\.start) == [Self.d(2026, 1, 1), Self.d(2026, 12, 25), Self.d(2027, 2, 28), Self.d(2028, 2, 29)], "in date order")
        for day in days {
            #expect(calendar.event(on: day.date)?.summary == day.name)
            #expect(calendar.event(on: day.date.nextDay) == nil || days.contains { $0.date == day.date.nextDay }, "one day each")
        }
        #expect(calendar.event(on: Self.d(2026, 12, 24)) == nil && calendar.event(on: Self.d(2027, 12, 25)) == nil, "no rule: once")
        #expect(calendar.events.allSatisfy { $0.days == 1 && $0.yearly == nil })
    }

    @Test func hasTheCalendarsAndEventsProperties() {
        let lines = Self.lines(Self.write([Day(date: Self.d(2026, 12, 31), name: "Silvester")]))
        #expect(Array(lines.prefix(3)) == ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//wake//wake holidays import//EN"])
        #expect(lines.last == "END:VCALENDAR")
        let event = Array(lines.drop { $0 != "BEGIN:VEVENT" })
        #expect(event.contains("UID:holiday-20261231-de-by@wake"))
        #expect(event.contains("DTSTAMP:20261128T024427Z"))
        #expect(event.contains("DTSTART;VALUE=DATE:20261231"))
        #expect(event.contains("DTEND;VALUE=DATE:20270101"), "the next day, across the year")
        #expect(event.contains("SUMMARY:Silvester"))
        #expect(event.contains("END:VEVENT"))
    }

    @Test func twoNamesOnOneDateAreOneEvent() throws {
        let text = Self.write([Day(date: Self.d(2026, 5, 14), name: "Ascension"), Day(date: Self.d(2026, 5, 14), name: "Father's Day"),
                               Day(date: Self.d(2026, 5, 14), name: "Ascension")])
        let calendar = try HolidayCalendar.parse(text, zone: .utc)
        #expect(calendar.events.count == 1)
        #expect(calendar.events.first?.summary == "Ascension, Father's Day")
    }

    @Test func escapesTextAsRFC5545Says() throws {
        #expect(HolidayCalendarWriter.escaped(#"a,b;c\d"#) == #"a\,b\;c\\d"#)
        #expect(HolidayCalendarWriter.escaped("one\ntwo\r\nthree\rfour\u{2028}five") == #"one\ntwo\nthree\nfour\nfive"#)
        #expect(HolidayCalendarWriter.escaped("bell\u{7}tab\tdel\u{7F}csi\u{9B}end") == "bell tab del csi end", "no control character in TEXT")
        #expect(HolidayCalendarWriter.escaped("Fête: \"ok\"") == "Fête: \"ok\"")

        let name = #"Day of \ Rest, Work; and Play"#
        let text = Self.write([Day(date: Self.d(2027, 5, 1), name: name), Day(date: Self.d(2027, 5, 2), name: "Two\nLines")])
        #expect(Self.lines(text).contains(#"SUMMARY:Day of \\ Rest\, Work\; and Play"#))
        let calendar = try HolidayCalendar.parse(text, zone: .utc)
        #expect(calendar.event(on: Self.d(2027, 5, 1))?.summary == name)
        #expect(calendar.event(on: Self.d(2027, 5, 2))?.summary == "Two Lines", "the reader shows a line break as a space")
    }

    @Test func foldsLongUTF8NamesAt75OctetsBetweenCharacters() throws {
        let names = [
            String(repeating: "Feiertag der Einheit ", count: 12),
            String(repeating: "ä", count: 100),  // 2 octets each: a break at an odd octet would split one
            String(repeating: "€", count: 60),  // 3 octets each
            String(repeating: "🎄", count: 40),  // 4 octets each
            String(repeating: "e\u{301}", count: 50),  // a combining accent must stay with its letter
            "x" + String(repeating: "👨‍👩‍👧‍👦", count: 10),  // 25 octets each, one character
        ]
        let days = names.enumerated().map { Day(date: Self.d(2027, 1, 1 + $0.offset), name: $0.element) }
        let text = Self.write(days)
        #expect(String(validating: Array(text.utf8), as: UTF8.self) != nil)
        let lines = Self.lines(text)
        for line in lines {
            #expect(line.utf8.count <= 75, "\(line.utf8.count) octets: \(line)")
        }
        let continuations = lines.filter { $0.hasPrefix(" ") }
        #expect(continuations.count > 10, "the long names were folded")
        for (i, line) in lines.enumerated() where line.hasPrefix(" ") {
            // Every line is whole UTF-8 (Swift would have repaired a split sequence with U+FFFD).
            #expect(!line.contains("\u{FFFD}") && !lines[i - 1].contains("\u{FFFD}"))
            #expect(line.first == " ", "a continuation starts with a space of its own, not one joined to a mark: \(line.debugDescription)")
        }
        let calendar = try HolidayCalendar.parse(text, zone: .utc)
        for day in days { #expect(calendar.event(on: day.date)?.summary == day.name) }
    }

    /// A character longer than a line (a letter under 60 accents) can only be broken between its
    /// scalars; the continuation then starts with a space and a mark, which unfolds as any other.
    @Test func aCharacterLongerThanALineIsBrokenBetweenItsScalars() throws {
        let name = "long a" + String(repeating: "\u{301}", count: 60)
        let text = Self.write([Day(date: Self.d(2027, 3, 1), name: name)])
        #expect(Self.lines(text).allSatisfy { $0.utf8.count <= 75 })
        #expect(String(validating: Array(text.utf8), as: UTF8.self) != nil)
        let calendar = try HolidayCalendar.parse(text, zone: .utc)
        #expect(calendar.event(on: Self.d(2027, 3, 1))?.summary == name)
    }

    @Test func shortLinesAreNotFolded() {
        let line = "SUMMARY:" + String(repeating: "x", count: 67)  // 75 octets exactly
        #expect(HolidayCalendarWriter.folded(line) == line)
        #expect(HolidayCalendarWriter.folded(line + "y") == line + "\r\n y")
    }

    @Test func anEmptyNameStillNamesTheDay() throws {
        let calendar = try HolidayCalendar.parse(Self.write([Day(date: Self.d(2026, 8, 15), name: "")]), zone: .utc)
        #expect(calendar.events.first?.summary == "Holiday")
    }

    @Test func placeCodesAreCheckedBeforeAnythingRuns() throws {
        #expect(try HolidayRegion.parse("de-by") == HolidayRegion(country: "DE", region: "BY"))
        #expect(try HolidayRegion.parse("US") == HolidayRegion(country: "US"))
        #expect(try HolidayRegion.parse("it-Urbino").region == "URBINO")
        #expect(try HolidayRegion.parse("DE-BY").fileName == "holidays-de-by.ics")
        #expect(try HolidayRegion.parse("FRA").fileName == "holidays-fra.ics")
        #expect(try HolidayRegion.parse("de-by").description == "DE-BY")
        for bad in ["", "D", "DEUT", "D3", "DE-", "DE-BY-X", "DE-TOOLONG", "DE-B Y", "../x", "DE;rm", "ÄÖ", "DE-\u{1B}[2J", "-BY"] {
            #expect(throws: HolidayRegion.ParseError.self, "\(bad.debugDescription)") { try HolidayRegion.parse(bad) }
        }
        let error = try #require(throws: HolidayRegion.ParseError.self) { try HolidayRegion.parse("\u{1B}[2J") }
        #expect(error.description.contains("\\x1b[2J") && !error.description.contains("\u{1B}"), "escaped: \(error)")
    }
}
