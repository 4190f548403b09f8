import Testing
import WakeCore

/// `Schedule.resolve`: from what was typed and "now" in a zone to one exact deadline.
@Suite("Schedule resolution")
struct ScheduleTests {
    /// Resolves `text` at `now` in `zone`, parsing it the way the command line does.
    func resolve(_ text: String, now: Instant, in zone: TimeZoneRules) throws -> Deadline {
        try Schedule.resolve(WakeSpec(parsing: text), token: text, now: now, zone: zone)
    }

    /// A time-of-day deadline: on the wall clock, with no span.
    func expectWall(_ d: Deadline, _ expected: Instant, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(d.instant == expected, "got \(d.instant.seconds), want \(expected.seconds)", sourceLocation: sourceLocation)
        #expect(d.clock == .wall, sourceLocation: sourceLocation)
        #expect(d.span == nil, sourceLocation: sourceLocation)
        #expect(d.instant.nanosecondOfSecond == 0, sourceLocation: sourceLocation)
    }

    // MARK: - Time of day

    @Test("a time later today rings today")
    func laterToday() throws {
        let z = TimeZoneRules.utc
        expectWall(try resolve("07:00", now: utc(2026, 11, 22, 6, 0), in: z), utc(2026, 11, 22, 7, 0))
        expectWall(try resolve("7pm", now: utc(2026, 11, 22, 6, 0), in: z), utc(2026, 11, 22, 19, 0))
        expectWall(try resolve("23:59:59", now: utc(2026, 11, 22, 23, 59, 58), in: z), utc(2026, 11, 22, 23, 59, 59))
    }

    @Test("a time already past today wraps to tomorrow")
    func nextDayWrap() throws {
        let berlin = try zone("Europe/Berlin")
        // 08:00 CET = 07:00 UTC; 07:00 CET tomorrow = 06:00 UTC tomorrow.
        let d = try resolve("07:00", now: utc(2026, 11, 22, 7, 0), in: berlin)
        expectWall(d, utc(2026, 11, 23, 6, 0))
        #expect(Formatting.iso8601(d.instant, zone: berlin) == "2026-11-23T07:00:00+01:00")
        // Across a month end and a year end.
        expectWall(try resolve("07:00", now: utc(2026, 11, 30, 12, 0), in: berlin), utc(2026, 12, 1, 6, 0))
        expectWall(try resolve("07:00", now: utc(2026, 12, 31, 12, 0), in: berlin), utc(2027, 1, 1, 6, 0))
        expectWall(try resolve("12am", now: utc(2028, 2, 28, 12, 0), in: .utc), utc(2028, 2, 29, 0, 0))
    }

    @Test("seconds of now are not carried into the deadline", arguments: [
        utc(2026, 11, 22, 5, 59, 59, ns: 999_000_000),  // 06:59:59.999 CET
        utc(2026, 11, 22, 5, 0, 37, ns: 500_000_000),  // 06:00:37.5 CET
        utc(2026, 11, 22, 5, 59, 59, ns: 999_999_999),
        utc(2026, 11, 21, 6, 0, 0, ns: 1),  // just after yesterday's 07:00
        utc(2026, 11, 21, 23, 0, 0, ns: 123_456_789),  // midnight and a bit
    ])
    func secondsRule(now: Instant) throws {
        let berlin = try zone("Europe/Berlin")
        let d = try resolve("07:00", now: now, in: berlin)
        expectWall(d, utc(2026, 11, 22, 6, 0, 0))
        #expect(d.instant.nanoseconds % 1_000_000_000 == 0)
        #expect(Formatting.iso8601(d.instant, zone: berlin, milliseconds: true) == "2026-11-22T07:00:00.000+01:00")
    }

    @Test("at exactly the time, it means tomorrow")
    func exactlyNow() throws {
        let berlin = try zone("Europe/Berlin")
        expectWall(try resolve("07:00", now: utc(2026, 11, 22, 6, 0), in: berlin), utc(2026, 11, 23, 6, 0))
        expectWall(try resolve("07:00:00", now: utc(2026, 11, 22, 6, 0), in: berlin), utc(2026, 11, 23, 6, 0))
        expectWall(try resolve("7am", now: utc(2026, 11, 22, 6, 0, 0, ns: 1), in: berlin), utc(2026, 11, 23, 6, 0))
        expectWall(try resolve("07:00:30", now: utc(2026, 11, 22, 6, 0, 30), in: berlin), utc(2026, 11, 23, 6, 0, 30))
        // A nanosecond before is still today.
        expectWall(try resolve("07:00", now: utc(2026, 11, 22, 6, 0) - .nanoseconds(1), in: berlin), utc(2026, 11, 22, 6, 0))
        // Seconds count: 07:00:30 is still ahead at 07:00:29.
        expectWall(try resolve("07:00:30", now: utc(2026, 11, 22, 6, 0, 29), in: berlin), utc(2026, 11, 22, 6, 0, 30))
    }

    @Test("resolving never depends on anything but its arguments")
    func everyMinuteInUTC() throws {
        // For each now over a day, in steps of 7 minutes 13 seconds, 07:00 is the next 07:00 strictly after now.
        let start = utc(2026, 6, 1)
        var now = start
        while now < utc(2026, 6, 3) {
            let d = try resolve("07:00", now: now, in: .utc)
            #expect(d.instant > now)
            #expect(d.instant - now <= .seconds(86_400))
            #expect(d.instant.seconds % 86_400 == 7 * 3600)
            now = now + .seconds(433)
        }
    }

    // MARK: - Daylight-saving changes

    @Test("Berlin spring forward: 02:30 does not exist, rings at 03:00 CEST")
    func berlinSpringForward() throws {
        let berlin = try zone("Europe/Berlin")
        let midnight = utc(2026, 3, 28, 23, 0)  // 2026-03-29 00:00 CET
        let d = try resolve("02:30", now: midnight, in: berlin)
        expectWall(d, utc(2026, 3, 29, 1, 0))
        #expect(Formatting.iso8601(d.instant, zone: berlin) == "2026-03-29T03:00:00+02:00")
        // Every reading in the gap means the moment the clocks jump.
        for text in ["02:00", "02:00:01", "02:15", "2:30am", "02:59:59"] {
            expectWall(try resolve(text, now: midnight, in: berlin), utc(2026, 3, 29, 1, 0))
        }
        // Either side of the gap, readings are exact.
        expectWall(try resolve("01:59:59", now: midnight, in: berlin), utc(2026, 3, 29, 0, 59, 59))
        expectWall(try resolve("03:00", now: midnight, in: berlin), utc(2026, 3, 29, 1, 0))
        expectWall(try resolve("03:00:01", now: midnight, in: berlin), utc(2026, 3, 29, 1, 0, 1))
        // From 01:30 CET it is still ahead.
        expectWall(try resolve("02:30", now: utc(2026, 3, 29, 0, 30), in: berlin), utc(2026, 3, 29, 1, 0))
        // Once the jump has happened, the next 02:30 is tomorrow's, in summer time.
        expectWall(try resolve("02:30", now: utc(2026, 3, 29, 1, 0), in: berlin), utc(2026, 3, 30, 0, 30))
        expectWall(try resolve("02:30", now: utc(2026, 3, 29, 1, 30), in: berlin), utc(2026, 3, 30, 0, 30))
    }

    @Test("New York spring forward: 02:30 rings at 03:00 EDT")
    func newYorkSpringForward() throws {
        let ny = try zone("America/New_York")
        let midnight = utc(2026, 3, 8, 5, 0)  // 00:00 EST
        let d = try resolve("02:30", now: midnight, in: ny)
        expectWall(d, utc(2026, 3, 8, 7, 0))
        #expect(Formatting.iso8601(d.instant, zone: ny) == "2026-03-08T03:00:00-04:00")
        expectWall(try resolve("2:30am", now: midnight, in: ny), utc(2026, 3, 8, 7, 0))
        expectWall(try resolve("01:59", now: midnight, in: ny), utc(2026, 3, 8, 6, 59))
        expectWall(try resolve("03:30", now: midnight, in: ny), utc(2026, 3, 8, 7, 30))
    }

    @Test("Berlin fall back: 02:30 occurs twice and means the first, once")
    func berlinFallBack() throws {
        let berlin = try zone("Europe/Berlin")
        // First 02:30 is CEST (00:30 UTC), the second CET (01:30 UTC).
        let d = try resolve("02:30", now: utc(2026, 10, 24, 22, 0), in: berlin)  // from 00:00 CEST
        expectWall(d, utc(2026, 10, 25, 0, 30))
        #expect(Formatting.iso8601(d.instant, zone: berlin) == "2026-10-25T02:30:00+02:00")
        expectWall(try resolve("02:30", now: utc(2026, 10, 25, 0, 29, 59), in: berlin), utc(2026, 10, 25, 0, 30))
        // From the first occurrence up to the second and beyond, it is tomorrow's 02:30 CET.
        for now in [utc(2026, 10, 25, 0, 30), utc(2026, 10, 25, 0, 45), utc(2026, 10, 25, 1, 0),
                    utc(2026, 10, 25, 1, 15), utc(2026, 10, 25, 1, 29, 59), utc(2026, 10, 25, 1, 30)] {
            let next = try resolve("02:30", now: now, in: berlin)
            expectWall(next, utc(2026, 10, 26, 1, 30))
            #expect(Formatting.iso8601(next.instant, zone: berlin) == "2026-10-26T02:30:00+01:00")
        }
        // Readings outside the repeated hour are unambiguous.
        expectWall(try resolve("01:59:59", now: utc(2026, 10, 24, 22, 0), in: berlin), utc(2026, 10, 24, 23, 59, 59))
        expectWall(try resolve("03:00", now: utc(2026, 10, 24, 22, 0), in: berlin), utc(2026, 10, 25, 2, 0))
        expectWall(try resolve("02:00", now: utc(2026, 10, 24, 22, 0), in: berlin), utc(2026, 10, 25, 0, 0))
        expectWall(try resolve("02:59:59", now: utc(2026, 10, 24, 22, 0), in: berlin), utc(2026, 10, 25, 0, 59, 59))
    }

    @Test("New York fall back: 01:30 means 01:30 EDT")
    func newYorkFallBack() throws {
        let ny = try zone("America/New_York")
        let d = try resolve("01:30", now: utc(2026, 11, 1, 4, 0), in: ny)  // from 00:00 EDT
        expectWall(d, utc(2026, 11, 1, 5, 30))
        #expect(Formatting.iso8601(d.instant, zone: ny) == "2026-11-01T01:30:00-04:00")
        expectWall(try resolve("1:30am", now: utc(2026, 11, 1, 4, 0), in: ny), utc(2026, 11, 1, 5, 30))
        // Between the two occurrences (01:45 EDT, then 01:15 EST): tomorrow, in EST.
        expectWall(try resolve("01:30", now: utc(2026, 11, 1, 5, 45), in: ny), utc(2026, 11, 2, 6, 30))
        expectWall(try resolve("01:30", now: utc(2026, 11, 1, 6, 15), in: ny), utc(2026, 11, 2, 6, 30))
    }

    @Test("a normal wrap across a daylight change counts wall time, not elapsed time")
    func wrapAcrossChange() throws {
        let berlin = try zone("Europe/Berlin")
        // Midnight before spring forward: 7 hours of wall time, 6 hours elapsed.
        var now = utc(2026, 3, 28, 23, 0)  // 2026-03-29 00:00 CET
        var d = try resolve("07:00", now: now, in: berlin)
        expectWall(d, utc(2026, 3, 29, 5, 0))
        #expect(d.instant - now == .seconds(6 * 3600))
        #expect(Formatting.iso8601(d.instant, zone: berlin) == "2026-03-29T07:00:00+02:00")
        // The evening before: 22:00 CET to 07:00 CEST is 9 wall hours, 8 elapsed.
        now = utc(2026, 3, 28, 21, 0)
        d = try resolve("07:00", now: now, in: berlin)
        expectWall(d, utc(2026, 3, 29, 5, 0))
        #expect(d.instant - now == .seconds(8 * 3600))
        // The evening before fall back: 22:00 CEST to 07:00 CET is 9 wall hours, 10 elapsed.
        now = utc(2026, 10, 24, 20, 0)
        d = try resolve("07:00", now: now, in: berlin)
        expectWall(d, utc(2026, 10, 25, 6, 0))
        #expect(d.instant - now == .seconds(10 * 3600))
        // New York, the evening before spring forward: 22:00 EST to 07:00 EDT.
        let ny = try zone("America/New_York")
        now = utc(2026, 3, 8, 3, 0)
        d = try resolve("07:00", now: now, in: ny)
        expectWall(d, utc(2026, 3, 8, 11, 0))
        #expect(d.instant - now == .seconds(8 * 3600))
    }

    @Test("Lord Howe: half-hour shifts, checked against the tz database")
    func lordHowe() throws {
        let lh = try zone("Australia/Lord_Howe")
        // The file says: 2026-10-04 02:00 +10:30 jumps to 02:30 +11 (15:30 UTC the day before),
        // and 2026-04-05 02:00 +11 falls back to 01:30 +10:30 (15:00 UTC the day before).
        #expect(lh.offset(atUTC: utcSeconds(2026, 10, 3, 15, 29, 59)) == 37_800)
        #expect(lh.offset(atUTC: utcSeconds(2026, 10, 3, 15, 30)) == 39_600)
        #expect(lh.offset(atUTC: utcSeconds(2026, 4, 4, 14, 59, 59)) == 39_600)
        #expect(lh.offset(atUTC: utcSeconds(2026, 4, 4, 15, 0)) == 37_800)

        // Spring forward: 02:00 to 02:29:59 do not exist.
        let octMidnight = utc(2026, 10, 3, 13, 30)  // 2026-10-04 00:00 +10:30
        for text in ["02:00", "02:15", "02:29:59", "2:15am"] {
            let d = try resolve(text, now: octMidnight, in: lh)
            expectWall(d, utc(2026, 10, 3, 15, 30))
            #expect(Formatting.iso8601(d.instant, zone: lh) == "2026-10-04T02:30:00+11:00")
        }
        expectWall(try resolve("01:59:59", now: octMidnight, in: lh), utc(2026, 10, 3, 15, 29, 59))
        expectWall(try resolve("02:30", now: octMidnight, in: lh), utc(2026, 10, 3, 15, 30))
        expectWall(try resolve("07:00", now: octMidnight, in: lh), utc(2026, 10, 3, 20, 0))

        // Fall back: 01:30 to 01:59:59 occur twice; the first is +11.
        let aprMidnight = utc(2026, 4, 4, 13, 0)  // 2026-04-05 00:00 +11
        let d = try resolve("01:45", now: aprMidnight, in: lh)
        expectWall(d, utc(2026, 4, 4, 14, 45))
        #expect(Formatting.iso8601(d.instant, zone: lh) == "2026-04-05T01:45:00+11:00")
        expectWall(try resolve("01:30", now: aprMidnight, in: lh), utc(2026, 4, 4, 14, 30))
        // 02:00 happens once, after the repeat, at +10:30.
        let two = try resolve("02:00", now: aprMidnight, in: lh)
        expectWall(two, utc(2026, 4, 4, 15, 30))
        #expect(Formatting.iso8601(two.instant, zone: lh) == "2026-04-05T02:00:00+10:30")
        // Between the two 01:45s (now 01:30 +10:30, the second pass): tomorrow's.
        let next = try resolve("01:45", now: utc(2026, 4, 4, 15, 0), in: lh)
        expectWall(next, utc(2026, 4, 5, 15, 15))
        #expect(Formatting.iso8601(next.instant, zone: lh) == "2026-04-06T01:45:00+10:30")
        // 07:00 the morning of the change: 7 wall hours from midnight, 7.5 elapsed.
        let seven = try resolve("07:00", now: aprMidnight, in: lh)
        expectWall(seven, utc(2026, 4, 4, 20, 30))
        #expect(seven.instant - aprMidnight == .seconds(7 * 3600 + 1800))
    }

    @Test("Samoa skipped 2011-12-30 entirely: its 07:00 means the moment the clocks jumped")
    func skippedDay() throws {
        let apia = try zone("Pacific/Apia")
        // 2011-12-29 23:59:59 -10 was followed by 2011-12-31 00:00:00 +14 (10:00 UTC).
        #expect(apia.offset(atUTC: utcSeconds(2011, 12, 30, 9, 59, 59)) == -36_000)
        #expect(apia.offset(atUTC: utcSeconds(2011, 12, 30, 10, 0, 0)) == 50_400)
        let now = utc(2011, 12, 29, 22, 0)  // 2011-12-29 12:00 -10
        let d = try resolve("07:00", now: now, in: apia)
        expectWall(d, utc(2011, 12, 30, 10, 0))
        #expect(Formatting.iso8601(d.instant, zone: apia) == "2011-12-31T00:00:00+14:00")
        // After the jump, the next 07:00 is the next morning's.
        expectWall(try resolve("07:00", now: utc(2011, 12, 30, 10, 0), in: apia), utc(2011, 12, 30, 17, 0))
        #expect(throws: ScheduleError.self) { try resolve("2011-12-30T07:00", now: utc(2011, 12, 30, 10, 0), in: apia) }
    }

    @Test("Kolkata: a half-hour offset")
    func kolkata() throws {
        let kolkata = try zone("Asia/Kolkata")
        let d = try resolve("07:00", now: utc(2026, 11, 21, 12, 0), in: kolkata)  // 17:30 IST
        expectWall(d, utc(2026, 11, 22, 1, 30))
        #expect(Formatting.iso8601(d.instant, zone: kolkata) == "2026-11-22T07:00:00+05:30")
        expectWall(try resolve("7pm", now: utc(2026, 11, 21, 12, 0), in: kolkata), utc(2026, 11, 21, 13, 30))
        // Just after midnight UTC it is already 05:30 local: 07:00 is the same UTC day.
        expectWall(try resolve("07:00", now: utc(2026, 11, 22, 0, 1), in: kolkata), utc(2026, 11, 22, 1, 30))
    }

    @Test("POSIX-string zones resolve like their TZif files")
    func posixZones() throws {
        let cases: [(String, String)] = [
            ("Europe/Berlin", "CET-1CEST,M3.5.0,M10.5.0/3"),
            ("America/New_York", "EST5EDT,M3.2.0,M11.1.0"),
            ("Australia/Lord_Howe", "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0"),
            ("Asia/Kolkata", "<+0530>-5:30"),
        ]
        let texts = ["07:00", "02:30", "01:45"]
        var mismatches = 0
        for (name, rule) in cases {
            let file = try zone(name)
            let posix = try posixZone(rule)
            // Every 5 hours 17 minutes through 2026, across every change of that year.
            var now = utc(2026, 1, 1)
            while now < utc(2027, 1, 1) {
                for text in texts {
                    let a = try resolve(text, now: now, in: file), b = try resolve(text, now: now, in: posix)
                    if a != b {
                        mismatches += 1
                        if mismatches <= 5 { Issue.record("\(name) \(text) at \(now.seconds): \(a) vs \(b)") }
                    }
                }
                now = now + .seconds(5 * 3600 + 17 * 60)
            }
        }
        #expect(mismatches == 0)
    }

    // MARK: - Spans, now, date-times

    @Test("relative spans resolve to now plus the span, on the elapsed clock")
    func relativeSpans() throws {
        let now = utc(2026, 11, 22, 6, 0, 37, ns: 500_000_000)
        for (text, seconds) in [("+8h", 28_800), ("+90m", 5400), ("+1h30m", 5400), ("+45s", 45), ("+1h30m15s", 5415)] as [(String, Int64)] {
            let d = try resolve(text, now: now, in: try zone("Europe/Berlin"))
            #expect(d == Deadline(instant: now + .seconds(seconds), clock: .elapsed, span: .seconds(seconds)))
            #expect(d.instant.nanosecondOfSecond == 500_000_000)  // exact: no rounding of now
        }
        // A span across a daylight change is elapsed time, whatever the wall clock does.
        let before = utc(2026, 3, 29, 0, 30)
        let d = try resolve("+1h", now: before, in: try zone("Europe/Berlin"))
        #expect(d.instant == utc(2026, 3, 29, 1, 30))
        #expect(d.clock == .elapsed)
    }

    @Test("now resolves to now")
    func nowIsNow() throws {
        let now = utc(2026, 11, 22, 6, 0, 37, ns: 123)
        let d = try resolve("now", now: now, in: .utc)
        #expect(d.instant == now)
        #expect(d.clock == .elapsed)
        #expect(d.span == .zero)
    }

    @Test("a date-time in the future rings then, on the wall clock")
    func futureDateTime() throws {
        let berlin = try zone("Europe/Berlin")
        let now = utc(2026, 11, 1, 12, 0)
        expectWall(try resolve("2026-11-22T07:00", now: now, in: berlin), utc(2026, 11, 22, 6, 0))
        expectWall(try resolve("2026-11-22T07:00:30", now: now, in: berlin), utc(2026, 11, 22, 6, 0, 30))
        expectWall(try resolve("2026-11-22 07:00", now: now, in: berlin), utc(2026, 11, 22, 6, 0))
        expectWall(try resolve("2027-07-01T07:00", now: now, in: berlin), utc(2027, 7, 1, 5, 0))  // CEST
        // A nanosecond ahead is ahead.
        expectWall(try resolve("2026-11-22T07:00", now: utc(2026, 11, 22, 6, 0) - .nanoseconds(1), in: berlin),
                   utc(2026, 11, 22, 6, 0))
        // Gaps and repeats follow the same rules as times of day.
        expectWall(try resolve("2026-03-29T02:30", now: now - .seconds(300 * 86_400), in: berlin), utc(2026, 3, 29, 1, 0))
        expectWall(try resolve("2026-10-25T02:30", now: now - .seconds(30 * 86_400), in: berlin), utc(2026, 10, 25, 0, 30))
        // Many years ahead, past the end of the TZif transition table.
        expectWall(try resolve("2040-07-01T07:00", now: now, in: berlin), utc(2040, 7, 1, 5, 0))
        expectWall(try resolve("2040-03-25T02:30", now: now, in: berlin), utc(2040, 3, 25, 1, 0))
    }

    @Test("a date-time in the past throws inThePast")
    func pastDateTime() throws {
        let berlin = try zone("Europe/Berlin")
        let now = utc(2026, 11, 22, 6, 0)  // 07:00 CET
        for text in ["2026-11-22T07:00", "2026-11-22T06:59:59", "2026-11-21T07:00", "2020-01-01T00:00", "2026-11-22 06:00"] {
            #expect(throws: ScheduleError.inThePast(text, try Self.dateTime(text))) {
                try resolve(text, now: now, in: berlin)
            }
        }
        // The message names the token.
        do {
            _ = try resolve("2026-11-21T07:00", now: now, in: berlin)
            Issue.record("expected inThePast")
        } catch let error as ScheduleError {
            #expect(error.description.contains("'2026-11-21T07:00'"))
            #expect(error.description.contains("past"))
        }
        // Between two occurrences of a repeated reading, its first occurrence has passed.
        #expect(throws: ScheduleError.self) {
            try resolve("2026-10-25T02:30", now: utc(2026, 10, 25, 1, 0), in: berlin)
        }
    }

    struct NotADateTime: Error { var spec: WakeSpec }

    static func dateTime(_ text: String) throws -> LocalDateTime {
        let spec = try WakeSpec(parsing: text)
        guard case .dateTime(let l) = spec else { throw NotADateTime(spec: spec) }
        return l
    }
}
