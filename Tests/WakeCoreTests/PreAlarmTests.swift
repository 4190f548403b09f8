import Testing
import WakeCore

/// `--pre-alarm`: its text, and the engine's pre-ring state. The pre-ring is the alarm's own
/// engine state, so the alarm itself rings at its deadline whatever was done to the pre-ring.
@Suite("Pre-alarm")
struct PreAlarmTests {
    typealias T = AlarmEngineTests
    static let lead = Duration.seconds(600)
    static let settings = AlarmEngine.Settings(lateLimit: .seconds(30 * 60), snooze: .seconds(9 * 60), ringFor: .seconds(10 * 60),
                                               preAlarm: PreAlarm(lead: lead, percent: 25))
    static let preStart = Wait(instant: Instant(seconds: T.deadlineSeconds - 600), clock: .wall)

    /// An engine pre-ringing since its pre-alarm's moment.
    static func preRinging() -> AlarmEngine {
        var e = AlarmEngine(deadline: T.wallDeadline, settings: settings)
        _ = e.handle(.timerFired(T.at(T.deadlineSeconds - 3600)))
        _ = e.handle(.timerFired(T.at(T.deadlineSeconds - 600)))
        return e
    }

    // MARK: the text

    @Test("the text: a duration, an optional percent (20 by default), 0 for none; refusals name what to give")
    func parsing() {
        func parsed(_ t: String) -> PreAlarm?? { if case .success(let p) = PreAlarm.parse(t) { return .some(p) } else { return nil } }
        #expect(parsed("10m") == .some(PreAlarm(lead: .seconds(600), percent: 20)))
        #expect(parsed("4s,25") == .some(PreAlarm(lead: .seconds(4), percent: 25)))
        #expect(parsed("1h,5%") == .some(PreAlarm(lead: .seconds(3600), percent: 5)))
        #expect(parsed("2h,100") == .some(PreAlarm(lead: .seconds(7200), percent: 100)))
        #expect(parsed("0") == .some(nil))
        #expect(parsed("0,30") == .some(nil))
        for bad in ["", "10", "x", "10m,", "10m,0", "10m,101", "10m,-5", "10m,2.5", "500ms", "2h1s", "10m,25,3", "10m,1000000000000000000000"] {
            #expect(parsed(bad) == nil, "\(bad)")
        }
        guard case .failure(let e) = AlarmOption.preAlarm.parse("10m,0") else { Issue.record("10m,0 taken"); return }
        #expect(e.message.hasPrefix("--pre-alarm: invalid volume '0'"))
        guard case .failure(let long) = AlarmOption.preAlarm.parse("3h") else { Issue.record("3h taken"); return }
        #expect(long.message == "--pre-alarm: 3h is longer than 2h; give 2h or less, or 0 for none")
    }

    @Test("its volume is its percent of the alarm's, rounded, never below 1")
    func volume() {
        #expect(PreAlarm(lead: .seconds(1), percent: 25).volume(of: 100) == 25)
        #expect(PreAlarm(lead: .seconds(1), percent: 20).volume(of: 50) == 10)
        #expect(PreAlarm(lead: .seconds(1), percent: 1).volume(of: 1) == 1)
        #expect(PreAlarm(lead: .seconds(1), percent: 100).volume(of: 100) == 100)
    }

    // MARK: the engine

    @Test("armed, it waits for the pre-alarm's moment, lead before the deadline, on the deadline's clock")
    func waitsForPreRing() {
        var e = AlarmEngine(deadline: T.wallDeadline, settings: Self.settings)
        #expect(e.handle(.timerFired(T.at(T.deadlineSeconds - 3600))) == [.armTimer(Self.preStart)])
        #expect(e.handle(.timerFired(T.at(T.deadlineSeconds - 601))) == [.armTimer(Self.preStart)])
        #expect(e.state == .armed(T.wallDeadline))
    }

    @Test("at lead before the deadline the pre-ring starts and the timer waits for the alarm itself")
    func preRingsAtLead() {
        var e = AlarmEngine(deadline: T.wallDeadline, settings: Self.settings)
        _ = e.handle(.timerFired(T.at(T.deadlineSeconds - 3600)))
        let now = T.at(T.deadlineSeconds - 600)
        #expect(e.handle(.timerFired(now)) == [.startPreRinging(main: T.wallDeadline), .armTimer(T.wallDeadline)])
        #expect(e.state == .preRinging(since: now.boottime, main: T.wallDeadline))
        #expect(!e.isFinished)
    }

    @Test("at the deadline the pre-ring gives way to the alarm's ring, with its ring limit")
    func mainAtDeadline() {
        var e = Self.preRinging()
        #expect(e.handle(.timerFired(T.at(T.deadlineSeconds - 1))) == [.armTimer(T.wallDeadline)])
        let now = T.at(T.deadlineSeconds)
        #expect(e.handle(.timerFired(now)) == [.stopPreRinging, .disarmTimer, .startRinging(late: .zero), T.ringLimit(from: now, Self.settings)])
        #expect(e.state == .ringing(since: now.boottime))
        #expect(e.deadline == T.wallDeadline)
    }

    @Test("a stop or a snooze of the pre-ring, from anyone, keeps the alarm: it rings at its deadline")
    func stopKeepsMain() {
        let askers: [Requester] = [.key("x"), .control("wake stop (pid 1)"), .notification, .mediaControl(caller: ":1.5"), .signal(name: "SIGUSR1", number: 10)]
        for who in askers {
            for event in [AlarmEngine.Event.command(.stop, by: who, T.at(T.deadlineSeconds - 300)),
                          .command(.snooze, by: who, T.at(T.deadlineSeconds - 300)),
                          .snooze(.long, by: who, T.at(T.deadlineSeconds - 300))] {
                var e = Self.preRinging()
                #expect(e.handle(event) == [.stopPreRinging, .reportPreStopped(by: who, main: T.wallDeadline), .armTimer(T.wallDeadline)])
                #expect(e.state == .armed(T.wallDeadline))
                #expect(e.snoozesUsed == 0)
                // No second pre-ring: the alarm itself, at its time.
                #expect(e.handle(.timerFired(T.at(T.deadlineSeconds - 10))) == [.armTimer(T.wallDeadline)])
                let now = T.at(T.deadlineSeconds)
                #expect(e.handle(.timerFired(now)) == [.disarmTimer, .startRinging(late: .zero), T.ringLimit(from: now, Self.settings)])
            }
        }
    }

    @Test("up already during the pre-ring, or after it was stopped, skips the alarm; before any pre-ring it is ignored")
    func upAlreadySkipsMain() {
        var during = Self.preRinging()
        #expect(during.handle(.command(.upAlready, by: .key("u"), T.at(T.deadlineSeconds - 300)))
                == [.stopPreRinging, .disarmTimer, .disarmRingLimit, .finish(.upAlready(by: .key("u")))])
        #expect(during.state == .finished(.upAlready(by: .key("u"))))
        #expect(during.handle(.timerFired(T.at(T.deadlineSeconds))) == [])

        var after = Self.preRinging()
        _ = after.handle(.command(.stop, by: .key("x"), T.at(T.deadlineSeconds - 300)))
        #expect(after.handle(.command(.upAlready, by: .key("u"), T.at(T.deadlineSeconds - 200)))
                == [.disarmTimer, .disarmRingLimit, .finish(.upAlready(by: .key("u")))])

        var before = AlarmEngine(deadline: T.wallDeadline, settings: Self.settings)
        #expect(before.handle(.command(.upAlready, by: .key("u"), T.at(T.deadlineSeconds - 3600))) == [.reportIgnored(.upAlready, by: .key("u"))])
        #expect(before.state == .armed(T.wallDeadline))

        // Ringing, `u` is a key like any other: it stops.
        var (ringing, _) = T.ringing(Self.settings)
        #expect(ringing.handle(.command(.upAlready, by: .key("u"), T.at(T.deadlineSeconds + 5))).last == .finish(.stopped(by: .key("u"))))
    }

    @Test("a cancel during the pre-ring cancels, the pre-ring stopping with it")
    func cancelDuringPreRing() {
        var e = Self.preRinging()
        #expect(e.handle(.command(.cancel, by: .key("q"), T.at(T.deadlineSeconds - 300)))
                == [.stopPreRinging, .disarmTimer, .disarmRingLimit, .finish(.cancelled(by: .key("q")))])
    }

    @Test("the late limit measures the alarm only: a pre-ring started late rings; the alarm past its limit is missed")
    func lateLimitMainOnly() {
        // Woken (a resume) 20 minutes after the pre-alarm's moment, 5 minutes before the alarm:
        // the pre-ring still starts, for what is left.
        var late = AlarmEngine(deadline: T.wallDeadline, settings: Self.settings)
        let woke = T.at(T.deadlineSeconds - 300)
        #expect(late.handle(.clockChanged(woke)) == [.reportClockChange(woke), .startPreRinging(main: T.wallDeadline), .armTimer(T.wallDeadline)])

        // A pre-ring that lasts past the alarm's late limit (a suspend in it): missed, silent.
        var e = Self.preRinging()
        let past = T.at(T.deadlineSeconds + 31 * 60)
        let actions = e.handle(.clockChanged(past))
        #expect(actions == [.reportClockChange(past), .stopPreRinging, .disarmTimer, .disarmRingLimit, .finish(.missed(late: .seconds(31 * 60)))])
        // Past the alarm's deadline but within its limit: the alarm rings, late.
        var within = Self.preRinging()
        let soon = T.at(T.deadlineSeconds + 60)
        #expect(within.handle(.clockChanged(soon)).contains(.startRinging(late: .seconds(60))))

        // Armed and woken after the deadline: the pre-alarm is passed over, the alarm rings as ever.
        var over = AlarmEngine(deadline: T.wallDeadline, settings: Self.settings)
        let after = T.at(T.deadlineSeconds + 10)
        #expect(over.handle(.timerFired(after)) == [.disarmTimer, .startRinging(late: .seconds(10)), T.ringLimit(from: after, Self.settings)])
    }

    @Test("set with less than the lead left, the pre-ring starts at once")
    func setInsideWindow() {
        var e = AlarmEngine(deadline: T.wallDeadline, settings: Self.settings)
        let now = T.at(T.deadlineSeconds - 120)
        #expect(e.handle(.timerFired(now)) == [.startPreRinging(main: T.wallDeadline), .armTimer(T.wallDeadline)])
    }

    @Test("a ring-for limit or a clock step in the pre-ring changes nothing but the wait")
    func otherEventsInPreRing() {
        var e = Self.preRinging()
        #expect(e.handle(.ringLimitReached(T.at(T.deadlineSeconds - 100))) == [])
        let stepped = T.at(T.deadlineSeconds - 900)
        #expect(e.handle(.clockChanged(stepped)) == [.reportClockChange(stepped), .armTimer(T.wallDeadline)])
        if case .preRinging = e.state {} else { Issue.record("\(e.state)") }
    }

    @Test("the key u is up already; the others keep their meaning")
    func keyU() {
        #expect(KeyBinding.command(for: UInt8(ascii: "u")) == (.upAlready, .key("u")))
        #expect(KeyBinding.command(for: UInt8(ascii: "U")) == (.upAlready, .key("U")))
        #expect(KeyBinding.command(for: UInt8(ascii: "x")).0 == .stop)
    }

    @Test("wake stop and wake snooze reach a pre-ringing alarm (it stays set); a cancel still needs its ID")
    func routing() {
        let alarms = [ControlRouting.Alarm(id: "1", phase: .preRinging, standing: false)]
        #expect(ControlRouting.route(.stop, id: nil, alarms: alarms).map(\.verdict) == [.apply])
        #expect(ControlRouting.route(.snooze, id: nil, alarms: alarms).map(\.verdict) == [.apply])
        #expect(ControlRouting.route(.cancel, id: "1", alarms: alarms).map(\.verdict) == [.apply])
    }
}

@Suite("Pre-alarm notice")
struct PreAlarmNoticeTests {
    @Test("pre-ringing: Up already and Stop (alarm stays set), not critical; once stopped: only Up already")
    func notices() {
        let pre = DesktopNotice.make(.preRinging(main: "06:30"), alarm: "06:30", snooze: .seconds(540))
        #expect(pre.summary == "Alarm 06:30: pre-alarm")
        #expect(pre.buttons.map(\.key) == [DesktopNotice.upKey, DesktopNotice.stopKey])
        #expect(pre.buttons.map(\.label) == ["Up already", "Stop (alarm stays set)"])
        #expect(pre.urgency == .normal && pre.resident)
        let stopped = DesktopNotice.make(.preStopped(main: "06:30"), alarm: "06:30", snooze: .seconds(540), message: "Gym")
        #expect(stopped.buttons.map(\.key) == [DesktopNotice.upKey])
        #expect(stopped.body == "Gym\nThe pre-alarm stopped; the alarm stays set for 06:30.")
    }
}
