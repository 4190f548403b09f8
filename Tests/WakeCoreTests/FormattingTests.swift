import Testing
import WakeCore

/// How wake prints times, offsets and spans.
@Suite("Formatting")
struct FormattingTests {
    @Test("ISO 8601 with the zone's offset")
    func iso8601() throws {
        let berlin = try zone("Europe/Berlin")
        #expect(Formatting.iso8601(utc(2026, 11, 22, 6, 0), zone: berlin) == "2026-11-22T07:00:00+01:00")
        #expect(Formatting.iso8601(utc(2026, 7, 1, 5, 0), zone: berlin) == "2026-07-01T07:00:00+02:00")
        #expect(Formatting.iso8601(utc(2026, 11, 22, 6, 0), zone: .utc) == "2026-11-22T06:00:00+00:00")
        #expect(Formatting.iso8601(utc(2026, 11, 22, 1, 30), zone: try zone("Asia/Kolkata")) == "2026-11-22T07:00:00+05:30")
        #expect(Formatting.iso8601(utc(2026, 7, 1, 11, 0), zone: try zone("America/New_York")) == "2026-07-01T07:00:00-04:00")
        #expect(Formatting.iso8601(utc(2026, 11, 22, 12, 0), zone: try zone("America/New_York")) == "2026-11-22T07:00:00-05:00")
        #expect(Formatting.iso8601(utc(2026, 7, 1, 20, 30), zone: try zone("Australia/Lord_Howe")) == "2026-07-02T07:00:00+10:30")
        #expect(Formatting.iso8601(utc(2026, 11, 21, 20, 0), zone: try zone("Australia/Lord_Howe")) == "2026-11-22T07:00:00+11:00")
        #expect(Formatting.iso8601(utc(2026, 11, 22, 1, 15), zone: try zone("Asia/Kathmandu")) == "2026-11-22T07:00:00+05:45")
        // The local date can differ from the UTC date.
        #expect(Formatting.iso8601(utc(2026, 12, 31, 23, 30), zone: berlin) == "2027-01-01T00:30:00+01:00")
        #expect(Formatting.iso8601(utc(2027, 1, 1, 3, 0), zone: try zone("America/New_York")) == "2026-12-31T22:00:00-05:00")
        // Either side of a change, the offset follows the instant.
        #expect(Formatting.iso8601(utc(2026, 3, 29, 0, 59, 59), zone: berlin) == "2026-03-29T01:59:59+01:00")
        #expect(Formatting.iso8601(utc(2026, 3, 29, 1, 0, 0), zone: berlin) == "2026-03-29T03:00:00+02:00")
        #expect(Formatting.iso8601(utc(2026, 10, 25, 0, 30), zone: berlin) == "2026-10-25T02:30:00+02:00")
        #expect(Formatting.iso8601(utc(2026, 10, 25, 1, 30), zone: berlin) == "2026-10-25T02:30:00+01:00")
        // Fractions are left out unless asked for, and never round the seconds up.
        #expect(Formatting.iso8601(utc(2026, 11, 22, 6, 0, 0, ns: 999_999_999), zone: berlin) == "2026-11-22T07:00:00+01:00")
    }

    @Test("ISO 8601 with milliseconds")
    func iso8601Milliseconds() throws {
        let berlin = try zone("Europe/Berlin")
        #expect(Formatting.iso8601(utc(2026, 11, 22, 6, 0), zone: berlin, milliseconds: true) == "2026-11-22T07:00:00.000+01:00")
        #expect(Formatting.iso8601(utc(2026, 11, 22, 6, 0, 0, ns: 123_456_789), zone: berlin, milliseconds: true)
                == "2026-11-22T07:00:00.123+01:00")
        #expect(Formatting.iso8601(utc(2026, 11, 22, 6, 0, 0, ns: 5_000_000), zone: berlin, milliseconds: true)
                == "2026-11-22T07:00:00.005+01:00")
        #expect(Formatting.iso8601(utc(2026, 11, 22, 6, 0, 0, ns: 999_999_999), zone: berlin, milliseconds: true)
                == "2026-11-22T07:00:00.999+01:00")
        #expect(Formatting.iso8601(utc(2026, 11, 22, 1, 30, 5, ns: 50_000_000), zone: try zone("Asia/Kolkata"), milliseconds: true)
                == "2026-11-22T07:00:05.050+05:30")
        // Before the epoch, the fraction still counts forwards from the whole second.
        #expect(Formatting.iso8601(Instant(nanoseconds: -1_000_000), zone: .utc, milliseconds: true) == "1969-12-31T23:59:59.999+00:00")
        #expect(Formatting.iso8601(Instant(nanoseconds: 0), zone: .utc, milliseconds: true) == "1970-01-01T00:00:00.000+00:00")
    }

    static let offsetCases: [(Int, String)] = [
        (0, "+00:00"), (3600, "+01:00"), (7200, "+02:00"), (19_800, "+05:30"), (20_700, "+05:45"), (37_800, "+10:30"),
        (45_900, "+12:45"), (50_400, "+14:00"), (-14_400, "-04:00"), (-18_000, "-05:00"), (-9000, "-02:30"),
        (-12_600, "-03:30"), (-43_200, "-12:00"), (3208, "+00:53:28"), (-17_762, "-04:56:02"), (-1, "-00:00:01"),
    ]

    @Test("UTC offsets", arguments: offsetCases)
    func offsets(seconds: Int, text: String) {
        #expect(Formatting.offset(seconds) == text)
    }

    static let spanCases: [(Int64, String)] = [
        (7 * 3600 + 12 * 60 + 29, "7h 12m 29s"), (12 * 60 + 5, "12m 5s"), (9, "9s"), (0, "0s"), (59, "59s"),
        (60, "1m 0s"), (61, "1m 1s"), (3599, "59m 59s"), (3600, "1h 0m 0s"), (3605, "1h 0m 5s"), (86_400, "24h 0m 0s"),
        (90_061, "25h 1m 1s"), (-5, "0s"), (Int64.min, "0s"),
    ]

    @Test("spans: largest unit first, leading zero units left out", arguments: spanCases)
    func spans(seconds: Int64, text: String) {
        #expect(Formatting.span(seconds: seconds) == text)
    }

    @Test("spans given as durations round up to whole seconds")
    func durationSpans() {
        #expect(Formatting.span(.milliseconds(28_600)) == "29s")
        #expect(Formatting.span(.seconds(29)) == "29s")
        #expect(Formatting.span(.nanoseconds(1)) == "1s")
        #expect(Formatting.span(.zero) == "0s")
        #expect(Formatting.span(.milliseconds(-1500)) == "0s")
        #expect(Formatting.span(.seconds(7 * 3600 + 12 * 60 + 28) + .milliseconds(1)) == "7h 12m 29s")
    }

    @Test("clock times show seconds only when they are not zero")
    func clockTimes() throws {
        let berlin = try zone("Europe/Berlin")
        #expect(Formatting.clockTime(utc(2026, 11, 22, 6, 0), zone: berlin) == "07:00")
        #expect(Formatting.clockTime(utc(2026, 11, 22, 6, 0, 30), zone: berlin) == "07:00:30")
        #expect(Formatting.clockTime(utc(2026, 11, 22, 6, 0), zone: berlin, alwaysSeconds: true) == "07:00:00")
        #expect(Formatting.clockTime(utc(2026, 11, 22, 22, 5, 9, ns: 900_000_000), zone: berlin) == "23:05:09")
        #expect(Formatting.clockTime(utc(2026, 11, 22, 1, 30), zone: try zone("Asia/Kolkata")) == "07:00")
    }
}
