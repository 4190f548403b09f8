import Testing
import WakeCore

/// TZif files and POSIX `TZ` strings: parsing, offsets, and wall-clock readings to instants.
@Suite("Time-zone rules")
struct TimeZoneRulesTests {
    struct Pair: Sendable, CustomTestStringConvertible {
        var file: String
        var rule: String
        /// Whether `rule` is the file's own footer, so abbreviations agree too.
        var isFooter: Bool = true
        var testDescription: String { "\(file) = \(rule)" }
    }

    static let pairs: [Pair] = [
        Pair(file: "Europe/Berlin", rule: "CET-1CEST,M3.5.0,M10.5.0/3"),
        Pair(file: "America/New_York", rule: "EST5EDT,M3.2.0,M11.1.0"),
        Pair(file: "Asia/Kolkata", rule: "<+0530>-5:30", isFooter: false),  // the file says IST-5:30
        Pair(file: "Australia/Lord_Howe", rule: "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0"),
        // More shapes of rule: southern hemisphere, times past 24h, negative times, 2-hour and
        // 45-minute shifts, negative daylight saving, hh:mm offsets.
        Pair(file: "Australia/Sydney", rule: "AEST-10AEDT,M10.1.0,M4.1.0/3"),
        Pair(file: "Pacific/Auckland", rule: "NZST-12NZDT,M9.5.0,M4.1.0/3"),
        Pair(file: "America/Santiago", rule: "<-04>4<-03>,M9.1.6/24,M4.1.6/24"),
        Pair(file: "America/Nuuk", rule: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0"),
        Pair(file: "Europe/London", rule: "GMT0BST,M3.5.0/1,M10.5.0"),
        Pair(file: "Europe/Dublin", rule: "IST-1GMT0,M10.5.0,M3.5.0/1"),
        Pair(file: "Antarctica/Troll", rule: "<+00>0<+02>-2,M3.5.0/1,M10.5.0/3"),
        Pair(file: "Pacific/Chatham", rule: "<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45"),
        Pair(file: "America/St_Johns", rule: "NST3:30NDT,M3.2.0,M11.1.0"),
        Pair(file: "Asia/Kathmandu", rule: "<+0545>-5:45"),
        Pair(file: "Asia/Tehran", rule: "<+0330>-3:30"),
    ]

    @Test("POSIX strings agree with the TZif files every 15 minutes of 2026 and 2040", arguments: pairs)
    func posixAgreesWithTZif(_ pair: Pair) throws {
        let file = try zone(pair.file)
        let posix = try posixZone(pair.rule)
        var mismatches = 0
        for year in [2026, 2040] {
            var t = utcSeconds(year, 1, 1)
            let end = utcSeconds(year + 1, 1, 1)
            while t < end {
                let a = file.localType(atUTC: t), b = posix.localType(atUTC: t)
                let same = a.offset == b.offset && a.isDaylight == b.isDaylight
                    && (!pair.isFooter || a.abbreviation == b.abbreviation)
                if !same {
                    mismatches += 1
                    if mismatches <= 5 { Issue.record("\(pair.file) at \(t): file \(a), posix \(b)") }
                }
                t += 900
            }
        }
        #expect(mismatches == 0)
    }

    @Test("POSIX strings agree with the TZif files at each second around every change", arguments: pairs)
    func posixAgreesAtChanges(_ pair: Pair) throws {
        let file = try zone(pair.file)
        let posix = try posixZone(pair.rule)
        var changes = 0, mismatches = 0
        for year in [2026, 2040] {
            // Every change in these zones falls on a quarter hour in UTC.
            var t = utcSeconds(year, 1, 1)
            let end = utcSeconds(year + 1, 1, 1)
            var previous = file.offset(atUTC: t)
            while t < end {
                let next = t + 900
                let offset = file.offset(atUTC: next)
                if offset != previous {
                    changes += 1
                    for s in (t - 5)...(next + 5) {
                        let a = file.localType(atUTC: s), b = posix.localType(atUTC: s)
                        if a.offset != b.offset || a.isDaylight != b.isDaylight || (pair.isFooter && a != b) {
                            mismatches += 1
                            if mismatches <= 5 { Issue.record("\(pair.file) at \(s): file \(a), posix \(b)") }
                        }
                    }
                    previous = offset
                }
                t = next
            }
        }
        #expect(mismatches == 0)
        // Zones with daylight saving change twice a year, the others never.
        #expect(changes == (pair.rule.contains(",") ? 4 : 0))
    }

    // MARK: - TZif files

    @Test("Berlin: offsets, daylight flags and abbreviations")
    func berlin() throws {
        let berlin = try zone("Europe/Berlin")
        #expect(berlin.name == "Europe/Berlin")
        let winter = berlin.localType(atUTC: utcSeconds(2026, 1, 15, 12))
        #expect(winter.offset == 3600)
        #expect(!winter.isDaylight)
        #expect(winter.abbreviation == "CET")
        let summer = berlin.localType(atUTC: utcSeconds(2026, 7, 15, 12))
        #expect(summer.offset == 7200)
        #expect(summer.isDaylight)
        #expect(summer.abbreviation == "CEST")
        // The changes of 2026, to the second (from zdump).
        #expect(berlin.offset(atUTC: utcSeconds(2026, 3, 29, 0, 59, 59)) == 3600)
        #expect(berlin.offset(atUTC: utcSeconds(2026, 3, 29, 1, 0, 0)) == 7200)
        #expect(berlin.offset(atUTC: utcSeconds(2026, 10, 25, 0, 59, 59)) == 7200)
        #expect(berlin.offset(atUTC: utcSeconds(2026, 10, 25, 1, 0, 0)) == 3600)
        // 2040 is past the file's table and comes from its footer rule.
        #expect(berlin.offset(atUTC: utcSeconds(2040, 3, 25, 0, 59, 59)) == 3600)
        #expect(berlin.offset(atUTC: utcSeconds(2040, 3, 25, 1, 0, 0)) == 7200)
        #expect(berlin.offset(atUTC: utcSeconds(2040, 10, 28, 0, 59, 59)) == 7200)
        #expect(berlin.offset(atUTC: utcSeconds(2040, 10, 28, 1, 0, 0)) == 3600)
        #expect(berlin.localType(atUTC: utcSeconds(2040, 7, 1)).abbreviation == "CEST")
        // History: double summer time in 1945, and local mean time before 1893.
        #expect(berlin.offset(atUTC: utcSeconds(1945, 6, 1)) == 10_800)
        #expect(berlin.offset(atUTC: utcSeconds(1850, 1, 1)) == 3208)
        #expect(berlin.localType(atUTC: utcSeconds(1850, 1, 1)).abbreviation == "LMT")
    }

    @Test("New York and Lord Howe 2040 changes come from the footer")
    func footerYears() throws {
        let ny = try zone("America/New_York")
        #expect(ny.offset(atUTC: utcSeconds(2040, 3, 11, 6, 59, 59)) == -18_000)
        #expect(ny.offset(atUTC: utcSeconds(2040, 3, 11, 7, 0, 0)) == -14_400)
        #expect(ny.offset(atUTC: utcSeconds(2040, 11, 4, 5, 59, 59)) == -14_400)
        #expect(ny.offset(atUTC: utcSeconds(2040, 11, 4, 6, 0, 0)) == -18_000)
        #expect(ny.localType(atUTC: utcSeconds(2040, 7, 1)).abbreviation == "EDT")
        let lh = try zone("Australia/Lord_Howe")
        #expect(lh.offset(atUTC: utcSeconds(2040, 3, 31, 14, 59, 59)) == 39_600)
        #expect(lh.offset(atUTC: utcSeconds(2040, 3, 31, 15, 0, 0)) == 37_800)
        #expect(lh.offset(atUTC: utcSeconds(2040, 10, 6, 15, 29, 59)) == 37_800)
        #expect(lh.offset(atUTC: utcSeconds(2040, 10, 6, 15, 30, 0)) == 39_600)
        #expect(lh.localType(atUTC: utcSeconds(2040, 1, 1)).abbreviation == "+11")
        // Far ahead, still the footer.
        #expect(lh.offset(atUTC: utcSeconds(2200, 1, 1)) == 39_600)
        #expect(ny.offset(atUTC: utcSeconds(2200, 7, 1)) == -14_400)
    }

    @Test("Kolkata is +05:30 all year")
    func kolkata() throws {
        let kolkata = try zone("Asia/Kolkata")
        for month in 1...12 {
            let type = kolkata.localType(atUTC: utcSeconds(2026, month, 10))
            #expect(type.offset == 19_800)
            #expect(!type.isDaylight)
            #expect(type.abbreviation == "IST")
        }
    }

    @Test("UTC and zones without rules")
    func utcZone() throws {
        #expect(TimeZoneRules.utc.offset(atUTC: 0) == 0)
        #expect(TimeZoneRules.utc.offset(atUTC: utcSeconds(2026, 7, 1)) == 0)
        #expect(TimeZoneRules.utc.localType(atUTC: -1_000_000_000_000).abbreviation == "UTC")
        #expect(TimeZoneRules.utc.instant(for: local(2026, 11, 22, 7, 0)) == utc(2026, 11, 22, 7, 0))
        let file = try zone("Etc/UTC")
        #expect(file.offset(atUTC: utcSeconds(2026, 7, 1)) == 0)
        #expect(file.localType(atUTC: utcSeconds(2040, 7, 1)).abbreviation == "UTC")
        let fixed = try posixZone("<-03>3")
        #expect(fixed.offset(atUTC: utcSeconds(2026, 7, 1)) == -10_800)
        #expect(fixed.localType(atUTC: 0).abbreviation == "-03")
    }

    @Test("corrupt files throw instead of crashing")
    func corruptFiles() throws {
        #expect(throws: TimeZoneRules.TZifError.truncated) { try TimeZoneRules(name: "x", tzif: []) }
        #expect(throws: TimeZoneRules.TZifError.truncated) { try TimeZoneRules(name: "x", tzif: Array("TZif2".utf8)) }
        #expect(throws: TimeZoneRules.TZifError.notTZif) {
            try TimeZoneRules(name: "x", tzif: Array(String(repeating: "not a zone file ", count: 10).utf8))
        }
        #expect(TimeZoneRules.TZifError.notTZif.description.contains("TZif"))
        #expect(TimeZoneRules.TZifError.truncated.description.contains("truncated"))

        // Every prefix of a real file either parses or throws; cut inside the data it is `truncated`.
        let bytes = try zoneBytes("Europe/Berlin")
        let footerStart = try #require(bytes.lastIndex(of: 0x0A, before: bytes.count - 1))
        for n in 0..<bytes.count {
            do {
                _ = try TimeZoneRules(name: "cut", tzif: Array(bytes[..<n]))
                #expect(n >= footerStart, "parsed with only \(n) of \(bytes.count) bytes")
            } catch {
                if n < footerStart { #expect(error == .truncated, "\(n) bytes: \(error)") }
            }
        }

        // A damaged footer is reported with its text.
        var bad = bytes
        let m = try #require(bad.lastIndex(of: UInt8(ascii: "M")))
        bad[m] = UInt8(ascii: "Q")
        #expect(throws: TimeZoneRules.TZifError.self) { try TimeZoneRules(name: "bad", tzif: bad) }
        do {
            _ = try TimeZoneRules(name: "bad", tzif: bad)
        } catch {
            guard case .badFooter(let text) = error else { Issue.record("\(error)"); return }
            #expect(text.hasPrefix("CET-1CEST"))
            #expect(error.description.contains(text))
        }
    }

    // MARK: - Wall-clock readings to instants

    @Test("localTime and instant(for:) invert each other, except for the second pass of a repeat",
          arguments: ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Europe/Dublin",
                      "America/Santiago", "Pacific/Chatham"])
    func roundTrip(_ name: String) throws {
        let z = try zone(name)
        var failures = 0, repeats = 0
        for year in [2026, 2040] {
            var t = utcSeconds(year, 1, 1)
            let end = utcSeconds(year + 1, 1, 1)
            while t < end {
                let instant = Instant(seconds: t)
                let reading = z.localTime(at: instant)
                var ok = reading.secondsAsIfUTC == t + Int64(z.offset(atUTC: t))
                let back = z.instant(for: reading)
                if back != instant {
                    // Only allowed when the same reading happened earlier: the first occurrence wins.
                    ok = ok && back < instant && instant - back <= .seconds(2 * 3600) && z.localTime(at: back) == reading
                    repeats += 1
                }
                if !ok {
                    failures += 1
                    if failures <= 5 { Issue.record("\(name) at \(t): \(reading) back to \(back.seconds)") }
                }
                t += 3600
            }
        }
        #expect(failures == 0)
        // Each fall back repeats readings once a year; Kolkata never.
        #expect((repeats == 0) == (name == "Asia/Kolkata"))
    }

    @Test("readings in a gap mean the moment the clocks jump")
    func gaps() throws {
        let berlin = try zone("Europe/Berlin")
        #expect(berlin.instant(for: local(2026, 3, 29, 2, 0)) == utc(2026, 3, 29, 1, 0))
        #expect(berlin.instant(for: local(2026, 3, 29, 2, 30)) == utc(2026, 3, 29, 1, 0))
        #expect(berlin.instant(for: local(2026, 3, 29, 2, 59, 59)) == utc(2026, 3, 29, 1, 0))
        #expect(berlin.instant(for: local(2026, 3, 29, 3, 0)) == utc(2026, 3, 29, 1, 0))
        #expect(berlin.instant(for: local(2040, 3, 25, 2, 30)) == utc(2040, 3, 25, 1, 0))
        let santiago = try zone("America/Santiago")
        // Santiago springs forward at 24:00 on the first Saturday of September: 2026-09-06 00:00 -04 is 01:00 -03.
        #expect(santiago.instant(for: local(2026, 9, 6, 0, 30)) == utc(2026, 9, 6, 4, 0))
        // Santiago falls back at 24:00 -03 on the first Saturday of April: 2026-04-04 23:30 occurs twice.
        #expect(santiago.instant(for: local(2026, 4, 4, 23, 30)) == utc(2026, 4, 5, 2, 30))
    }

    // MARK: - POSIX strings

    @Test("parsing POSIX strings")
    func parsePosix() throws {
        let cet = try PosixTimeZoneRule("CET-1CEST,M3.5.0,M10.5.0/3")
        #expect(cet.standardName == "CET")
        #expect(cet.standardOffset == 3600)
        #expect(cet.daylightName == "CEST")
        #expect(cet.daylightOffset == 7200)
        #expect(cet.daylightStart?.day == .monthWeekDay(month: 3, week: 5, weekday: 0))
        #expect(cet.daylightStart?.secondsAfterMidnight == 7200)
        #expect(cet.daylightEnd?.day == .monthWeekDay(month: 10, week: 5, weekday: 0))
        #expect(cet.daylightEnd?.secondsAfterMidnight == 10_800)

        let india = try PosixTimeZoneRule("<+0530>-5:30")
        #expect(india.standardName == "+0530")
        #expect(india.standardOffset == 19_800)
        #expect(india.daylightName == nil)
        #expect(india.daylightStart == nil)
        #expect(india.offset(atUTC: utcSeconds(2026, 7, 1)) == (19_800, false))

        let lh = try PosixTimeZoneRule("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0")
        #expect(lh.standardName == "+1030")
        #expect(lh.standardOffset == 37_800)
        #expect(lh.daylightName == "+11")
        #expect(lh.daylightOffset == 39_600)
        #expect(lh.offset(atUTC: utcSeconds(2026, 1, 1)) == (39_600, true))
        #expect(lh.offset(atUTC: utcSeconds(2026, 7, 1)) == (37_800, false))

        let ny = try PosixTimeZoneRule("EST5EDT,M3.2.0,M11.1.0")
        #expect(ny.standardOffset == -18_000)
        #expect(ny.daylightOffset == -14_400)
        #expect(ny.daylightEnd?.day == .monthWeekDay(month: 11, week: 1, weekday: 0))

        let stJohns = try PosixTimeZoneRule("NST3:30NDT,M3.2.0,M11.1.0")
        #expect(stJohns.standardOffset == -12_600)
        #expect(stJohns.daylightOffset == -9000)

        let nuuk = try PosixTimeZoneRule("<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
        #expect(nuuk.daylightStart?.secondsAfterMidnight == -3600)
        #expect(nuuk.daylightEnd?.secondsAfterMidnight == 0)

        let santiago = try PosixTimeZoneRule("<-04>4<-03>,M9.1.6/24,M4.1.6/24")
        #expect(santiago.daylightStart?.secondsAfterMidnight == 86_400)
    }

    @Test("a daylight name without rules means the US rules, as glibc does")
    func defaultRules() throws {
        let implicit = try posixZone("EST5EDT")
        let explicit = try posixZone("EST5EDT,M3.2.0,M11.1.0")
        var t = utcSeconds(2026, 1, 1)
        while t < utcSeconds(2027, 1, 1) {
            #expect(implicit.localType(atUTC: t) == explicit.localType(atUTC: t))
            t += 3600
        }
        let explicitOffset = try PosixTimeZoneRule("AAA3BBB1")
        #expect(explicitOffset.daylightOffset == -3600)
    }

    @Test("Julian and zero-based days")
    func julianDays() throws {
        // J60 is always March 1; day 59 (zero-based) is March 1 in a common year and February 29 in a leap year.
        let julian = try PosixTimeZoneRule("AAA0BBB,J60/0,J300/0")
        #expect(julian.offset(atUTC: utcSeconds(2028, 2, 29, 23, 59, 59)) == (0, false))
        #expect(julian.offset(atUTC: utcSeconds(2028, 3, 1, 0, 0, 0)) == (3600, true))
        #expect(julian.offset(atUTC: utcSeconds(2026, 2, 28, 23, 59, 59)) == (0, false))
        #expect(julian.offset(atUTC: utcSeconds(2026, 3, 1, 0, 0, 0)) == (3600, true))
        let zero = try PosixTimeZoneRule("AAA0BBB,59/0,299/0")
        #expect(zero.offset(atUTC: utcSeconds(2028, 2, 28, 23, 59, 59)) == (0, false))
        #expect(zero.offset(atUTC: utcSeconds(2028, 2, 29, 0, 0, 0)) == (3600, true))
        #expect(zero.offset(atUTC: utcSeconds(2026, 2, 28, 23, 59, 59)) == (0, false))
        #expect(zero.offset(atUTC: utcSeconds(2026, 3, 1, 0, 0, 0)) == (3600, true))
        // Day 299 is October 27 in a common year: daylight ends at 00:00 daylight time (23:00 UTC the day before).
        #expect(zero.offset(atUTC: utcSeconds(2026, 10, 26, 22, 59, 59)) == (3600, true))
        #expect(zero.offset(atUTC: utcSeconds(2026, 10, 26, 23, 0, 0)) == (0, false))
    }

    @Test("bad POSIX strings throw", arguments: [
        "", "C", "CE", "CET", "CET-", "-1", "CET-1CEST,M3.5.0", "CET-1CEST,M3.5.0,", "CET-1CEST,M13.5.0,M10.5.0",
        "CET-1CEST,M3.6.0,M10.5.0", "CET-1CEST,M3.5.7,M10.5.0", "CET-1CEST,M3.0.0,M10.5.0", "CET-1CEST,M3.5,M10.5.0",
        "<+0530", "<+0>-5", "CET-1CEST,M3.5.0,M10.5.0/3x", "CET-1CEST,M3.5.0,M10.5.0/", "CET-200", "CET-1:60",
        "CET-1CEST,J0,J365", "CET-1CEST,J366,J1", "CET-1CEST,366,1", "CET-1CEST,M3.5.0;M10.5.0", "CET-1 CEST",
        "CET-1CEST-2x", "CET-1CE", "CET-1CEST,M3.5.0/168,M10.5.0", "CET-1CEST,,", "CET-1CEST,M3.5.0,M10.5.0,M1.1.0",
        "CET-1\0", "CET-1CEST,M3.5.0,M10.5.0\n",
    ])
    func badPosix(_ text: String) {
        #expect(throws: PosixTimeZoneRule.ParseError.invalid(text)) { try PosixTimeZoneRule(text) }
    }
}

extension Array where Element == UInt8 {
    /// The last index of `byte` strictly before `end`.
    func lastIndex(of byte: UInt8, before end: Int) -> Int? {
        self[..<end].lastIndex(of: byte)
    }
}
