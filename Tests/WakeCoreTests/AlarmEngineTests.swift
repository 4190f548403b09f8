import Testing
import WakeCore

/// The alarm state machine, driven with plain events: no clock, no sound, no terminal.
@Suite("AlarmEngine")
struct AlarmEngineTests {
    /// The two clocks in seconds: boottime runs 1,000,000 s behind realtime unless a test says otherwise.
    static func at(_ realtime: Int64, boot: Int64? = nil, ns: Int64 = 0) -> ClockReading {
        ClockReading(realtime: Instant(seconds: realtime, nanoseconds: ns),
                     boottime: Instant(seconds: boot ?? realtime - 1_000_000, nanoseconds: ns))
    }

    static let deadlineSeconds: Int64 = 1_800_000_000
    static let wallDeadline = Wait(instant: Instant(seconds: deadlineSeconds), clock: .wall)
    static let settings = AlarmEngine.Settings(lateLimit: .seconds(30 * 60), snooze: .seconds(9 * 60), ringFor: .seconds(10 * 60))

    static func armed(_ settings: AlarmEngine.Settings = settings, deadline: Wait = wallDeadline) -> AlarmEngine {
        AlarmEngine(deadline: deadline, settings: settings)
    }

    /// An engine that has started ringing at the deadline, on time.
    static func ringing(_ settings: AlarmEngine.Settings = settings) -> (AlarmEngine, ClockReading) {
        var e = armed(settings)
        let now = at(deadlineSeconds)
        _ = e.handle(.timerFired(now))
        return (e, now)
    }

    static func ringLimit(from now: ClockReading, _ settings: AlarmEngine.Settings = settings) -> AlarmEngine.Action {
        .armRingLimit(Wait(instant: now.boottime + settings.ringFor, clock: .elapsed))
    }

    static func finishActions(_ outcome: Outcome, ringing: Bool) -> [AlarmEngine.Action] {
        (ringing ? [.stopRinging] : []) + [.disarmTimer, .disarmRingLimit, .finish(outcome)]
    }

    // MARK: - Armed

    @Test("a new engine is armed and not finished")
    func initial() {
        let e = Self.armed()
        #expect(e.state == .armed(Self.wallDeadline))
        #expect(e.deadline == Self.wallDeadline)
        #expect(!e.isFinished)
        #expect(AlarmEngine.Settings() == AlarmEngine.Settings(lateLimit: .seconds(1800), snooze: .seconds(540), ringFor: .seconds(600)))
    }

    @Test("a timer that fires early re-arms the same wait")
    func earlyTimer() {
        var e = Self.armed()
        for early in [Int64(3600), 1, 0] {
            let now = Self.at(Self.deadlineSeconds - early, ns: early == 0 ? -1 : 0)
            #expect(e.handle(.timerFired(now)) == [.armTimer(Self.wallDeadline)])
            #expect(e.state == .armed(Self.wallDeadline))
        }
    }

    @Test("at the deadline it rings and arms the ring limit")
    func ringsOnTime() {
        var e = Self.armed()
        let now = Self.at(Self.deadlineSeconds)
        #expect(e.handle(.timerFired(now)) == [.disarmTimer, .startRinging(late: .zero), Self.ringLimit(from: now)])
        #expect(e.state == .ringing(since: now.boottime))
        #expect(e.deadline == Self.wallDeadline)
        #expect(!e.isFinished)
    }

    @Test("after the deadline but within the late limit it rings, saying how late", arguments: [
        Duration.nanoseconds(1), .seconds(1), .seconds(5 * 60), .seconds(30 * 60) - .nanoseconds(1), .seconds(30 * 60),
    ])
    func ringsLate(late: Duration) {
        var e = Self.armed()
        let now = ClockReading(realtime: Self.wallDeadline.instant + late, boottime: Instant(seconds: 42) + late)
        #expect(e.handle(.timerFired(now)) == [.disarmTimer, .startRinging(late: late), Self.ringLimit(from: now)])
        #expect(e.state == .ringing(since: now.boottime))
    }

    @Test("past the late limit it is missed, exit 3", arguments: [
        Duration.seconds(30 * 60) + .nanoseconds(1), .seconds(31 * 60), .seconds(86_400),
    ])
    func missed(late: Duration) {
        var e = Self.armed()
        let now = ClockReading(realtime: Self.wallDeadline.instant + late, boottime: Instant(seconds: 42))
        let actions = e.handle(.timerFired(now))
        #expect(actions == Self.finishActions(.missed(late: late), ringing: false))
        #expect(e.state == .finished(.missed(late: late)))
        #expect(e.isFinished)
        #expect(!actions.contains(.startRinging(late: late)))
    }

    @Test("a wall deadline is judged by realtime, an elapsed one by boottime")
    func clocks() {
        // Wall: boottime far past, realtime before: not yet.
        var wall = Self.armed()
        #expect(wall.handle(.timerFired(Self.at(Self.deadlineSeconds - 10, boot: Self.deadlineSeconds + 10_000)))
                == [.armTimer(Self.wallDeadline)])
        // Elapsed: realtime far past (clock stepped forward), boottime before: not yet.
        let span = Wait(instant: Instant(seconds: 5000), clock: .elapsed)
        var elapsed = Self.armed(deadline: span)
        #expect(elapsed.handle(.timerFired(Self.at(999_999_999, boot: 4999))) == [.armTimer(span)])
        let now = Self.at(1, boot: 5002)
        #expect(elapsed.handle(.timerFired(now)) == [.disarmTimer, .startRinging(late: .seconds(2)), Self.ringLimit(from: now)])
    }

    @Test("q while armed cancels")
    func quitKey() {
        for k: Character in ["q", "Q"] {
            var e = Self.armed()
            let actions = e.handle(.key(k, Self.at(Self.deadlineSeconds - 60)))
            #expect(actions == Self.finishActions(.cancelled(.key(String(k))), ringing: false))
            #expect(e.state == .finished(.cancelled(.key(String(k)))))
        }
    }

    @Test("other keys while armed are reported and ignored")
    func otherKeysWhileArmed() {
        var e = Self.armed()
        for k: Character in ["x", "s", " ", "\n", "\u{1B}"] {
            #expect(e.handle(.key(k, Self.at(Self.deadlineSeconds - 60))) == [Self.ignoredKey(k)])
            #expect(e.state == .armed(Self.wallDeadline))
        }
    }

    @Test("signals while armed cancel", arguments: [
        (ControlSignal.interrupt, Int32(130)), (.terminate, 143), (.hangup, 129),
    ])
    func signalsWhileArmed(signal: ControlSignal, code: Int32) {
        var e = Self.armed()
        let actions = e.handle(.signal(signal, Self.at(Self.deadlineSeconds - 60)))
        #expect(actions == Self.finishActions(.cancelled(.signal(signal)), ringing: false))
        #expect(e.state == .finished(.cancelled(.signal(signal))))
    }

    @Test("SIGUSR1 while armed is ignored")
    func snoozeSignalWhileArmed() {
        var e = Self.armed()
        #expect(e.handle(.signal(.snooze, Self.at(Self.deadlineSeconds - 60))) == [.reportIgnored(.snooze, by: .signal(.snooze))])
        #expect(e.state == .armed(Self.wallDeadline))
        // And it still rings on time afterwards.
        let now = Self.at(Self.deadlineSeconds)
        #expect(e.handle(.timerFired(now)) == [.disarmTimer, .startRinging(late: .zero), Self.ringLimit(from: now)])
    }

    @Test("a ring limit event while armed or snoozed does nothing")
    func strayRingLimit() {
        var e = Self.armed()
        #expect(e.handle(.ringLimitReached(Self.at(Self.deadlineSeconds - 60))).isEmpty)
        #expect(e.state == .armed(Self.wallDeadline))
        var (r, now) = Self.ringing()
        _ = r.handle(.key("s", now))
        let state = r.state
        #expect(r.handle(.ringLimitReached(Self.at(Self.deadlineSeconds + 600))).isEmpty)
        #expect(r.state == state)
    }

    @Test("clock changes while armed are reported and the deadline re-checked")
    func clockChangedWhileArmed() {
        // Stepped, still before the deadline: wait on.
        var e = Self.armed()
        var now = Self.at(Self.deadlineSeconds - 3600)
        #expect(e.handle(.clockChanged(now)) == [.reportClockChange(now), .armTimer(Self.wallDeadline)])
        #expect(e.state == .armed(Self.wallDeadline))
        // Stepped back: still waiting.
        now = Self.at(Self.deadlineSeconds - 86_400)
        #expect(e.handle(.clockChanged(now)) == [.reportClockChange(now), .armTimer(Self.wallDeadline)])
        // Stepped (or resumed) past the deadline, within the late limit: ring.
        now = Self.at(Self.deadlineSeconds + 120)
        #expect(e.handle(.clockChanged(now))
                == [.reportClockChange(now), .disarmTimer, .startRinging(late: .seconds(120)), Self.ringLimit(from: now)])
        #expect(e.state == .ringing(since: now.boottime))
        // Resumed far past the late limit: missed.
        var m = Self.armed()
        now = Self.at(Self.deadlineSeconds + 7200)
        #expect(m.handle(.clockChanged(now)) == [.reportClockChange(now)] + Self.finishActions(.missed(late: .seconds(7200)), ringing: false))
        #expect(m.handle(.timerFired(now)).isEmpty)
    }

    // MARK: - Ringing

    @Test("snooze keys and SIGUSR1 while ringing snooze, then it rings again", arguments: [
        AlarmEngine.Event.key("s", AlarmEngineTests.at(deadlineSeconds + 30)),
        .key("S", AlarmEngineTests.at(deadlineSeconds + 30)),
        .key("z", AlarmEngineTests.at(deadlineSeconds + 30)),
        .key("Z", AlarmEngineTests.at(deadlineSeconds + 30)),
        .key(" ", AlarmEngineTests.at(deadlineSeconds + 30)),
        .signal(.snooze, AlarmEngineTests.at(deadlineSeconds + 30)),
    ])
    func snooze(event: AlarmEngine.Event) {
        var (e, _) = Self.ringing()
        let pressed = Self.at(Self.deadlineSeconds + 30)
        let until = Wait(instant: pressed.boottime + .seconds(9 * 60), clock: .elapsed)
        let actions = e.handle(event)
        #expect(actions.count == 4 && actions.first == .stopRinging && actions[1] == .disarmRingLimit && actions.last == .armTimer(until),
                "\(actions)")
        guard actions.count == 4, case .reportSnoozed(until, let who) = actions[2] else { Issue.record("\(actions)"); return }
        if case .command(_, let asker, _) = event { #expect(who == asker, "the snooze names who asked") } else { Issue.record("\(event)") }
        #expect(e.state == .snoozed(until))
        #expect(!e.isFinished)

        // Woken early: wait on.
        #expect(e.handle(.timerFired(Self.at(Self.deadlineSeconds + 500))) == [.armTimer(until)])
        // The snooze ends: ring again, with a fresh ring limit.
        let again = Self.at(Self.deadlineSeconds + 30 + 9 * 60)
        #expect(e.handle(.timerFired(again)) == [.disarmTimer, .startRinging(late: .zero), Self.ringLimit(from: again)])
        #expect(e.state == .ringing(since: again.boottime))
        #expect(e.deadline == until)
    }

    @Test("a snooze is never missed, however late its timer fires")
    func snoozeNeverMissed() {
        var (e, _) = Self.ringing()
        let pressed = Self.at(Self.deadlineSeconds + 30)
        _ = e.handle(.key("z", pressed))
        // The machine slept through the snooze for three hours (boottime counts suspend).
        let resumed = Self.at(Self.deadlineSeconds + 30 + 3 * 3600)
        let late = resumed.boottime - (pressed.boottime + .seconds(540))
        #expect(late > Self.settings.lateLimit)
        #expect(e.handle(.clockChanged(resumed))
                == [.reportClockChange(resumed), .disarmTimer, .startRinging(late: late), Self.ringLimit(from: resumed)])
        #expect(e.state == .ringing(since: resumed.boottime))
        // Same through the timer path.
        var (f, _) = Self.ringing()
        _ = f.handle(.signal(.snooze, pressed))
        #expect(f.handle(.timerFired(resumed)) == [.disarmTimer, .startRinging(late: late), Self.ringLimit(from: resumed)])
    }

    @Test("a snooze measures from the key press on boottime, even on a wall deadline")
    func snoozeUsesBoottime() {
        var (e, _) = Self.ringing()
        let pressed = Self.at(Self.deadlineSeconds + 30, boot: 777)
        _ = e.handle(.key("s", pressed))
        #expect(e.state == .snoozed(Wait(instant: Instant(seconds: 777 + 540), clock: .elapsed)))
        // A wall-clock step during the snooze does not end it.
        let stepped = Self.at(Self.deadlineSeconds + 86_400, boot: 800)
        #expect(e.handle(.clockChanged(stepped))
                == [.reportClockChange(stepped), .armTimer(Wait(instant: Instant(seconds: 1317), clock: .elapsed))])
    }

    @Test("any other key while ringing stops it, exit 0", arguments: [
        (Character("x"), "x"), ("q", "q"), ("Q", "Q"), ("\n", "enter"), ("\r", "enter"), ("\u{1B}", "escape"),
        ("\u{03}", "ctrl-C"), ("\u{7F}", "ctrl-?"), ("1", "1"), ("é", "é"),
    ])
    func otherKeyStops(key: Character, name: String) {
        var (e, now) = Self.ringing()
        let actions = e.handle(.key(key, now + .seconds(3)))
        #expect(actions == Self.finishActions(.stopped(.key(name)), ringing: true))
        #expect(e.state == .finished(.stopped(.key(name))))
    }

    @Test("termination signals while ringing stop it", arguments: [ControlSignal.terminate, .interrupt, .hangup])
    func signalStops(signal: ControlSignal) {
        var (e, now) = Self.ringing()
        let actions = e.handle(.signal(signal, now + .seconds(3)))
        #expect(actions == Self.finishActions(.stopped(.signal(signal)), ringing: true))
        #expect(e.state == .finished(.stopped(.signal(signal))))
    }

    @Test("the ring limit times out, exit 4")
    func ringLimit() {
        var (e, now) = Self.ringing()
        let actions = e.handle(.ringLimitReached(now + .seconds(600)))
        #expect(actions == Self.finishActions(.timedOut, ringing: true))
        #expect(e.state == .finished(.timedOut))
    }

    @Test("ringFor zero rings until stopped: no ring limit")
    func ringForZero() {
        let settings = AlarmEngine.Settings(lateLimit: .seconds(60), snooze: .seconds(60), ringFor: .zero)
        var e = Self.armed(settings)
        let now = Self.at(Self.deadlineSeconds + 5)
        #expect(e.handle(.timerFired(now)) == [.disarmTimer, .startRinging(late: .seconds(5))])
        _ = e.handle(.key("s", now))
        let again = Self.at(Self.deadlineSeconds + 65)
        let actions = e.handle(.timerFired(again))
        #expect(actions == [.disarmTimer, .startRinging(late: .zero)])
        #expect(!actions.contains { if case .armRingLimit = $0 { return true } else { return false } })
    }

    @Test("while ringing, clock changes are reported and timer events ignored")
    func ringingIgnoresTimer() {
        var (e, now) = Self.ringing()
        let later = now + .seconds(5)
        #expect(e.handle(.clockChanged(later)) == [.reportClockChange(later)])
        #expect(e.handle(.timerFired(later)).isEmpty)
        #expect(e.state == .ringing(since: now.boottime))
    }

    // MARK: - Snoozed

    @Test("while snoozed: snooze keys are ignored, other keys and signals stop it")
    func whileSnoozed() {
        var (e, now) = Self.ringing()
        _ = e.handle(.key("s", now))
        let snoozed = e.state
        #expect(e.handle(.key("z", now)) == [Self.ignoredKey("z")])
        #expect(e.handle(.key(" ", now)) == [Self.ignoredKey(" ")])
        #expect(e.handle(.signal(.snooze, now)) == [.reportIgnored(.snooze, by: .signal(.snooze))])
        #expect(e.state == snoozed)
        // Stopping while snoozed: nothing is sounding, so no stopRinging.
        #expect(e.handle(.key("x", now)) == Self.finishActions(.stopped(.key("x")), ringing: false))
        #expect(e.state == .finished(.stopped(.key("x"))))

        var (f, fNow) = Self.ringing()
        _ = f.handle(.signal(.snooze, fNow))
        #expect(f.handle(.signal(.terminate, fNow)) == Self.finishActions(.stopped(.signal(.terminate)), ringing: false))
        fNow = fNow + .seconds(1)
        #expect(f.handle(.timerFired(fNow)).isEmpty)
    }

    // MARK: - Failure and the end

    @Test("sound failure finishes with exit 1, in any state")
    func soundFailed() {
        var (r, _) = Self.ringing()
        #expect(r.handle(.soundFailed("no device")) == Self.finishActions(.failed("no device"), ringing: true))
        #expect(r.state == .finished(.failed("no device")))

        var a = Self.armed()
        #expect(a.handle(.soundFailed("no file")) == Self.finishActions(.failed("no file"), ringing: false))

        var (s, now) = Self.ringing()
        _ = s.handle(.key("s", now))
        #expect(s.handle(.soundFailed("gone")) == Self.finishActions(.failed("gone"), ringing: false))
    }

    static let everyEvent: [AlarmEngine.Event] = [
        .timerFired(at(deadlineSeconds)), .timerFired(at(deadlineSeconds + 100_000)), .clockChanged(at(deadlineSeconds)),
        .key("q", at(deadlineSeconds)), .key("s", at(deadlineSeconds)), .key("x", at(deadlineSeconds)),
        .signal(.interrupt, at(deadlineSeconds)), .signal(.terminate, at(deadlineSeconds)),
        .signal(.hangup, at(deadlineSeconds)), .signal(.snooze, at(deadlineSeconds)),
        .ringLimitReached(at(deadlineSeconds)), .soundFailed("late failure"),
    ]

    @Test("after finishing, no event yields any action")
    func afterFinish() {
        var engines: [AlarmEngine] = []
        var a = Self.armed()
        _ = a.handle(.key("q", Self.at(0)))
        engines.append(a)
        var (r, now) = Self.ringing()
        _ = r.handle(.key("x", now))
        engines.append(r)
        var (t, tNow) = Self.ringing()
        _ = t.handle(.ringLimitReached(tNow))
        engines.append(t)
        var m = Self.armed()
        _ = m.handle(.timerFired(Self.at(Self.deadlineSeconds + 100_000)))
        engines.append(m)
        var f = Self.armed()
        _ = f.handle(.soundFailed("x"))
        engines.append(f)

        for var e in engines {
            #expect(e.isFinished)
            let state = e.state
            for event in Self.everyEvent {
                #expect(e.handle(event).isEmpty, "\(state) then \(event)")
                #expect(e.state == state)
            }
        }
    }

    @Test("a whole morning: ring, snooze twice, stop")
    func wholeMorning() {
        var e = Self.armed()
        var log: [AlarmEngine.Action] = []
        var now = Self.at(Self.deadlineSeconds - 10)
        log += e.handle(.timerFired(now))
        now = Self.at(Self.deadlineSeconds)
        log += e.handle(.timerFired(now))
        for _ in 0..<2 {
            now = now + .seconds(20)
            log += e.handle(.key("s", now))
            now = now + .seconds(540)
            log += e.handle(.timerFired(now))
        }
        now = now + .seconds(5)
        log += e.handle(.key("\n", now))
        #expect(e.state == .finished(.stopped(.key("enter"))))
        #expect(log.filter { if case .startRinging = $0 { return true } else { return false } }.count == 3)
        #expect(log.filter { if case .reportSnoozed = $0 { return true } else { return false } }.count == 2)
        #expect(log.last == .finish(.stopped(.key("enter"))))
        guard case .finished = e.state else { Issue.record("not finished"); return }
    }

    // MARK: - Exit codes and waits

    @Test("waits: remaining time and what the wall clock will read")
    func waits() {
        let now = Self.at(1000, boot: 50)
        let wall = Wait(instant: Instant(seconds: 1600), clock: .wall)
        #expect(wall.remaining(from: now) == .seconds(600))
        #expect(wall.wallInstant(from: now) == Instant(seconds: 1600))
        let elapsed = Wait(instant: Instant(seconds: 650), clock: .elapsed)
        #expect(elapsed.remaining(from: now) == .seconds(600))
        #expect(elapsed.wallInstant(from: now) == Instant(seconds: 1600))
        #expect(now.reading(.wall) == Instant(seconds: 1000))
        #expect(now.reading(.elapsed) == Instant(seconds: 50))
        #expect(DeadlineClock.wall.rawValue == "realtime")
        #expect(DeadlineClock.elapsed.rawValue == "boottime")
    }
}

extension ClockReading {
    static func + (r: ClockReading, d: Duration) -> ClockReading {
        ClockReading(realtime: r.realtime + d, boottime: r.boottime + d)
    }
}

/// The edge's mapping, so these tests read as before: a key or a signal becomes a command.
enum ControlSignal: CaseIterable {
    case interrupt, terminate, hangup, snooze

    var requester: Requester {
        switch self {
        case .interrupt: return .signal(name: "SIGINT", number: 2)
        case .terminate: return .signal(name: "SIGTERM", number: 15)
        case .hangup: return .signal(name: "SIGHUP", number: 1)
        case .snooze: return .signal(name: "SIGUSR1", number: 10)
        }
    }
}

extension AlarmEngine.Event {
    static func key(_ k: Character, _ now: ClockReading) -> Self {
        guard let byte = k.asciiValue else { return .command(.stop, by: .key(String(k)), now) }
        let (command, who) = KeyBinding.command(for: byte)
        return .command(command, by: who, now)
    }

    static func signal(_ s: ControlSignal, _ now: ClockReading) -> Self {
        .command(s == .snooze ? .snooze : .cancel, by: s.requester, now)
    }
}

extension Requester {
    static func signal(_ s: ControlSignal) -> Requester { s.requester }
}

extension Outcome {
    static func stopped(_ who: Requester) -> Outcome { .stopped(by: who) }
    static func cancelled(_ who: Requester) -> Outcome { .cancelled(by: who) }
}

extension AlarmEngineTests {
    static func ignoredKey(_ k: Character) -> AlarmEngine.Action {
        let (command, who) = KeyBinding.command(for: k.asciiValue ?? 0)
        return .reportIgnored(command, by: who)
    }
}
