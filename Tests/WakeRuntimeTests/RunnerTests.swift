import Foundation
import Testing
import WakeCore
import WakeEngine
import WakeSystem

/// The runner in-process: a fake clock, fake timers and a fake output, so a whole night runs in
/// milliseconds and every step of it can be checked.
@Suite("Runner with an injected clock")
struct RunnerTests {
    /// A mono 16-bit WAV file's bytes: `frames` samples of a 440 Hz tone at 8 kHz.
    static func toneWAV(frames: Int = 4000) -> [UInt8] {
        let rate = 8000
        var data: [UInt8] = []
        for i in 0..<frames {
            let v = Int16(12000 * sin(2 * Double.pi * 440 * Double(i) / Double(rate)))
            data += [UInt8(truncatingIfNeeded: v), UInt8(truncatingIfNeeded: v >> 8)]
        }
        func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8((v >> (8 * $0)) & 0xFF) } }
        return Array("RIFF".utf8) + le32(36 + data.count) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(1)
            + le32(rate) + le32(rate * 2) + le16(2) + le16(16) + Array("data".utf8) + le32(data.count) + data
    }

    /// Half a second of a 440 Hz tone, opened from memory.
    static func tone() throws(SoundFile.OpenError) -> SoundFile {
        // As DefaultSound does: withUnsafeBytes rethrows untyped, so the typed error rides a Result.
        try toneWAV().withUnsafeBytes { b in Result { () throws(SoundFile.OpenError) in try SoundFile(bytes: b, name: "tone") } }.get()
    }

    /// 2026-11-23 23:00 UTC, and an alarm for 07:00 the next morning.
    static let evening = Instant(seconds: 1_795_474_800)
    static let morning = evening + .seconds(8 * 3600)

    static func setup(_ world: FakeWorld, id: String = "alarm", at instant: Instant = morning,
                      settings: AlarmEngine.Settings = .init()) throws -> AlarmSetup {
        AlarmSetup(id: id, deadline: Deadline(instant: instant, clock: .wall), resolvedAt: world.now(), settings: settings,
                   ring: RingRequest(sound: try tone(), soundKind: .user, device: "null"))
    }

    static func runner(_ world: FakeWorld) -> (Runner, EventRecorder) {
        let runner = Runner(clock: world, timers: world, output: world)
        let recorder = EventRecorder()
        runner.observe(with: recorder)
        return (runner, recorder)
    }

    @Test("a whole night: arm, clock step, suspend and resume, ring, snooze three times, ring-for; in well under a second")
    func wholeNight() throws {
        let started = ContinuousClock.now
        let world = FakeWorld(realtime: Self.evening)
        let (runner, recorder) = Self.runner(world)
        try runner.arm(Self.setup(world))
        #expect(recorder.names == ["armed"])

        world.advance(by: .seconds(3600))
        world.stepWallClock(by: .seconds(300))  // NTP moves the clock 5 minutes ahead
        world.advance(by: .seconds(3600))
        world.suspend(for: .seconds(2 * 3600))  // the lid is closed for two hours
        #expect(!runner.isRinging)
        #expect(recorder.names.contains("clockChanged"))
        #expect(recorder.names.contains("resumed"))

        // It rings at 07:00 on the wall clock, whatever happened in between.
        let untilMorning = Self.morning - world.realtime
        world.advance(by: untilMorning - .seconds(1))
        #expect(!runner.isRinging)
        world.advance(by: .seconds(1))
        #expect(runner.isRinging)
        #expect(world.realtime == Self.morning)

        for _ in 0..<3 {
            runner.command(.snooze, by: .key("s"))
            #expect(!runner.isRinging)
            world.advance(by: .seconds(9 * 60) - .milliseconds(1))
            #expect(!runner.isRinging)
            world.advance(by: .milliseconds(1))
            #expect(runner.isRinging)
        }
        world.advance(by: .seconds(10 * 60))
        #expect(runner.isFinished)
        #expect(runner.outcome(of: "alarm") == .timedOut)
        #expect(recorder.names.filter { $0 == "snoozed" }.count == 3)
        #expect(recorder.names.filter { $0 == "ringing" }.count == 4)
        #expect(world.started.count == 4 && world.stops == 4)
        // Forty minutes of the night on the fake clock: no real waiting, whatever the machine's load
        // (under ASan beside four other test processes it once took 1.5 s, so not a second).
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test("commands: q cancels before the ring; after it, any command ends it as stopped")
    func commands() throws {
        let world = FakeWorld(realtime: Self.evening)
        let (runner, recorder) = Self.runner(world)
        try runner.arm(Self.setup(world))
        runner.command(.stop, by: .key("x"))
        runner.command(.snooze, by: .signal(name: "SIGUSR1", number: 10))
        #expect(!runner.isFinished)
        #expect(recorder.names.suffix(2) == ["ignored", "ignored"])
        runner.command(.cancel, by: .signal(name: "SIGTERM", number: 15))
        #expect(runner.outcome(of: "alarm") == .cancelled(by: .signal(name: "SIGTERM", number: 15)))

        let world2 = FakeWorld(realtime: Self.evening)
        let (runner2, _) = Self.runner(world2)
        try runner2.arm(Self.setup(world2))
        world2.advance(by: .seconds(8 * 3600))
        runner2.command(.cancel, by: .control("wake stop"))
        #expect(runner2.outcome(of: "alarm") == .stopped(by: .control("wake stop")))
        #expect(world2.stops == 1)
    }

    @Test("the pre-roll: the device is prepared a second before the deadline and before a snooze ends; a start adopts it, a cancel or a clock stepped back closes it")
    func preroll() throws {
        let world = FakeWorld(realtime: Self.evening)
        let (runner, _) = Self.runner(world)
        let armedAt = world.boottime
        try runner.arm(Self.setup(world))
        world.advance(by: .seconds(8 * 3600) - .milliseconds(1001))
        #expect(world.prepared.isEmpty)
        world.advance(by: .milliseconds(1))
        #expect(world.prepared.map(\.device) == ["null"])
        #expect(world.prepared.first?.at == armedAt + .seconds(8 * 3600) - Defaults.preroll)
        #expect(world.started.isEmpty)
        world.advance(by: .seconds(1))
        #expect(world.started == ["null"] && world.discarded == 0)

        runner.command(.snooze, by: .key("s"))
        world.advance(by: Defaults.snooze - .milliseconds(1500))
        #expect(world.prepared.count == 1)
        world.advance(by: .milliseconds(600))
        #expect(world.prepared.count == 2)
        runner.command(.cancel, by: .signal(name: "SIGTERM", number: 15))
        #expect(runner.isFinished && world.discarded == 1 && world.started.count == 1)

        // Armed less than a second ahead: no pre-roll, the ring opens as usual.
        let near = FakeWorld(realtime: Self.evening)
        let (nearRunner, _) = Self.runner(near)
        try nearRunner.arm(Self.setup(near, at: Self.evening + .milliseconds(500)))
        near.advance(by: .seconds(1))
        #expect(near.prepared.isEmpty && near.started == ["null"])

        // The wall clock stepped back an hour after the pre-roll: that device is closed, and the
        // new deadline gets its own pre-roll.
        let stepped = FakeWorld(realtime: Self.evening)
        let (steppedRunner, _) = Self.runner(stepped)
        try steppedRunner.arm(Self.setup(stepped))
        stepped.advance(by: .seconds(8 * 3600) - .milliseconds(500))
        #expect(stepped.prepared.count == 1)
        stepped.stepWallClock(by: .seconds(-3600))
        #expect(stepped.discarded == 1 && stepped.started.isEmpty)
        stepped.advance(by: .seconds(3601))
        #expect(stepped.prepared.count == 2 && stepped.started == ["null"] && stepped.discarded == 1)
    }

    @Test("a late limit of zero rings however late; a positive one misses")
    func lateLimitZero() throws {
        for (limit, expectRing) in [(Duration.zero, true), (.seconds(60), false)] {
            let world = FakeWorld(realtime: Self.morning + .seconds(5 * 3600))  // five hours late
            let (runner, _) = Self.runner(world)
            try runner.arm(Self.setup(world, settings: .init(lateLimit: limit)))
            #expect(runner.isRinging == expectRing)
            if !expectRing, case .missed = runner.outcome(of: "alarm") {} else if !expectRing { Issue.record("expected missed") }
        }
    }

    @Test("one pre-roll timer for every alarm: each deadline gets its head start, in order, whichever was armed first or taken out")
    func prerollOfMany() throws {
        let world = FakeWorld(realtime: Self.evening)
        let (runner, _) = Self.runner(world)
        let start = world.boottime
        // Armed latest first; the earliest then taken out before its moment.
        for (id, minutes) in [("c", 30), ("b", 20), ("gone", 5), ("a", 10)] {
            try runner.arm(Self.setup(world, id: id, at: Self.morning + .seconds(minutes * 60)))
        }
        runner.remove("gone")
        for minutes in [10, 20, 30] {
            world.advance(by: Self.morning + .seconds(minutes * 60) - world.realtime - .seconds(30))
            runner.command(.stop, by: .key("x"))  // the one before it ended
            world.advance(by: .seconds(30))
            #expect(world.prepared.last?.at == start + .seconds(8 * 3600 + minutes * 60) - Defaults.preroll, "\(minutes)")
        }
        #expect(world.prepared.count == 3 && world.started.count == 3, "\(world.prepared)")
    }

    @Test("several alarms share one output; it stops only when the last stops ringing")
    func severalAlarms() throws {
        let world = FakeWorld(realtime: Self.evening)
        let (runner, _) = Self.runner(world)
        try runner.arm(Self.setup(world, id: "a", at: Self.morning))
        try runner.arm(Self.setup(world, id: "b", at: Self.morning + .seconds(60)))
        #expect(world.timersMade == 5)  // each: wall, boot; one pre-roll for both; the ring limit at its first ring
        world.advance(by: .seconds(8 * 3600))
        #expect(runner.state(of: "a").map { if case .ringing = $0 { true } else { false } } == true)
        world.advance(by: .seconds(60))
        #expect(world.started.count == 1 && world.timersMade == 7, "each ring's limit, once it rings")
        runner.command(.stop, by: .key("x"), alarm: "a")
        #expect(runner.isRinging)
        #expect(world.started.count == 2)  // b's sound takes over
        runner.command(.stop, by: .key("x"), alarm: "b")
        #expect(!runner.isRinging && runner.isFinished)
        #expect(!world.isSounding)
    }

    @Test("sound that cannot be made at all ends the alarm as failed")
    func soundFailure() throws {
        let world = FakeWorld(realtime: Self.evening)
        world.onStart = { $0.onEvent?(.failed(reason: "nothing works")) }
        let (runner, recorder) = Self.runner(world)
        try runner.arm(Self.setup(world))
        world.advance(by: .seconds(8 * 3600))
        #expect(runner.outcome(of: "alarm") == .failed("nothing works"))
        #expect(recorder.names.contains("failed"))
    }
}

/// `--challenge math` in the runner: a sum asked at each ring and after each wrong answer, the
/// answer checked, and the keys' stop refused by the engine.
@Suite("Runner: the challenge's sums and answers")
struct RunnerChallengeTests {
    @Test("a sum at the ring (challenge after ringStarted), a wrong answer said and a fresh sum, a key refused, a snooze forgets the sum, the right answer stops by answer")
    func asksAndChecks() throws {
        let world = FakeWorld(realtime: RunnerTests.evening)
        let (runner, recorder) = RunnerTests.runner(world)
        var sums = [MathChallenge(first: 37, second: 48), MathChallenge(first: 12, second: 40), MathChallenge(first: 99, second: 99)]
        runner.makeChallenge = { sums.isEmpty ? MathChallenge(first: 10, second: 10) : sums.removeFirst() }
        try runner.arm(RunnerTests.setup(world, settings: .init(challenge: true)))
        #expect(!runner.isChallenging && runner.challenge(of: "alarm") == nil, "no sum before it rings")
        world.advance(by: RunnerTests.morning - world.realtime)
        #expect(runner.isRinging && runner.challenge(of: "alarm")?.question == "37 + 48")
        let ring = recorder.events.drop { if case .ringStarted = $0.kind { false } else { true } }.dropFirst().first
        if case .challenge(let q)? = ring?.kind { #expect(q == "37 + 48") } else { Issue.record("no challenge after ringStarted: \(recorder.names)") }

        runner.answer("84")
        #expect(runner.isRinging && runner.challenge(of: "alarm")?.question == "12 + 40")
        let wrong = recorder.events.compactMap { if case .challengeWrong(let q, let a) = $0.kind { (q, a) } else { nil } }
        #expect(wrong.count == 1 && wrong.first?.0 == "37 + 48" && wrong.first?.1 == "84")

        runner.command(.stop, by: .key("x"))
        runner.command(.cancel, by: .key("q"))
        #expect(runner.isRinging && recorder.names.filter { $0 == "ignored" }.count == 2)

        runner.command(.snooze, by: .key("z"))
        #expect(!runner.isRinging && !runner.isChallenging, "a snoozed alarm asks nothing")
        world.advance(by: .seconds(9 * 60))
        #expect(runner.isRinging && runner.challenge(of: "alarm")?.question == "99 + 99")
        runner.answer("52")  // the sum before the snooze: wrong now
        #expect(runner.isRinging)
        runner.answer("020")
        #expect(runner.outcome(of: "alarm") == .stopped(by: .answer), "\(recorder.names)")
        #expect(!runner.isChallenging)
        #expect(recorder.names.filter { $0 == "challenge" }.count == 4)
    }

    @Test("without --challenge: no sum is asked, and an answer does nothing")
    func offAsksNothing() throws {
        let world = FakeWorld(realtime: RunnerTests.evening)
        let (runner, recorder) = RunnerTests.runner(world)
        try runner.arm(RunnerTests.setup(world))
        world.advance(by: RunnerTests.morning - world.realtime)
        #expect(runner.isRinging && !runner.isChallenging)
        runner.answer("85")
        #expect(runner.isRinging && !recorder.names.contains("challenge") && !recorder.names.contains("challengeWrong"))
    }
}
