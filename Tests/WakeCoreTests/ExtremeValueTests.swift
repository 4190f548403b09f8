import Testing
import WakeCore

/// Every public function of the core at the ends of its types' ranges: answers that make
/// sense, or thrown errors, never a trap (a trap here is SIGILL in front of a sleeper).
@Suite("Extreme values")
struct ExtremeValueTests {
    static let int64s: [Int64] = [.min, .min + 1, -1_000_000_000_000_000_000, -86_400, -1, 0, 1, 86_400,
                                  1_000_000_000_000_000_000, .max - 1, .max]
    static let ints: [Int] = [.min, .min + 1, -1_000_000, -1, 0, 1, 12, 13, 59, 60, 1_000_000, .max - 1, .max]

    @Test("Instant and Duration arithmetic saturates at the ends of the time line")
    func instants() {
        for a in Self.int64s {
            let i = Instant(nanoseconds: a)
            #expect((0..<1_000_000_000).contains(i.nanosecondOfSecond))
            #expect(i.seconds <= a / 1_000_000_000 && i.seconds >= a / 1_000_000_000 - 1)
            for b in Self.int64s {
                let d = Duration.nanoseconds(b)
                let sum = i + d, difference = i - d
                if b >= 0 { #expect(sum >= i && difference <= i) } else { #expect(sum <= i && difference >= i) }
                let span = i - Instant(nanoseconds: b)
                #expect((a >= b) == (span >= .zero))
                _ = Instant(seconds: a, nanoseconds: b)
            }
            _ = Duration.seconds(a).nanoseconds
            _ = Duration.seconds(a).secondsRoundedUp
            _ = Duration.nanoseconds(a).secondsRoundedUp
            _ = Duration.seconds(a).milliseconds
        }
        #expect(Instant(seconds: .max) == .distantFuture)
        #expect(Instant(seconds: .min) == .distantPast)
        #expect(Instant.distantFuture + .seconds(1) == .distantFuture)
        #expect(Duration.seconds(Int64.max).nanoseconds == .max)
        #expect(Duration.nanoseconds(Int64.min).secondsRoundedUp == Int64.min / 1_000_000_000)
        #expect(Duration.nanoseconds(Int64.max).secondsRoundedUp == Int64.max / 1_000_000_000 + 1)
        #expect(Instant(nanoseconds: -1).seconds == -1 && Instant(nanoseconds: -1).nanosecondOfSecond == 999_999_999)
    }

    @Test("calendar arithmetic is total")
    func calendar() {
        for y in Self.ints {
            for m in Self.ints {
                for d in [Int.min, -1, 0, 1, 31, Int.max] {
                    let date = CivilDate(year: y, month: m, day: d)
                    _ = date.isValid
                    let days = date.daysSinceEpoch
                    #expect((0...6).contains(date.weekday))
                    _ = date.nextDay
                    _ = CivilDate(daysSinceEpoch: days)
                    _ = CivilDate.daysIn(month: m, year: y)
                    for h in [Int.min, 0, 23, Int.max] {
                        _ = LocalDateTime(date: date, hour: h, minute: h, second: h).secondsAsIfUTC
                    }
                }
            }
        }
        for s in Self.int64s {
            let l = LocalDateTime(secondsAsIfUTC: s)
            #expect(l.date.isValid && (0...23).contains(l.hour) && (0...59).contains(l.minute) && (0...59).contains(l.second))
            _ = CivilDate(daysSinceEpoch: s)
            #expect(CivilDate(daysSinceEpoch: s).isValid)
        }
        // Exact where it matters: a month past December carries into the year.
        #expect(CivilDate(year: 2026, month: 13, day: 1).daysSinceEpoch == CivilDate(year: 2027, month: 1, day: 1).daysSinceEpoch)
        #expect(CivilDate(year: 2026, month: 0, day: 1).daysSinceEpoch == CivilDate(year: 2025, month: 12, day: 1).daysSinceEpoch)
        #expect(CivilDate(daysSinceEpoch: CivilDate(year: 2200, month: 12, day: 31).daysSinceEpoch) == CivilDate(year: 2200, month: 12, day: 31))
    }

    @Test("formatting any instant, offset or span")
    func formatting() throws {
        let zones = [TimeZoneRules.utc, try zone("Europe/Berlin"), try posixZone("STD21DST-24,J1/0,J300/25")]
        for z in zones {
            for a in Self.int64s {
                let i = Instant(nanoseconds: a)
                _ = Formatting.iso8601(i, zone: z, milliseconds: true)
                _ = Formatting.clockTime(i, zone: z, alwaysSeconds: true)
                for b in Self.int64s {
                    _ = Formatting.dayPhrase(i, now: Instant(nanoseconds: b), zone: z)
                    _ = Formatting.ringsAt(i, now: Instant(nanoseconds: b), zone: z)
                }
                _ = Formatting.gapNote(Deadline(instant: i, clock: .wall, shiftedFrom: local(2026, 3, 29, 2, 30)), zone: z)
                _ = Formatting.gapNote(Deadline(instant: i, clock: .wall, shiftedFrom: LocalDateTime(
                    date: CivilDate(year: .max, month: .min, day: .max), hour: .min, minute: .max, second: -1)), zone: z)
            }
        }
        for a in Self.int64s {
            let d = Duration.nanoseconds(a)
            _ = Formatting.span(d)
            _ = Formatting.span(seconds: a)
            _ = Formatting.seconds(d)
            _ = Formatting.seconds(.seconds(a))
            _ = Formatting.lateness(d)
            _ = Formatting.waitPhrase(d)
            _ = Formatting.waitPhrase(.seconds(a))
            _ = DurationText.format(d)
            _ = DurationText.format(.seconds(a))
            _ = StatusLine.render(label: "alarm", deadline: "07:00", remaining: .seconds(a), now: "06:00", width: 30)
        }
        for o in Self.ints { _ = Formatting.offset(o) }
        #expect(Formatting.offset(Int.min).hasPrefix("-"))
    }

    @Test("resolving hand-built specs with values no parser makes: refused, never a trap")
    func handBuiltSpecs() throws {
        let now = utc(2026, 11, 22, 12)
        let refused: [WakeSpec] = [
            .timeOfDay(hour: 24, minute: 0, second: 0), .timeOfDay(hour: -1, minute: 0, second: 0),
            .timeOfDay(hour: .max, minute: .max, second: .max), .timeOfDay(hour: 7, minute: 60, second: 0),
            .relative(.zero), .relative(.seconds(-1)), .relative(.seconds(Int64.max)), .relative(.seconds(WakeSpec.maximumRelativeSeconds + 1)),
            .dateTime(local(2026, 2, 30)), .dateTime(local(100_000, 1, 1)), .dateTime(local(1000, 1, 1)),
            .dateTime(LocalDateTime(date: CivilDate(year: .max, month: .max, day: .max), hour: 0, minute: 0, second: 0)),
            .zonedDateTime(local(2030, 1, 1), utcOffsetSeconds: .min), .zonedDateTime(local(2030, 1, 1), utcOffsetSeconds: .max),
            .zonedDateTime(local(2030, 1, 1), utcOffsetSeconds: 86_400), .zonedDateTime(local(99_999, 1, 1), utcOffsetSeconds: 0),
        ]
        for spec in refused {
            #expect(throws: ScheduleError.self, "\(spec)") { try Schedule.resolve(spec, token: "x", now: now, zone: .utc) }
        }
        do {
            _ = try Schedule.resolve(.timeOfDay(hour: 99, minute: 0, second: 0), token: "99:00", now: now, zone: .utc)
        } catch {
            #expect(error.description.hasPrefix("cannot resolve time '99:00': "))
        }
        // At the ends of the time line there is no future to ring in: refused, not a saturated deadline.
        #expect(throws: ScheduleError.self) { try Schedule.resolve(.timeOfDay(hour: 7, minute: 0, second: 0), now: .distantFuture, zone: .utc) }
        #expect(throws: ScheduleError.self) { try Schedule.resolve(.relative(seconds: 60), now: .distantFuture, zone: .utc) }
        _ = try? Schedule.resolve(.timeOfDay(hour: 7, minute: 0, second: 0), now: .distantPast, zone: .utc)
    }

    @Test("POSIX rules built by hand with absurd fields answer without trapping")
    func handBuiltRules() throws {
        var rule = try PosixTimeZoneRule("CET-1CEST,M3.5.0,M10.5.0/3")
        let days: [PosixTimeZoneRule.Day] = [.julianNoLeap(.min), .julianNoLeap(.max), .zeroBased(.min), .zeroBased(.max),
                                             .monthWeekDay(month: .max, week: .max, weekday: .min),
                                             .monthWeekDay(month: .min, week: .min, weekday: .max), .monthWeekDay(month: 2, week: 5, weekday: 6)]
        for a in days {
            for b in days {
                for t in [Int.min, -1, 0, Int.max] {
                    rule.daylightStart = .init(day: a, secondsAfterMidnight: t)
                    rule.daylightEnd = .init(day: b, secondsAfterMidnight: 0 &- t)
                    rule.standardOffset = t
                    rule.daylightOffset = 0 &- t
                    for s in Self.int64s { _ = rule.offset(atUTC: s) }
                }
            }
        }
    }
}
