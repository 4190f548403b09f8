import Testing
import WakeCore

/// The state file: records read back exactly (nanoseconds included), errors name their line.

func historyError(_ text: String) -> AlarmBook.ParseError? {
    do {
        _ = try AlarmHistory.parse(text)
        return nil
    } catch {
        return error
    }
}

@Suite("AlarmHistory")
struct AlarmHistoryTests {
    @Test func writesTheDocumentedShape() throws {
        var work = AlarmRecord(name: "work")
        work.lastFired = utc(2026, 11, 24, 5, 30)
        work.skips = [CivilDate(year: 2026, month: 11, day: 25)]
        work.snoozedUntil = utc(2026, 11, 24, 5, 39, ns: 123_456_789)
        var gym = AlarmRecord(name: "gym")
        gym.missed = utc(2026, 11, 23, 5, 30, ns: 1)
        let records = ["work": work, "gym": gym, "idle": AlarmRecord(name: "idle")]
        let text = AlarmHistory.serialize(records)
        #expect(text == AlarmHistory.header + """

            [gym]
            missed = "2026-11-23T05:30:00.000000001Z"

            [idle]

            [work]
            fired = "2026-11-24T05:30:00Z"
            snoozed_until = "2026-11-24T05:39:00.123456789Z"
            skips = ["2026-11-25"]

            """)
        #expect(try AlarmHistory.parse(text) == records)
        #expect(try AlarmHistory.parse("") == [:])
    }

    @Test func randomRecordsRoundTrip() throws {
        var rng = PropertyRNG(seed: 0x4157_0123)
        for _ in 0..<300 {
            var records: [String: AlarmRecord] = [:]
            for i in 0..<rng.below(6) {
                var r = AlarmRecord(name: "a\(i)-\(rng.below(1000))")
                func t(_ rng: inout PropertyRNG) -> Instant? {
                    rng.chance(50) ? Instant(nanoseconds: Int64(bitPattern: rng.next())) : nil
                }
                r.lastFired = t(&rng); r.legacySkips = t(&rng).map { [$0] } ?? []
                r.skips = rng.chance(50) ? [CivilDate(year: 1970 + rng.below(300), month: 1 + rng.below(12), day: 1 + rng.below(28))] : []
                r.missed = t(&rng); r.snoozedUntil = t(&rng); r.lastSkipped = t(&rng); r.ringingSince = t(&rng)
                records[r.name] = r
            }
            #expect(try AlarmHistory.parse(AlarmHistory.serialize(records)) == records)
        }
    }

    @Test(arguments: [
        ("[work]\nfird = \"2026-11-23T03:00:00Z\"", 2, "unknown key 'fird' in alarm 'work'"),
        ("[work]\nfired = \"2026-11-23T03:00:00Z\"\nfired = \"2026-11-23T03:00:00Z\"", 3, "duplicate key 'fired' in alarm 'work'"),
        ("[work]\n[gym]\n\n[work]", 4, "duplicate alarm 'work'"),
        ("[alarms.work]", 1, "expected a table [NAME], not [alarms.work]"),
        ("[Work]", 1, "invalid alarm name 'Work': use 1 to 32 of a-z, 0-9, _ and -, not starting with -"),
        ("fired = \"2026-11-23T03:00:00Z\"", 1, "'fired = ...' comes before the first [NAME] table"),
        ("[work]\nskip = \"tomorrow\"", 2, "skip must be a UTC time such as \"2026-11-23T03:00:00Z\", not \"tomorrow\""),
        ("[work]\nmissed = [\"2026-11-23T03:00:00Z\"]", 2, "missed takes a string in double quotes, not an array"),
        ("# x\n[work]\nsnoozed_until = 5", 3, "snoozed_until takes a UTC time in double quotes, as \"2026-11-23T03:00:00Z\""),
        ("[work]\nfired = \"2026-11-23T03:00:00Z", 2, "the string has no closing '\"'"),
    ] as [(String, Int, String)])
    func refusesWithTheLine(text: String, line: Int, message: String) {
        #expect(historyError(text) == AlarmBook.ParseError(line: line, message: message))
    }
}
