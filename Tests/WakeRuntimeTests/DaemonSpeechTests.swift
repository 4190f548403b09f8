import Testing
import WakeCore
import WakeEngine
import WakeRuntime
@testable import WakeSystem

/// Issue 51: the daemon makes an occurrence's spoken clip (`--say on`) only when its ring comes
/// near (`speechLead`, 30 s, before the pre-roll), and drops it after the ring, so a daemon
/// waiting for many spoken alarms holds no clip. On the fake clock, with a stand-in voice.
@Suite("Daemon: speech made near the ring, dropped after")
struct DaemonSpeechTests {
    typealias Daemon = DaemonControllerTests.Daemon

    /// A stand-in for espeak-ng: a clip of 0.2 s, with the texts it was asked for.
    final class Voice {
        var asked: [String] = []
        var fails = false
        func speak(_ text: String) throws(Speech.Failure) -> SpeechClip {
            asked.append(text)
            if fails {
                throw Speech.Failure(libraryMissing: true, reason: "espeak-ng is not installed (libespeak-ng.so.1 cannot be loaded)")
            }
            return SpeechClip(samples: [Int16](repeating: 1000, count: 4410), rate: 22050, text: text)
        }
    }

    static func spoken(_ name: String, _ hour: Int, days: DaySet = .daily, message: String? = nil) -> StandingAlarm {
        var options = ["say": "on", "device": "null"]
        if let message { options["message"] = message }
        return StandingAlarm(name: name, hour: hour, minute: 0, second: 0, days: days.bits, date: nil, options: options,
                      created: RunnerTests.evening - .seconds(86_400 * 7))
    }

    static func daemon(_ alarms: [StandingAlarm], voice: Voice) throws -> Daemon {
        let d = try Daemon(alarms: alarms)
        d.speak = { text throws(Speech.Failure) in try voice.speak(text) }
        try d.start()
        return d
    }

    static func clip(_ d: Daemon, _ name: String) -> SpeechClip? { d.runner.setup(of: name)?.ring.speech?.clip }

    @Test("a spoken alarm days away is armed with no clip; its clip is made 30 s before its ring, spoken by it, and dropped after")
    func madeNearDroppedAfter() throws {
        let voice = Voice()
        // Friday 07:00, three days after the evening the test starts on (Monday 23 November 2026); and tomorrow's.
        let d = try Self.daemon([Self.spoken("friday", 7, days: DaySet(weekdays: [5]), message: "Bins out"), Self.spoken("work", 7)],
                                voice: voice)
        #expect(d.runner.setup(of: "friday")?.ring.speech?.text == "Bins out")
        #expect(Self.clip(d, "friday") == nil && Self.clip(d, "work") == nil && voice.asked.isEmpty, "no clip made at arm time")

        // Tomorrow's ring: nothing until 30 s before it, then its clip, before the pre-roll.
        d.advance(by: .seconds(8 * 3600 - 31))
        #expect(voice.asked.isEmpty && Self.clip(d, "work") == nil)
        d.advance(by: .seconds(1))
        #expect(voice.asked == ["It is 7:00"], "made 30 s before the ring")
        #expect(Self.clip(d, "work")?.text == "It is 7:00")
        #expect(Self.clip(d, "friday") == nil, "the alarm days away holds none")
        #expect(d.world.prepared.isEmpty, "made before the pre-roll")
        d.advance(by: .seconds(30))
        #expect(d.runner.isRinging)
        #expect(d.world.startedSpeech == ["It is 7:00"], "the ring speaks")
        #expect(d.world.prepared.count == 1)

        d.advance(by: .seconds(20))
        d.stop("work")
        #expect(!d.runner.isRinging)
        #expect(d.controller?.occurrence(of: "work") == RunnerTests.morning + .seconds(86_400))
        #expect(Self.clip(d, "work") == nil && Self.clip(d, "friday") == nil, "dropped after the ring")
        #expect(voice.asked.count == 1)

        // The next day: made again near its ring, and spoken.
        d.advance(by: .seconds(86_400 - 50))
        #expect(voice.asked.count == 2 && Self.clip(d, "work") != nil)
        d.advance(by: .seconds(30))
        #expect(d.world.startedSpeech == ["It is 7:00", "It is 7:00"])
        #expect(!d.lines.lines.contains { $0.contains("without speech") }, "\(d.lines.lines)")
    }

    @Test("a clip that cannot be made is said before the ring, and the alarm rings on time without speech")
    func failureSaidRingOnTime() throws {
        let voice = Voice()
        voice.fails = true
        let d = try Self.daemon([Self.spoken("work", 7)], voice: voice)
        #expect(voice.asked.isEmpty)
        d.advance(by: .seconds(8 * 3600 - 30))
        #expect(voice.asked == ["It is 7:00"])
        let said = d.lines.lines.filter { $0.contains("alarm 'work': cannot speak (--say on): espeak-ng is not installed") }
        #expect(said.count == 1 && said[0].contains("it rings without speech"), "\(d.lines.lines)")
        d.advance(by: .seconds(30))
        #expect(d.runner.isRinging)
        #expect(d.world.startedSpeech == [nil])
        let late = d.recorder.events.compactMap { e -> Duration? in
            if case .ringStarted(let late) = e.kind { return late } else { return nil }
        }
        #expect(late == [.zero], "on time: \(late)")
        #expect(voice.asked.count == 1, "tried once a ring")
        #expect(!d.lines.lines.contains { $0.contains("its clip was not made before its time") }, "said once: \(d.lines.lines)")
    }

    @Test("an alarm armed within 30 s of its ring has its clip made as it is armed, and rings with it")
    func armedNearMadeAtOnce() throws {
        let voice = Voice()
        let d = try Self.daemon([], voice: voice)
        d.advance(by: .seconds(8 * 3600 - 10))
        try d.store.update { $0 = [Self.spoken("work", 7)] }
        d.controller?.requestReload()
        d.controller?.applyPending()
        #expect(voice.asked == ["It is 7:00"] && Self.clip(d, "work") != nil)
        d.advance(by: .seconds(10))
        #expect(d.world.startedSpeech == ["It is 7:00"])
    }

    // The machine woke at its deadline: no time was left to make the clip.
    @Test("a ring whose clip was not made in time starts at once without it, says so, and speaks after a snooze")
    func resumedAtDeadline() throws {
        let voice = Voice()
        let d = try Self.daemon([Self.spoken("work", 7)], voice: voice)
        d.advance(by: .seconds(8 * 3600 - 60))
        d.world.suspend(for: .seconds(60))
        d.controller?.applyPending()
        #expect(d.runner.isRinging)
        #expect(d.world.startedSpeech.first == .some(nil) || d.world.startedSpeech.first == "It is 7:00", "\(d.world.startedSpeech)")
        if d.world.startedSpeech.first == .some(nil) {
            #expect(d.lines.lines.contains("wake: 'work' rings without speech: its clip was not made before its time"), "\(d.lines.lines)")
        }
        #expect(voice.asked == ["It is 7:00"] && Self.clip(d, "work") != nil, "made once the ring started")
        d.runner.command(.snooze, by: .control("test"), alarm: "work")
        d.advance(by: .seconds(9 * 60))
        #expect(d.world.startedSpeech.last == "It is 7:00", "the ring after the snooze speaks: \(d.world.startedSpeech)")
    }

    @Test("two alarms that say the same share one clip: the first ring's end keeps it for the second, due within the lead")
    func sharedClip() throws {
        let voice = Voice()
        let d = try Self.daemon([Self.spoken("a", 7), Self.spoken("b", 7, days: DaySet(weekdays: [5]))], voice: voice)
        d.advance(by: .seconds(8 * 3600 - 30))
        #expect(voice.asked == ["It is 7:00"])
        d.advance(by: .seconds(30))
        d.stop("a")
        // b, on Friday, says the same: its clip is not kept for three days.
        #expect(Self.clip(d, "a") == nil && Self.clip(d, "b") == nil)
    }

    @Test("an alarm removed after its clip was made lets it go")
    func removedDropsClip() throws {
        let voice = Voice()
        let d = try Self.daemon([Self.spoken("work", 7)], voice: voice)
        d.advance(by: .seconds(8 * 3600 - 20))
        let speech = try #require(d.runner.setup(of: "work")?.ring.speech)
        #expect(speech.clip != nil)
        try d.store.update { $0 = [] }
        d.controller?.requestReload()
        d.controller?.applyPending()
        #expect(d.runner.setup(of: "work") == nil && speech.clip == nil)
        d.advance(by: .seconds(30))
        #expect(!d.runner.isRinging)
    }
}
