import Testing
import WakeCore

/// Zone data is input: a `TZ` variable anyone can set and TZif files anyone can point it at.
/// No zone, however hostile, may crash the program (a trap is SIGILL, and an alarm that dies
/// silently is the worst bug there is): every public function either answers sanely or
/// throws. Seeded generators (`PropertyRNG`), so a failure reproduces.

/// Every public function of a zone, and of what uses one, called with `zone`; returns what
/// was not sane. Crashes are what this is really for: any trap ends the test process.
func exerciseZone(_ zone: TimeZoneRules, nows: [Instant], label: String) -> [String] {
    var problems: [String] = []
    let extremeSeconds: [Int64] = [.min, .min + 1, -1_000_000_000_000_000, -86_400 * 400_000, -1, 0, 1,
                                   1_798_761_600, 86_400 * 400_000, 1_000_000_000_000_000, .max - 1, .max]
    for t in extremeSeconds {
        let offset = zone.offset(atUTC: t)
        if abs(offset) >= 26 * 3600 { problems.append("\(label): offset \(offset) at \(t)") }
        _ = zone.localType(atUTC: t)
        let instant = Instant(seconds: t)
        let l = zone.localTime(at: instant)
        if !(0...23).contains(l.hour) || !(0...59).contains(l.minute) || !(0...59).contains(l.second) || !l.date.isValid {
            problems.append("\(label): reading \(l) at \(t)")
        }
        _ = zone.instant(for: l)
        _ = Formatting.iso8601(instant, zone: zone, milliseconds: true)
        _ = Formatting.clockTime(instant, zone: zone)
        _ = Formatting.dayPhrase(instant, now: Instant(seconds: 1_798_761_600), zone: zone)
        _ = Formatting.ringsAt(instant, now: .distantPast, zone: zone)
    }
    let hostileReadings = [
        LocalDateTime(date: CivilDate(year: .max, month: .max, day: .max), hour: .max, minute: .max, second: .max),
        LocalDateTime(date: CivilDate(year: .min, month: .min, day: .min), hour: .min, minute: .min, second: .min),
        LocalDateTime(date: CivilDate(year: 2026, month: 13, day: 40), hour: 25, minute: 61, second: 61),
        local(1, 1, 1), local(9999, 12, 31, 23, 59, 59), local(1677, 9, 21), local(2262, 4, 12),
    ]
    for l in hostileReadings { _ = zone.instant(for: l) }

    let specs: [WakeSpec] = [
        .timeOfDay(hour: 7, minute: 0, second: 0), .timeOfDay(hour: 2, minute: 30, second: 0),
        .timeOfDay(hour: 0, minute: 0, second: 0), .timeOfDay(hour: 23, minute: 59, second: 59), .now,
        .relative(seconds: 1), .relative(seconds: WakeSpec.maximumRelativeSeconds),
        .dateTime(local(2200, 12, 31, 23, 59, 59)), .dateTime(local(2030, 3, 31, 2, 30)),
        .zonedDateTime(local(2200, 12, 31, 23, 0), utcOffsetSeconds: -86_340),
        // Hand-built values no parser produces: refused, never a trap.
        .timeOfDay(hour: .max, minute: .min, second: 0), .dateTime(local(100_000, 1, 1)), .relative(.seconds(Int64.max)),
        .zonedDateTime(local(2030, 1, 1), utcOffsetSeconds: .min),
    ]
    for now in nows + [.distantPast, .distantFuture, Instant(nanoseconds: 0)] {
        for spec in specs {
            let d: Deadline
            do { d = try Schedule.resolve(spec, token: "t", now: now, zone: zone) } catch { _ = error.description; continue }
            if case .now = spec { continue }
            if d.instant <= now { problems.append("\(label): \(spec) at \(now) resolved to \(d.instant), not after now") }
            if case .timeOfDay(let h, let m, let s) = spec {
                let got = zone.localTime(at: d.instant)
                let asked = d.shiftedFrom ?? got
                if (asked.hour, asked.minute, asked.second) != (h, m, s) {
                    problems.append("\(label): \(spec) at \(now) rings at reading \(got), shifted from \(String(describing: d.shiftedFrom))")
                }
                if d.instant - now > .seconds(9 * 86_400) { problems.append("\(label): \(spec) at \(now) is \(d.instant - now) away") }
            }
            _ = Formatting.gapNote(d, zone: zone)
            _ = Formatting.ringsAt(d.instant, now: now, zone: zone)
        }
    }
    return problems
}

/// A TZif file built from parts (RFC 8536), version 2 with both blocks alike, for hostile variants.
struct TZifBuilder {
    var transitions: [Int64] = []
    var indices: [UInt8] = []
    var types: [(offset: Int32, dst: Bool, abbr: UInt8)] = [(0, false, 0)]
    var chars: [UInt8] = Array("UTC\0".utf8)
    var footer: String? = "UTC0"
    /// Replaces the header's counts (isut, isstd, leap, time, type, char) when set.
    var counts: [UInt32]?

    func bytes() -> [UInt8] {
        func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func be64(_ v: Int64) -> [UInt8] { let u = UInt64(bitPattern: v); return be32(UInt32(u >> 32)) + be32(UInt32(u & 0xFFFF_FFFF)) }
        let c = counts ?? [0, 0, 0, UInt32(transitions.count), UInt32(types.count), UInt32(chars.count)]
        func header() -> [UInt8] { Array("TZif2".utf8) + [UInt8](repeating: 0, count: 15) + c.flatMap(be32) }
        func block(_ wide: Bool) -> [UInt8] {
            var b = header()
            for t in transitions { b += wide ? be64(t) : be32(UInt32(bitPattern: Int32(clamping: t))) }
            b += indices
            for t in types { b += be32(UInt32(bitPattern: t.offset)) + [t.dst ? 1 : 0, t.abbr] }
            return b + chars
        }
        var out = block(false) + block(true)
        if let footer { out += [0x0A] + Array(footer.utf8) + [0x0A] }
        return out
    }
}

@Suite("Hostile zone data")
struct HostileZoneTests {
    static let nows: [Instant] = [utc(2026, 1, 1), utc(2026, 3, 29, 0, 59, 59), utc(2026, 6, 30, 12), utc(2026, 10, 25, 1),
                                  utc(2026, 12, 31, 23, 59, 59), utc(1970, 1, 1), utc(2200, 12, 31, 12), utc(2261, 6, 1)]

    @Test("a fall-back of a day or more (issue 12 item 13): STD21DST-24 ending at 25:00 on any day of the year")
    func hugeFallBack() throws {
        var problems: [String] = []
        // Every day of the first fortnight (where daylight time lasts hours and its end and start
        // interleave, the cases a three-day search missed), then every fifth.
        for day in Array(1...14) + Array(stride(from: 15, through: 365, by: 5)) {
            for (std, dst, end) in [("21", "-24", "25"), ("-24", "24", "167"), ("24", "-24", "-167"), ("0", "-24", "24:59:59")] {
                let rule = "STD\(std)DST\(dst),J1/0,J\(day)/\(end)"
                let zone = try posixZone(rule)
                // Around the end of daylight time that day, in 2026, where the fall-back happens.
                let end = utc(2026, 1, 1) + .seconds(Int64(day - 1) * 86_400)
                let nows = stride(from: -12, through: 12, by: 1).map { end + .seconds(Int64($0) * 6 * 3600 + 1234) }
                let specs: [WakeSpec] = [.timeOfDay(hour: 7, minute: 0, second: 0), .timeOfDay(hour: 23, minute: 30, second: 0),
                                         .timeOfDay(hour: 0, minute: 0, second: 0)]
                for now in nows {
                    for spec in specs {
                        do {
                            let d = try Schedule.resolve(spec, token: "07:00", now: now, zone: zone)
                            if d.instant <= now { problems.append("\(rule) at \(now): \(d.instant) not after now") }
                        } catch {
                            problems.append("\(rule) at \(now): \(error)")
                        }
                    }
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.count) problems, first: \(problems.prefix(5).joined(separator: "\n"))")
    }

    @Test("the transition-time and offset limits: ±167h for transitions, ±24:59:59 for offsets")
    func limits() throws {
        for good in ["STD21DST-24,J1/0,J300/25", "AAA24BBB-24,M3.5.0/-167,M10.5.0/167", "<+99>-24:59:59<-99>24:59:59,0/0,365/167:59:59",
                     "EST5EDT", "EST5EDT4,M3.2.0/2:00:00,M11.1.0/2:00:00", "<-03>3", "<+0530>-5:30"] {
            let rule = try PosixTimeZoneRule(good)
            #expect(exerciseZone(TimeZoneRules(name: good, posix: rule), nows: Self.nows, label: good).isEmpty)
        }
        for bad in ["STD25", "STD-25", "STD168DST,J1/0,J2/0", "STD0DST,J1/168,J2/0", "STD0DST,J1/0,J2/-168", "STD0DST25,J1,J2",
                    "STD0:60", "STD0DST,J0,J2", "STD0DST,J1,J366", "STD0DST,366,0", "STD0DST,M13.1.0,M1.1.0",
                    "STD0DST,M1.6.0,M2.1.0", "STD0DST,M1.1.7,M2.1.0", "<ST\u{1B}D>0", "<S D>0", "STD9999", "STD0DST,J1/99999,J2"] {
            #expect(throws: PosixTimeZoneRule.ParseError.invalid(bad), "\(bad.debugDescription)") { try PosixTimeZoneRule(bad) }
        }
        let message = PosixTimeZoneRule.ParseError.invalid("bad\u{1B}[2J").description
        #expect(message.contains("'bad\\x1b[2J'"))
        #expect(message.contains("Europe/Berlin"))
    }

    @Test("20,000 random POSIX rules: parsed or refused, never a crash; parsed ones answer sanely")
    func randomPosixRules() async {
        var rng = PropertyRNG(seed: 0x705_1C5)
        func num(_ maxHours: Int) -> String {
            let h = rng.chance(10) ? rng.below(1000) : rng.below(maxHours + 1)
            var s = (rng.chance(30) ? rng.pick(["+", "-"]) : "") + "\(h)"
            if rng.chance(40) { s += ":\(rng.below(rng.chance(10) ? 100 : 60))" }
            if rng.chance(20) { s += ":\(rng.below(rng.chance(10) ? 100 : 60))" }
            return s
        }
        func day() -> String {
            switch rng.below(3) {
            case 0: return "J\(rng.below(rng.chance(10) ? 1000 : 366))"
            case 1: return "\(rng.below(rng.chance(10) ? 1000 : 366))"
            default: return "M\(rng.below(14)).\(rng.below(7)).\(rng.below(8))"
            }
        }
        var parsed = 0, problems: [String] = []
        for i in 0..<20_000 {
            if i % 200 == 0 { await Task.yield() }
            var text = rng.pick(["STD", "<+05>", "<-0330>", "AB", "X", "<A\u{9B}B>", ""]) + num(24)
            if rng.chance(80) {
                text += rng.pick(["DST", "<+06>", "Q", ""])
                if rng.chance(50) { text += num(24) }
                if rng.chance(85) {
                    text += "," + day() + (rng.chance(70) ? "/" + num(167) : "")
                    text += "," + day() + (rng.chance(70) ? "/" + num(167) : "")
                }
            }
            if rng.chance(5) {  // a random cut or insertion
                var c = Array(text)
                if !c.isEmpty, rng.chance(50) { c.removeLast(rng.below(c.count) + 1) } else { c.insert(rng.pick(Array("+-:,./JM0<>\0")), at: rng.below(c.count + 1)) }
                text = String(c)
            }
            guard let rule = try? PosixTimeZoneRule(text) else { continue }
            parsed += 1
            let zone = TimeZoneRules(name: text, posix: rule)
            // All of it for some, the lookups for all (the full set is slow for 20,000).
            if i % 20 == 0 {
                problems += exerciseZone(zone, nows: Self.nows, label: text)
            } else {
                for t: Int64 in [.min, -1, 1_798_761_600, .max] { _ = zone.localTime(at: Instant(seconds: t)); _ = zone.offset(atUTC: t) }
                do {
                    let d = try Schedule.resolve(.timeOfDay(hour: 7, minute: 0, second: 0), now: Self.nows[i % Self.nows.count], zone: zone)
                    if d.instant <= Self.nows[i % Self.nows.count] { problems.append("\(text): not after now") }
                } catch {
                    problems.append("\(text): \(error)")
                }
            }
        }
        #expect(parsed > 2_000, "the generator should reach valid rules: \(parsed)")
        #expect(problems.isEmpty, "\(problems.count) problems, first: \(problems.prefix(5).joined(separator: "\n"))")
    }

    @Test("TZif offsets at and beyond RFC 8536's limits, with far dates")
    func extremeOffsets() throws {
        for offset in [Int32.min, Int32.max, -90_000, 93_600, 1_000_000] {
            var b = TZifBuilder()
            b.types = [(0, false, 0), (offset, true, 0)]
            b.transitions = [0, 4_000_000_000]
            b.indices = [1, 0]
            b.footer = nil
            #expect(throws: TimeZoneRules.TZifError.self, "offset \(offset)") { try TimeZoneRules(name: "x", tzif: b.bytes()) }
        }
        for offset: Int32 in [-89_999, 93_599, 0] {
            var b = TZifBuilder()
            b.types = [(offset, false, 0), (0, true, 0)]
            b.transitions = [Int64.min + 1, -4_000_000_000, 0, 4_000_000_000, Int64.max - 1]
            b.indices = [1, 0, 1, 0, 1]
            b.footer = nil
            let zone = try TimeZoneRules(name: "edge", tzif: b.bytes())
            #expect(zone.offset(atUTC: Int64.max) == 0)
            #expect(zone.offset(atUTC: -1) == Int(offset))
            let problems = exerciseZone(zone, nows: Self.nows, label: "offset \(offset)")
            #expect(problems.isEmpty, "\(problems.prefix(5))")
        }
        // Out of order transitions would make the binary search answer wrongly: refused.
        var unordered = TZifBuilder()
        unordered.types = [(0, false, 0), (3600, true, 0)]
        unordered.transitions = [100, 50]
        unordered.indices = [1, 0]
        #expect(throws: TimeZoneRules.TZifError.self) { try TimeZoneRules(name: "x", tzif: unordered.bytes()) }
        // A footer with a hostile rule is refused by name, escaped.
        var footer = TZifBuilder()
        footer.footer = "STD21DST-99,J1/0,J2/0"
        #expect(throws: TimeZoneRules.TZifError.badFooter("STD21DST-99,J1/0,J2/0")) { try TimeZoneRules(name: "x", tzif: footer.bytes()) }
        footer.footer = "STD21DST-24,J1/0,J300/25"
        let zone = try TimeZoneRules(name: "x", tzif: footer.bytes())
        #expect(exerciseZone(zone, nows: Self.nows, label: "footer").isEmpty)
        #expect(TimeZoneRules.TZifError.badFooter("a\u{1B}b").description.contains("a\\x1bb"))
    }

    @Test("TZif headers claiming huge counts are truncated files, not allocations or crashes")
    func hugeCounts() {
        for counts: [UInt32] in [[0, 0, 0, .max, 1, 4], [0, 0, .max, 0, 1, 4], [.max, .max, .max, .max, .max, .max],
                                 [0, 0, 0, 0, .max, 4], [0, 0, 0, 0, 1, .max], [0, 0, 0, 0, 0, 0], [0, 0, 0, 3, 1, 4]] {
            var b = TZifBuilder()
            b.counts = counts
            #expect(throws: TimeZoneRules.TZifError.self, "\(counts)") { try TimeZoneRules(name: "x", tzif: b.bytes()) }
        }
        // Indices pointing past the types.
        var b = TZifBuilder()
        b.transitions = [0]
        b.indices = [200]
        #expect(throws: TimeZoneRules.TZifError.self) { try TimeZoneRules(name: "x", tzif: b.bytes()) }
    }

    @Test("every truncation and 20,000 random mutations of real TZif files, and random bytes")
    func mutatedFiles() async throws {
        var rng = PropertyRNG(seed: 0x7A1F)
        var problems: [String] = []
        var parsed = 0
        for name in ["Europe/Berlin", "America/New_York", "Pacific/Apia", "Australia/Lord_Howe"] {
            guard let original = try? zoneBytes(name) else { continue }
            for n in 0..<original.count {
                if n % 500 == 0 { await Task.yield() }
                if let z = try? TimeZoneRules(name: name, tzif: Array(original.prefix(n))) {
                    parsed += 1
                    if n % 50 == 0 { problems += exerciseZone(z, nows: [Self.nows[2]], label: "\(name) cut at \(n)") }
                }
            }
            for i in 0..<5_000 {
                if i % 200 == 0 { await Task.yield() }
                var bytes = original
                for _ in 0..<(1 + rng.below(8)) {
                    let at = rng.chance(70) ? rng.below(min(bytes.count, 120)) : rng.below(bytes.count)
                    bytes[at] = rng.chance(50) ? UInt8(truncatingIfNeeded: rng.next()) : rng.pick([0, 0xFF, 0x80, 0x7F])
                }
                if let z = try? TimeZoneRules(name: name, tzif: bytes) {
                    parsed += 1
                    if i % 25 == 0 { problems += exerciseZone(z, nows: [Self.nows[i % Self.nows.count]], label: "\(name) mutation \(i)") }
                    for t: Int64 in [.min, 0, 1_798_761_600, .max] { _ = z.localTime(at: Instant(seconds: t)) }
                    _ = try? Schedule.resolve(.timeOfDay(hour: 7, minute: 0, second: 0), now: Self.nows[0], zone: z)
                }
            }
        }
        for i in 0..<5_000 {
            if i % 500 == 0 { await Task.yield() }
            var bytes = (0..<rng.below(300)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            if rng.chance(70) { bytes = Array("TZif".utf8) + [rng.pick([0, 0x32, 0x33, 0x34, 0xFF])] + bytes }
            if let z = try? TimeZoneRules(name: "random", tzif: bytes) {
                problems += exerciseZone(z, nows: [Self.nows[0]], label: "random \(i)")
            }
        }
        print("hostile TZif: \(parsed) mutated or cut files parsed")
        #expect(problems.isEmpty, "\(problems.count) problems, first: \(problems.prefix(5).joined(separator: "\n"))")
    }

    @Test("real zones survive the same treatment")
    func realZones() throws {
        for name in ["Europe/Berlin", "America/New_York", "Pacific/Apia", "Australia/Lord_Howe", "Asia/Kathmandu", "UTC"] {
            guard let z = try? zone(name) else { continue }
            let problems = exerciseZone(z, nows: Self.nows, label: name)
            #expect(problems.isEmpty, "\(problems.prefix(5))")
        }
    }
}
