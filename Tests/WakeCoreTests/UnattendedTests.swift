import Testing
import WakeCore

/// `--unattended`, `--unattended-rounds` and `--escalate` in the engine: a ring that runs its
/// `--ring-for` unanswered stops (exit 4), snoozes and rings again as the next round up to the
/// rounds, or rings on until the late limit; and each round's level.
@Suite("AlarmEngine: a ring nobody answers")
struct UnattendedTests {
    typealias T = AlarmEngineTests

    static func settings(_ mode: Unattended.Mode, rounds: Int = 3, escalate: Bool = false, lateLimit: Duration = .seconds(30 * 60))
        -> AlarmEngine.Settings {
        AlarmEngine.Settings(lateLimit: lateLimit, snooze: .seconds(9 * 60), ringFor: .seconds(10 * 60),
                             unattended: Unattended(mode: mode, rounds: rounds, escalate: escalate))
    }

    static func minutes(_ m: Int64, from start: ClockReading) -> ClockReading { start + .seconds(m * 60) }

    @Test("stop: the ring limit ends it, timed out, as before")
    func stops() {
        var (e, now) = T.ringing(Self.settings(.stop))
        #expect(e.handle(.ringLimitReached(Self.minutes(10, from: now))) == T.finishActions(.timedOut, ringing: true))
        #expect(e.round == 1 && e.unanswered == nil)
    }

    @Test("snooze, 3 rounds: rings at 07:00, 07:19 and 07:38, each unanswered ring a snooze by nobody; then timed out")
    func snoozesRounds() {
        var (e, start) = T.ringing(Self.settings(.snooze))
        var now = start
        for round in 2...3 {
            now = now + .seconds(10 * 60)
            let until = Wait(instant: now.boottime + .seconds(9 * 60), clock: .elapsed)
            let news = UnansweredRing(rang: .seconds(600), mode: .snooze, round: round, of: 3)
            #expect(e.handle(.ringLimitReached(now)) == [.stopRinging, .disarmRingLimit, .reportUnanswered(news, next: until),
                                                          .reportSnoozed(until: until, by: .unattended), .armTimer(until)])
            #expect(e.state == .snoozed(until) && e.round == round && e.unanswered == news)
            // Nobody's snooze is not the sleeper's: the snooze limit's count is untouched.
            #expect(e.snoozesUsed == 0)
            now = now + .seconds(9 * 60)
            #expect(e.handle(.timerFired(now)) == [.disarmTimer, .startRinging(late: .zero), T.ringLimit(from: now)])
        }
        #expect(now == Self.minutes(38, from: start), "the third round rings at 07:38")
        #expect(e.handle(.ringLimitReached(now + .seconds(600))) == T.finishActions(.timedOut, ringing: true))
        #expect(e.state == .finished(.timedOut))
    }

    @Test("snooze: a person still stops or snoozes any round; their snooze does not count as a round")
    func personAnswers() {
        var (e, now) = T.ringing(Self.settings(.snooze, rounds: 2))
        now = now + .seconds(600)
        _ = e.handle(.ringLimitReached(now))
        now = now + .seconds(540)
        _ = e.handle(.timerFired(now))
        #expect(e.round == 2)
        _ = e.handle(.key("z", now + .seconds(5)))
        #expect(e.snoozesUsed == 1 && e.round == 2)
        now = now + .seconds(5 + 540)
        _ = e.handle(.timerFired(now))
        // The last round, unanswered: it stops.
        #expect(e.handle(.ringLimitReached(now + .seconds(600))) == T.finishActions(.timedOut, ringing: true))

        var (f, then) = T.ringing(Self.settings(.snooze))
        _ = f.handle(.ringLimitReached(then + .seconds(600)))
        then = then + .seconds(1)
        // Snoozed by nobody: a key stops it, as any snoozed alarm.
        #expect(f.handle(.key("q", then + .seconds(700))) == T.finishActions(.stopped(by: .key("q")), ringing: false))
    }

    @Test("Ctrl-Z and signals keep their meaning in every round: a round snoozes on Ctrl-Z, its snooze stops the process, SIGTERM stops")
    func suspendAndSignals() {
        var (e, now) = T.ringing(Self.settings(.snooze, escalate: true))
        _ = e.handle(.ringLimitReached(now + .seconds(600)))
        #expect(AlarmEngine.suspended(in: e.state, challenge: false) == .stopsProcess)
        now = now + .seconds(600 + 540)
        _ = e.handle(.timerFired(now))
        #expect(e.round == 2 && AlarmEngine.suspended(in: e.state, challenge: false) == .snoozes)
        #expect(AlarmEngine.suspended(in: e.state, challenge: true) == .refused)
        let term = Requester.signal(name: "SIGTERM", number: 15)
        #expect(e.handle(.command(.cancel, by: term, now + .seconds(1))) == T.finishActions(.stopped(by: term), ringing: true))
    }

    @Test("snooze, one round: the same as stop")
    func oneRound() {
        var (e, now) = T.ringing(Self.settings(.snooze, rounds: 1))
        #expect(e.handle(.ringLimitReached(now + .seconds(600))) == T.finishActions(.timedOut, ringing: true))
    }

    @Test("ring: it rings on past --ring-for until the late limit (07:30), then timed out; with --escalate, louder")
    func ringsOn() {
        var (e, now) = T.ringing(Self.settings(.ring, escalate: true))
        let tenPast = now + .seconds(600)
        let end = Wait(instant: now.boottime + .seconds(1800), clock: .elapsed)
        let news = UnansweredRing(rang: .seconds(600), mode: .ring, round: 2, of: 2)
        #expect(e.handle(.ringLimitReached(tenPast)) == [.reportUnanswered(news, next: end), .escalateRinging, .armRingLimit(end)])
        #expect(e.state == .ringing(since: now.boottime) && e.round == 2)
        #expect(e.handle(.ringLimitReached(now + .seconds(1800))) == T.finishActions(.timedOut, ringing: true))

        // No late limit: on until a person stops it.
        (e, now) = T.ringing(Self.settings(.ring, lateLimit: .zero))
        #expect(e.handle(.ringLimitReached(now + .seconds(600)))
                == [.reportUnanswered(UnansweredRing(rang: .seconds(600), mode: .ring, round: 2, of: 2), next: nil)])
        #expect(e.handle(.key("q", now + .seconds(7200))) == T.finishActions(.stopped(by: .key("q")), ringing: true))

        // A late limit already passed (the ring started late): it stops.
        (e, now) = T.ringing(Self.settings(.ring, lateLimit: .seconds(5 * 60)))
        #expect(e.handle(.ringLimitReached(now + .seconds(600))) == T.finishActions(.timedOut, ringing: true))
    }

    @Test("each round's level: evenly from the volume to 100 % at the last, which plays wake's built-in sound")
    func levels() {
        let three = Unattended(mode: .snooze, rounds: 3, escalate: true)
        #expect((1...4).map { three.volume(round: $0, of: 40) } == [40, 70, 100, 100])
        #expect((1...3).map { three.switchesToBuiltIn(round: $0) } == [false, false, true])
        let five = Unattended(mode: .snooze, rounds: 5, escalate: true)
        #expect((1...5).map { five.volume(round: $0, of: 60) } == [60, 70, 80, 90, 100])
        #expect(Unattended(mode: .ring, escalate: true).volume(round: 2, of: 50) == 100)
        // Off, or one round: every round at the alarm's volume, its own sound.
        #expect(Unattended(mode: .snooze, rounds: 3).volume(round: 3, of: 40) == 40)
        #expect(!Unattended(mode: .snooze, rounds: 3).switchesToBuiltIn(round: 3))
        #expect(Unattended(mode: .stop, escalate: true).volume(round: 1, of: 40) == 40)
    }

    @Test("the words: the notification's and the dry run's")
    func words() {
        #expect(UnansweredRing(rang: .seconds(600), mode: .snooze, round: 2, of: 3).text(until: "07:19")
                == "rang 10 min unanswered; again at 07:19, round 2 of 3")
        #expect(UnansweredRing(rang: .seconds(600), mode: .ring, round: 2, of: 2).text(until: "07:30")
                == "rang 10 min unanswered; ringing on until 07:30")
        // The timer that ends a ring fires a little late: the sleeper reads whole seconds.
        #expect(UnansweredRing(rang: .milliseconds(1003), mode: .ring, round: 2, of: 2).text(until: nil)
                == "rang 1 s unanswered; ringing on until stopped")
        #expect(UnansweredRing(rang: .milliseconds(600_040), mode: .snooze, round: 2, of: 3).text(until: "07:19")
                == "rang 10 min unanswered; again at 07:19, round 2 of 3")
        let rule = Unattended(mode: .snooze, rounds: 3, escalate: true)
        #expect(rule.describe(ringFor: .seconds(600), snooze: .seconds(540), lateLimit: .seconds(1800))
                == "snooze, 3 rounds (unanswered for 10m: a 9m snooze, then it rings again; unanswered 3 times, it stops: exit 4)")
        #expect(rule.describeEscalation(volume: 40, builtInAlready: false)
                == "on (round 2 at 70 %, round 3 at 100 % with wake's built-in sound)")
        let notice = DesktopNotice.make(.unanswered(UnansweredRing(rang: .seconds(600), mode: .snooze, round: 2, of: 3), until: "07:19"),
                                        alarm: "07:00", snooze: .seconds(540))
        #expect(notice.summary == "Alarm 07:00: rang 10 min unanswered")
        #expect(notice.body == "Rang 10 min unanswered; again at 07:19, round 2 of 3.")
        #expect(notice.buttons.map(\.key) == [DesktopNotice.stopKey])
    }
}
