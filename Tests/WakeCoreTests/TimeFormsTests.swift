import Testing
import WakeCore

/// The time forms of issue 12 item 23: ISO 8601 with a UTC offset or Z (an absolute instant),
/// and WHEN given as several command-line words.
@Suite("More time forms")
struct TimeFormsTests {
    func resolve(_ text: String, now: Instant, in zone: TimeZoneRules) throws -> Deadline {
        try Schedule.resolve(WakeSpec(parsing: text), token: text, now: now, zone: zone)
    }

    static let absoluteCases: [(String, Instant)] = [
        ("2026-11-23T07:00+01:00", utc(2026, 11, 23, 6, 0)),
        ("2026-11-23T07:00:30-05:30", utc(2026, 11, 23, 12, 30, 30)),
        ("2026-11-23T07:00Z", utc(2026, 11, 23, 7, 0)),
        ("2026-11-23 07:00Z", utc(2026, 11, 23, 7, 0)),
        ("2026-11-23 07:00+0100", utc(2026, 11, 23, 6, 0)),
        ("2026-11-23T00:30+02:00", utc(2026, 11, 22, 22, 30)),  // the previous day in UTC
        ("2026-11-23T23:30-02:00", utc(2026, 11, 24, 1, 30)),  // the next day in UTC
    ]

    @Test("a date-time with an offset is that instant, whatever the local zone", arguments: absoluteCases)
    func absolute(text: String, expected: Instant) throws {
        for z in [TimeZoneRules.utc, try zone("Europe/Berlin"), try zone("America/New_York"), try posixZone("STD21DST-24,J1/0,J300/25")] {
            let d = try resolve(text, now: utc(2026, 11, 22, 12), in: z)
            #expect(d.instant == expected, "\(text) in \(z.name)")
            #expect(d.clock == .wall)
            #expect(d.span == nil)
            #expect(d.shiftedFrom == nil)
        }
    }

    @Test("an offset date-time in the past is a usage error, as a local one is")
    func absoluteInThePast() throws {
        let now = utc(2026, 11, 23, 6, 0)
        for text in ["2026-11-23T07:00+01:00", "2026-11-23T05:59:59Z", "2026-11-23T06:00Z", "2020-01-01T00:00Z"] {
            #expect(throws: ScheduleError.self, "\(text)") { try resolve(text, now: now, in: .utc) }
        }
        do {
            _ = try resolve("2026-11-23T07:00+01:00", now: now, in: .utc)
        } catch let error as ScheduleError {
            #expect(error == .inThePast("2026-11-23T07:00+01:00", local(2026, 11, 23, 7, 0)))
            #expect(error.description.contains("in the past"))
        }
        #expect(try resolve("2026-11-23T07:00:01+01:00", now: now, in: .utc).instant == utc(2026, 11, 23, 6, 0, 1))
    }

    @Test("a reading in a spring-forward gap given with its offset is exact: no gap applies")
    func absoluteInAGap() throws {
        let berlin = try zone("Europe/Berlin")
        let d = try resolve("2026-03-29T02:30+01:00", now: utc(2026, 3, 28), in: berlin)
        #expect(d.instant == utc(2026, 3, 29, 1, 30))
        #expect(d.shiftedFrom == nil)
    }

    static let wordCases: [([String], WakeSpec)] = [
        (["7:30", "pm"], WakeSpec.timeOfDay(hour: 19, minute: 30, second: 0)),
        (["7", "AM"], .timeOfDay(hour: 7, minute: 0, second: 0)),
        (["12", "am"], .timeOfDay(hour: 0, minute: 0, second: 0)),
        (["11:59:59", "Pm"], .timeOfDay(hour: 23, minute: 59, second: 59)),
        (["7:30 pm"], .timeOfDay(hour: 19, minute: 30, second: 0)),
        (["07:00"], .timeOfDay(hour: 7, minute: 0, second: 0)),
        (["+1h30m"], .relative(seconds: 5400)),
        (["now"], .now),
        (["2026-11-22", "07:00"], .dateTime(local(2026, 11, 22, 7, 0))),
        (["2026-11-22", "07:00:30"], .dateTime(local(2026, 11, 22, 7, 0, 30))),
        (["2026-11-22", "07:00Z"], .zonedDateTime(local(2026, 11, 22, 7, 0), utcOffsetSeconds: 0)),
        (["2026-11-22 07:00"], .dateTime(local(2026, 11, 22, 7, 0))),
    ]

    @Test("words: a trailing am/pm word joins the time", arguments: wordCases)
    func words(_ words: [String], _ expected: WakeSpec) throws {
        #expect(try WakeSpec(parsing: words) == expected)
    }

    @Test("words: anything else extra is refused, named, with what to do")
    func extraWords() throws {
        for (words, extra) in [(["7:30", "foo"], "foo"), (["7:30", "pm", "pm"], "pm"), (["now", "please"], "please"),
                               (["+5m", "30s"], "30s"), (["7:30", "am", "x"], "x"), (["2026-11-22", "07:00", "07:00"], "07:00"),
                               (["07:00", "\u{1B}[2J"], "\\x1b[2J")] {
            do {
                let spec = try WakeSpec(parsing: words)
                Issue.record("\(words) parsed as \(spec)")
            } catch {
                #expect(error.reason.hasPrefix("unexpected '\(extra)' after the time; quote"), "\(error.reason)")
                #expect(error.token == words.joined(separator: " "))
                #expect(!error.description.unicodeScalars.contains { $0.value < 0x20 })
            }
        }
        #expect(throws: WakeSpec.ParseError(token: "", reason: "empty")) { try WakeSpec(parsing: [String]()) }
        // A bad first word is reported as for one word.
        #expect(throws: WakeSpec.ParseError.self) { try WakeSpec(parsing: ["25:00", "pm"]) }
        let long = String(repeating: "z", count: 5000)
        do {
            _ = try WakeSpec(parsing: ["07:00", long])
        } catch {
            #expect(error.description.count < 400, "\(error.description.count) characters")
        }
    }
}
