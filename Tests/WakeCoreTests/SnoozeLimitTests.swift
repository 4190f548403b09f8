import Testing
import WakeCore

/// `--snooze-limit` in the engine: the snoozes of one occurrence are counted, one past the limit
/// is refused and said while the alarm rings on, and `--ring-for` still ends the ring.
@Suite("AlarmEngine: the snooze limit never silences")
struct SnoozeLimitTests {
    typealias T = AlarmEngineTests

    static func limited(_ limit: Int?) -> AlarmEngine.Settings {
        AlarmEngine.Settings(lateLimit: .seconds(30 * 60), snooze: .seconds(9 * 60), ringFor: .seconds(10 * 60), snoozeLimit: limit)
    }

    /// Snoozes at `now` and lets the snooze run out: the engine rings again; returns when.
    static func snoozeAndRingAgain(_ e: inout AlarmEngine, at now: ClockReading) -> ClockReading {
        let snoozed = e.handle(.key("z", now))
        #expect(snoozed.contains { if case .reportSnoozed = $0 { return true } else { return false } }, "\(snoozed)")
        let again = now + .seconds(9 * 60)
        _ = e.handle(.timerFired(again))
        #expect(e.state == .ringing(since: again.boottime))
        return again
    }

    @Test("each snooze of the occurrence is counted; one past the limit is refused, by whoever asks, and it rings on")
    func countsAndRefuses() {
        var (e, now) = T.ringing(Self.limited(2))
        #expect(e.snoozes == SnoozeCount(used: 0, limit: 2) && !e.snoozes.isUsedUp)
        now = Self.snoozeAndRingAgain(&e, at: now + .seconds(5))
        #expect(e.snoozes == SnoozeCount(used: 1, limit: 2))
        now = Self.snoozeAndRingAgain(&e, at: now + .seconds(5))
        #expect(e.snoozes == SnoozeCount(used: 2, limit: 2) && e.snoozes.isUsedUp)

        let ringing = e.state
        let used = SnoozeCount(used: 2, limit: 2)
        for who in [Requester.key("s"), .key("z"), .key("space"), .signal(name: "SIGUSR1", number: 10),
                    .control("wake snooze (pid 7)"), .notification] {
            // No stopRinging, no disarmRingLimit: the sound goes on and --ring-for still counts.
            #expect(e.handle(.command(.snooze, by: who, now + .seconds(1))) == [.reportSnoozeRefused(used, by: who)])
            #expect(e.state == ringing && e.snoozes == used)
        }
        for key: Character in ["s", "z", " "] {
            let (command, who) = KeyBinding.command(for: key.asciiValue ?? 0)
            #expect(command == .snooze && e.handle(.key(key, now)) == [.reportSnoozeRefused(used, by: who)])
        }
        // Any other key still stops it.
        #expect(e.handle(.key("x", now + .seconds(2))) == T.finishActions(.stopped(by: .key("x")), ringing: true))
    }

    @Test("a refused snooze leaves --ring-for to end the ring, as without a limit: timed out, exit 4")
    func ringForStillEnds() {
        var (e, now) = T.ringing(Self.limited(1))
        now = Self.snoozeAndRingAgain(&e, at: now + .seconds(5))
        #expect(e.handle(.signal(.snooze, now + .seconds(1))) == [.reportSnoozeRefused(SnoozeCount(used: 1, limit: 1), by: .signal(.snooze))])
        #expect(e.handle(.ringLimitReached(now + .seconds(600))) == T.finishActions(.timedOut, ringing: true))
        #expect(e.state == .finished(.timedOut))
    }

    @Test("no limit: snoozes are never refused")
    func noLimit() {
        var (e, now) = T.ringing(Self.limited(nil))
        for _ in 0..<50 { now = Self.snoozeAndRingAgain(&e, at: now + .seconds(1)) }
        #expect(e.snoozes == SnoozeCount(used: 50, limit: nil) && !e.snoozes.isUsedUp)
        #expect(AlarmEngine.Settings().snoozeLimit == nil, "no limit unless asked for")
    }

    @Test("a snooze while snoozed is ignored, not counted")
    func snoozeWhileSnoozedNotCounted() {
        var (e, now) = T.ringing(Self.limited(2))
        _ = e.handle(.key("z", now))
        #expect(e.handle(.key("s", now + .seconds(1))) == [T.ignoredKey("s")])
        #expect(e.snoozes.used == 1)
    }

    @Test("the next occurrence is a new engine: its count starts again")
    func newOccurrenceStartsAgain() {
        var (e, now) = T.ringing(Self.limited(1))
        _ = Self.snoozeAndRingAgain(&e, at: now + .seconds(5))
        #expect(e.snoozes.isUsedUp)
        let tomorrow = Wait(instant: T.wallDeadline.instant + .seconds(86_400), clock: .wall)
        var next = AlarmEngine(deadline: tomorrow, settings: e.settings)
        now = T.at(T.deadlineSeconds + 86_400)
        _ = next.handle(.timerFired(now))
        #expect(next.snoozes == SnoozeCount(used: 0, limit: 1))
        #expect(next.handle(.key("z", now)).contains { if case .reportSnoozed = $0 { return true } else { return false } })
    }

    @Test("the words the console, the status line and wake snooze use")
    func words() {
        #expect(SnoozeCount(used: 2, limit: 3).ofLimit == "2 of 3")
        #expect(SnoozeCount(used: 2, limit: 3).snoozed == "snoozed 2 of 3")
        #expect(SnoozeCount(used: 2).snoozed == "snoozed" && SnoozeCount(used: 2).ofLimit == nil)
        #expect(SnoozeCount(used: 3, limit: 3).refusal == "snooze limit reached (3 of 3)")
    }

    // MARK: control

    typealias A = ControlRouting.Alarm

    @Test("wake snooze: a ringing alarm with its snoozes used up refuses, by ID or without one")
    func routing() {
        let usedUp = A(id: "x", phase: .ringing, standing: true, snoozes: SnoozeCount(used: 3, limit: 3))
        let left = A(id: "y", phase: .ringing, standing: true, snoozes: SnoozeCount(used: 2, limit: 3))
        let routed = ControlRouting.route(.snooze, id: "x", alarms: [usedUp, left])
        #expect(routed.count == 1 && routed.first?.verdict == .refuse(.snoozeLimit))
        // Without an ID it is said too: "nothing is ringing" would be untrue.
        let all = ControlRouting.route(.snooze, id: nil, alarms: [usedUp, left])
        #expect(all.map(\.id) == ["x", "y"] && all.map(\.verdict) == [.refuse(.snoozeLimit), .apply])
        // A stop is not limited.
        #expect(ControlRouting.route(.stop, id: "x", alarms: [usedUp]).first?.verdict == .apply)
        #expect(ControlRouting.Refusal.snoozeLimit.rawValue == "snooze-limit")
    }
}

@Suite("Desktop notification: the snooze limit")
struct SnoozeLimitNoticeTests {
    @Test("the count in the ringing and snoozed notices; used up, no Snooze button (on the bell's too)")
    func notices() {
        let one = DesktopNotice.make(.snoozed(until: "07:09"), alarm: "07:00", snooze: .seconds(540), snoozes: SnoozeCount(used: 1, limit: 3))
        #expect(one.summary == "Alarm 07:00: snoozed 1 of 3 until 07:09")
        let ringing = DesktopNotice.make(.ringing(since: "07:09:00"), alarm: "07:00", snooze: .seconds(540), snoozes: SnoozeCount(used: 1, limit: 3))
        #expect(ringing.body == "Ringing since 07:09:00. Snoozed 1 of 3." && ringing.buttons.map(\.key) == ["snooze", "stop"])
        let usedUp = SnoozeCount(used: 3, limit: 3)
        let last = DesktopNotice.make(.ringing(since: "07:27:00"), alarm: "07:00", snooze: .seconds(540), snoozes: usedUp)
        #expect(last.body == "Ringing since 07:27:00. Snoozed 3 of 3: no snoozes left." && last.buttons.map(\.key) == ["stop"])
        #expect(DesktopNotice.make(.bell(reason: "x"), alarm: "07:00", snooze: .seconds(540), snoozes: usedUp).buttons.map(\.key) == ["stop"])
        // Without a limit, as before.
        #expect(DesktopNotice.make(.ringing(since: "07:00:00"), alarm: "07:00", snooze: .seconds(540), snoozes: SnoozeCount(used: 4)).body
                == "Ringing since 07:00:00.")
    }
}
