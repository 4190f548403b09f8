import Testing
import WakeCore

/// A snooze of a chosen length (`wake snooze 20m`, `--until 07:40`, the notification's long
/// button): the engine takes it as it takes its own snooze, the words are read with the
/// ID/length rule, and a length or a time is resolved right across a daylight-saving change.
@Suite("AlarmEngine and SnoozeRequest: a snooze of a chosen length")
struct ChosenSnoozeTests {
    typealias T = AlarmEngineTests

    static func snoozed(_ actions: [AlarmEngine.Action]) -> Wait? {
        for a in actions { if case .reportSnoozed(let until, _) = a { return until } }
        return nil
    }

    @Test("the engine snoozes a ringing alarm for the length asked: a span on the boot clock, --until on the wall clock, long for --snooze-long")
    func engineLengths() {
        let who = Requester.control("wake snooze (pid 7)")
        let until = Instant(seconds: T.deadlineSeconds + 40 * 60)
        let cases: [(SnoozeLength, Wait)] = [
            (.standard, Wait(instant: T.at(T.deadlineSeconds + 5).boottime + .seconds(9 * 60), clock: .elapsed)),
            (.long, Wait(instant: T.at(T.deadlineSeconds + 5).boottime + .seconds(18 * 60), clock: .elapsed)),
            (.span(.seconds(20 * 60)), Wait(instant: T.at(T.deadlineSeconds + 5).boottime + .seconds(20 * 60), clock: .elapsed)),
            (.until(until), Wait(instant: until, clock: .wall)),
        ]
        for (length, wait) in cases {
            var (e, now) = T.ringing()
            let actions = e.handle(.snooze(length, by: who, now + .seconds(5)))
            #expect(actions == [.stopRinging, .disarmRingLimit, .reportSnoozed(until: wait, by: who), .armTimer(wait)], "\(length)")
            #expect(e.state == .snoozed(wait) && e.snoozes.used == 1)
            // Not before its end, then it rings again.
            let end = wait.clock == .wall ? ClockReading(realtime: wait.instant, boottime: wait.instant - .seconds(1_000_000))
                                          : ClockReading(realtime: wait.instant + .seconds(1_000_000), boottime: wait.instant)
            #expect(e.handle(.timerFired(end + .milliseconds(-1))) == [.armTimer(wait)])
            _ = e.handle(.timerFired(end))
            #expect(e.state == .ringing(since: end.boottime), "\(length)")
        }
    }

    @Test("--snooze-long is twice --snooze unless given")
    func longDefault() {
        #expect(AlarmEngine.Settings(snooze: .seconds(5 * 60)).snoozeLong == .seconds(10 * 60))
        #expect(AlarmEngine.Settings(snooze: .seconds(5 * 60), snoozeLong: .seconds(7 * 60)).snoozeLong == .seconds(7 * 60))
        #expect(AlarmEngine.Settings().snoozeLong == Defaults.snooze * 2)
    }

    @Test("a chosen length counts against the limit, and one past it is refused whatever its length; waiting or snoozed, it is ignored")
    func limitAndStates() {
        let who = Requester.control("wake snooze (pid 7)")
        var (e, now) = T.ringing(SnoozeLimitTests.limited(1))
        _ = e.handle(.snooze(.span(.seconds(60)), by: who, now))
        #expect(e.handle(.snooze(.long, by: .notification, now + .seconds(1))) == [.reportIgnored(.snooze, by: .notification)])
        now = now + .seconds(60)
        _ = e.handle(.timerFired(now))
        let used = SnoozeCount(used: 1, limit: 1)
        for length in [SnoozeLength.standard, .long, .span(.seconds(60)), .until(now.realtime + .seconds(60))] {
            #expect(e.handle(.snooze(length, by: who, now)) == [.reportSnoozeRefused(used, by: who)])
            #expect(e.state == .ringing(since: now.boottime))
        }
        var waiting = T.armed()
        #expect(waiting.handle(.snooze(.span(.seconds(60)), by: who, T.at(T.deadlineSeconds - 60))) == [.reportIgnored(.snooze, by: who)])
    }

    // MARK: the words

    static let now = utc(2027, 6, 1, 7, 0)  // 07:00 in the tests' zone, UTC

    static func parse(_ words: [String], until: String? = nil, names: Set<String> = [], now: Instant = now,
                      zone: TimeZoneRules = .utc) -> Result<SnoozeRequest, SnoozeRequest.Problem> {
        do { return .success(try SnoozeRequest.parse(words: words, until: until, isAlarmName: { names.contains($0) }, now: now, zone: zone)) }
        catch { return .failure(error) }
    }

    static func problem(_ words: [String], until: String? = nil, now: Instant = now, zone: TimeZoneRules = .utc) -> String? {
        if case .failure(let p) = parse(words, until: until, now: now, zone: zone) { return p.description }
        return nil
    }

    @Test("one word is a length only when it reads as one and no alarm has that name; two words are ID and length")
    func idOrLength() throws {
        #expect(try Self.parse([]).get() == SnoozeRequest(id: nil, length: .standard))
        #expect(try Self.parse(["20m"]).get() == SnoozeRequest(id: nil, length: .span(.seconds(20 * 60))))
        #expect(try Self.parse(["1h30m"]).get() == SnoozeRequest(id: nil, length: .span(.seconds(90 * 60))))
        #expect(try Self.parse(["work"]).get() == SnoozeRequest(id: "work", length: .standard))
        #expect(try Self.parse(["4242"]).get() == SnoozeRequest(id: "4242", length: .standard), "a PID never reads as a length")
        #expect(try Self.parse(["20m"], names: ["20m"]).get() == SnoozeRequest(id: "20m", length: .standard), "an alarm named 20m")
        #expect(try Self.parse(["20m", "20m"], names: ["20m"]).get() == SnoozeRequest(id: "20m", length: .span(.seconds(20 * 60))))
        #expect(try Self.parse(["4242", "90s"]).get() == SnoozeRequest(id: "4242", length: .span(.seconds(90))))
        #expect(try Self.parse(["work"], until: "07:40").get() == SnoozeRequest(id: "work", length: .until(utc(2027, 6, 1, 7, 40))))
        #expect(SnoozeRequest.readsAsLength("20m") && SnoozeRequest.readsAsLength("0") && !SnoozeRequest.readsAsLength("work"))
    }

    @Test("""
        refused, one line each, naming the value: zero, negative, unreadable, past 12h, \
        both a length and --until, too many words, --until not a time of day
        """)
    func refusals() {
        let cases: [(String?, String)] = [
            (Self.problem(["0"]), "snooze length '0' is zero: it would not snooze; give a length as 20m, or a time as --until 07:40"),
            // A minus sign is a length's, never an alarm's name or a time in the past.
            (Self.problem(["-5m"]), "snooze length '-5m' is negative: a snooze lasts a positive length; "
                                    + "give one as 20m, or a time as --until 07:40"),
            (Self.problem(["work", "-5m"]), "snooze length '-5m' is negative"),
            (Self.problem(["-1"]), "snooze length '-1' is negative"),
            (Self.problem(["work", "2O"]), "snooze length: invalid duration '2O'"),
            (Self.problem(["13h"]), "snooze length '13h' is longer than 12h, the longest snooze; give a shorter one, or stop the alarm with 'wake stop'"),
            (Self.problem(["20m"], until: "07:40"), "give a snooze length or --until, not both ('20m' and --until '07:40')"),
            (Self.problem(["a", "b", "c"]), "snooze takes an ID and a length at most, not 'a b c'"),
            (Self.problem([], until: "+20m"), "--until: '+20m' is not a time of day; give one, as 07:40 or 7:40am"),
            (Self.problem([], until: "banana"), "--until: invalid time 'banana'"),
            (Self.problem([], until: "2027-06-01T07:40"), "--until: '2027-06-01T07:40' is not a time of day"),
            // 06:59 was a minute ago: the next one is tomorrow, almost a day away.
            (Self.problem([], until: "06:59"), "--until 06:59 is 23h 59m 0s away, more than 12h, the longest snooze; give a time within 12h, or stop the alarm with 'wake stop'"),
            (Self.problem([], until: "\u{1B}[2J"), "--until: invalid time '\\x1b[2J'"),
        ]
        for (got, expected) in cases {
            #expect(got?.hasPrefix(expected) == true, "\(got ?? "accepted") / \(expected)")
            #expect(got.map { !$0.contains("\n") && !$0.contains("\u{1B}") } ?? false)
        }
        #expect(Self.problem(["12h"]) == nil, "12 hours is the longest, and allowed")
        #expect(Self.problem([], until: "18:59") == nil && Self.problem([], until: "7:00 pm") == nil && Self.problem([], until: "7:40am") == nil)
    }

    // MARK: across a daylight-saving change (Berlin: 2027-03-28 02:00 CET -> 03:00 CEST; 2027-10-31 03:00 CEST -> 02:00 CET)

    /// Rings at `now` and snoozes as `wake snooze WORDS [--until]` asks; returns the engine's wait.
    static func ringAndSnooze(at now: Instant, _ words: [String], until: String? = nil, zone: TimeZoneRules) throws -> (AlarmEngine, ClockReading, Wait) {
        let reading = ClockReading(realtime: now, boottime: now - .seconds(1_000_000))
        var e = AlarmEngine(deadline: Wait(instant: now, clock: .wall), settings: T.settings)
        _ = e.handle(.timerFired(reading))
        let request = try parse(words, until: until, now: now, zone: zone).get()
        let wait = try #require(snoozed(e.handle(.snooze(request.length, by: .control("wake snooze"), reading))))
        return (e, reading, wait)
    }

    /// Lets the wait run out (clocks advancing together) and says the wall-clock reading then.
    static func ringsAgain(_ e: inout AlarmEngine, from start: ClockReading, after d: Duration, zone: TimeZoneRules) -> String? {
        _ = e.handle(.timerFired(start + (d - .seconds(1))))
        guard case .snoozed = e.state else { return nil }
        _ = e.handle(.timerFired(start + d))
        guard case .ringing = e.state else { return nil }
        return Formatting.clockTime(start.realtime + d, zone: zone, alwaysSeconds: true)
    }

    @Test("spring forward: snooze 20m at 01:50 rings at 03:10 (20 minutes on); --until 03:10 too; --until 02:30, in the gap, at 03:00")
    func springForward() throws {
        let berlin = try zone("Europe/Berlin")
        let at = utc(2027, 3, 28, 0, 50)  // 01:50 CET
        #expect(Formatting.clockTime(at, zone: berlin) == "01:50")

        var (e, start, wait) = try Self.ringAndSnooze(at: at, ["20m"], zone: berlin)
        #expect(wait.clock == .elapsed)
        #expect(Self.ringsAgain(&e, from: start, after: .seconds(20 * 60), zone: berlin) == "03:10:00")

        (e, start, wait) = try Self.ringAndSnooze(at: at, [], until: "03:10", zone: berlin)
        #expect(wait == Wait(instant: utc(2027, 3, 28, 1, 10), clock: .wall))
        #expect(Self.ringsAgain(&e, from: start, after: .seconds(20 * 60), zone: berlin) == "03:10:00")

        (e, start, wait) = try Self.ringAndSnooze(at: at, [], until: "02:30", zone: berlin)
        #expect(Self.ringsAgain(&e, from: start, after: .seconds(10 * 60), zone: berlin) == "03:00:00", "the first instant after the gap")
    }

    @Test("fall back: at 02:50 (the first pass), --until 02:20 is the second pass 30 minutes on, --until 02:55 five; snooze 20m rings at 02:10 CET")
    func fallBack() throws {
        let berlin = try zone("Europe/Berlin")
        let at = utc(2027, 10, 31, 0, 50)  // 02:50 CEST
        #expect(Formatting.clockTime(at, zone: berlin) == "02:50")

        var (e, start, wait) = try Self.ringAndSnooze(at: at, [], until: "02:20", zone: berlin)
        #expect(wait == Wait(instant: utc(2027, 10, 31, 1, 20), clock: .wall), "the second pass, not tomorrow")
        #expect(Self.ringsAgain(&e, from: start, after: .seconds(30 * 60), zone: berlin) == "02:20:00")

        (e, start, wait) = try Self.ringAndSnooze(at: at, [], until: "02:55", zone: berlin)
        #expect(wait == Wait(instant: utc(2027, 10, 31, 0, 55), clock: .wall))

        (e, start, wait) = try Self.ringAndSnooze(at: at, ["20m"], zone: berlin)
        #expect(Self.ringsAgain(&e, from: start, after: .seconds(20 * 60), zone: berlin) == "02:10:00")
    }

    @Test("a wall-clock snooze follows a clock step: stepped past its time, it rings at once; stepped back, it waits on")
    func wallSnoozeFollowsSteps() throws {
        var (e, start, wait) = try Self.ringAndSnooze(at: Self.now, [], until: "07:40", zone: .utc)
        #expect(wait.clock == .wall)
        // The wall clock stepped back an hour, 10 minutes in: still snoozed, the same instant.
        let back = ClockReading(realtime: start.realtime + .seconds(600) - .seconds(3600), boottime: start.boottime + .seconds(600))
        #expect(e.handle(.clockChanged(back)) == [.reportClockChange(back), .armTimer(wait)])
        // Stepped forward past it: rings at once.
        let ahead = ClockReading(realtime: utc(2027, 6, 1, 7, 41), boottime: start.boottime + .seconds(660))
        _ = e.handle(.clockChanged(ahead))
        #expect(e.state == .ringing(since: ahead.boottime))
    }
}
