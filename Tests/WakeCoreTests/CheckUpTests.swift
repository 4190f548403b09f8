import Testing
import WakeCore

/// `--check-up` in the engine: a person's stop is checked once, N minutes later, by a quiet ring
/// that any answer ends; unanswered within the window, the alarm rings again and ends as any ring.
@Suite("AlarmEngine: are you up?")
struct CheckUpTests {
    typealias T = AlarmEngineTests

    static let settings = AlarmEngine.Settings(lateLimit: .seconds(30 * 60), snooze: .seconds(9 * 60), ringFor: .seconds(10 * 60),
                                               checkUp: .seconds(5 * 60))

    @Test("a key's stop: asked 5 minutes later with a quiet ring; any answer then ends it, stopped by who answered")
    func answered() {
        var (e, now) = T.ringing(Self.settings)
        let stop = now + .seconds(30)
        let at = Wait(instant: stop.boottime + .seconds(300), clock: .elapsed)
        #expect(e.handle(.key("q", stop)) == [.stopRinging, .disarmRingLimit, .reportCheckUpSet(at: at, by: .key("q")), .armTimer(at)])
        #expect(e.state == .snoozed(at) && e.checkUp == .waiting && !e.isFinished)
        let ask = stop + .seconds(300)
        let until = Wait(instant: ask.boottime + Defaults.checkUpWindow, clock: .elapsed)
        #expect(e.handle(.timerFired(ask)) == [.disarmTimer, .startCheckRinging(until: until), .armRingLimit(until)])
        #expect(e.checkUp == .asking)
        // A snooze key is an answer too, and the notification's I'm up.
        #expect(e.handle(.key("z", ask + .seconds(10))) == T.finishActions(.stopped(by: .key("z")), ringing: true))
    }

    @Test("unanswered: the alarm rings again and a stop then ends it, asked only once")
    func unanswered() {
        var (e, now) = T.ringing(Self.settings)
        _ = e.handle(.key("q", now))
        now = now + .seconds(300)
        _ = e.handle(.timerFired(now))
        now = now + Defaults.checkUpWindow
        #expect(e.handle(.ringLimitReached(now))
                == [.stopRinging, .reportCheckUpUnanswered, .startRinging(late: .zero), T.ringLimit(from: now)])
        #expect(e.state == .ringing(since: now.boottime) && e.checkUp == nil)
        #expect(e.handle(.key("q", now + .seconds(20))) == T.finishActions(.stopped(by: .key("q")), ringing: true))
    }

    @Test("while it waits to ask, any command is the answer: the alarm ends")
    func answeredEarly() {
        var (e, now) = T.ringing(Self.settings)
        _ = e.handle(.key("q", now))
        let who = Requester.control("wake stop (pid 9)")
        #expect(e.handle(.command(.stop, by: who, now + .seconds(60))) == T.finishActions(.stopped(by: who), ringing: false))
    }

    @Test("not checked: a signal, wake stop, the D-Bus API, up already, and an alarm without --check-up")
    func notChecked() {
        for (command, who) in [(AlarmCommand.stop, Requester.signal(name: "SIGTERM", number: 15)), (.stop, .control("wake stop (pid 9)")),
                               (.upAlready, .key("u"))] {
            var (e, now) = T.ringing(Self.settings)
            #expect(e.handle(.command(command, by: who, now)) == T.finishActions(.stopped(by: who), ringing: true), "\(who)")
        }
        var (e, now) = T.ringing(T.settings)
        #expect(e.handle(.key("q", now)) == T.finishActions(.stopped(by: .key("q")), ringing: true))
    }

    @Test("under --challenge the check is a challenge too: a key or a button is ignored, the answer or wake stop ends it")
    func challenged() {
        var settings = Self.settings
        settings.challenge = true
        var (e, now) = T.ringing(settings)
        _ = e.handle(.command(.stop, by: .answer, now))
        #expect(e.checkUp == .waiting)
        #expect(e.handle(.key("x", now + .seconds(10))) == [.reportIgnored(.stop, by: .key("x"))])
        now = now + .seconds(300)
        _ = e.handle(.timerFired(now))
        #expect(e.handle(.command(.upAlready, by: .notification, now)) == [.reportIgnored(.upAlready, by: .notification)])
        #expect(e.handle(.snooze(.standard, by: .key("z"), now)) == [.reportIgnored(.snooze, by: .key("z"))])
        #expect(e.handle(.command(.stop, by: .answer, now + .seconds(5))) == T.finishActions(.stopped(by: .answer), ringing: true))
    }

    @Test("a stop while snoozed is checked too")
    func stopWhileSnoozed() {
        var (e, now) = T.ringing(Self.settings)
        _ = e.handle(.key("z", now))
        let stop = now + .seconds(60)
        let at = Wait(instant: stop.boottime + .seconds(300), clock: .elapsed)
        #expect(e.handle(.key("q", stop)) == [.disarmRingLimit, .reportCheckUpSet(at: at, by: .key("q")), .armTimer(at)])
    }
}

@Suite("Are you up? The notification")
struct CheckUpNoticeTests {
    @Test("waiting and asking: an I'm up button, which the notifier sends as up already; asking is critical; none under --challenge")
    func notices() {
        let set = DesktopNotice.make(.checkUpSet(at: "07:05"), alarm: "07:00", snooze: .seconds(540))
        #expect(set.summary == "Alarm 07:00: stopped" && set.body == "At 07:05 it asks once more whether you are up.")
        let asking = DesktopNotice.make(.checkUpAsking(until: "07:06:00"), alarm: "07:00", snooze: .seconds(540), challenge: true)
        #expect(asking.summary == "Alarm 07:00: are you up?" && asking.urgency == .critical)
        #expect(set.buttons.map(\.key) == [DesktopNotice.upKey])
        let plain = DesktopNotice.make(.checkUpAsking(until: "07:06:00"), alarm: "07:00", snooze: .seconds(540))
        #expect(plain.buttons.map(\.label) == ["I'm up"] && plain.buttons.map(\.key) == [DesktopNotice.upKey])
        #expect(asking.buttons.isEmpty && asking.body.hasSuffix("To answer, solve the sum on the terminal or run 'wake stop'."))
    }
}
