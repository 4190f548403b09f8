import Foundation
import Testing
import WakeCore
import WakeEngine
import WakeRuntime
import WakeSystem

/// The pre-alarm of a standing alarm, through the daemon's controller: stored in alarms.toml,
/// rung by the same engine state as a one-off's, never recorded as the alarm's ring.
@Suite("Pre-alarm in the daemon")
struct PreAlarmDaemonTests {
    typealias D = DaemonControllerTests

    static func daemon(_ options: [String: String] = ["pre-alarm": "10m,25", "volume": "80"]) throws -> D.Daemon {
        let d = try D.Daemon(alarms: [D.daily("work", 7, options: options)])
        try d.start()
        return d
    }

    @Test("a stored pre-alarm pre-rings 10 min before at 25 % and is not recorded as fired; the alarm rings at 07:00 and is")
    func preRingThenMain() throws {
        let d = try Self.daemon()
        #expect(d.controller?.settings(of: "work").preAlarm == PreAlarm(lead: .seconds(600), percent: 25))
        d.advance(by: .seconds(8 * 3600 - 600))
        #expect(d.world.startedVolumes == [20])
        #expect(!d.runner.isRinging)
        #expect(try d.record("work")?.lastFired == nil, "a pre-ring is not the alarm's ring")
        d.advance(by: .seconds(600))
        #expect(d.runner.isRinging)
        #expect(d.world.startedVolumes == [20, 80])
        #expect(try d.record("work")?.lastFired == RunnerTests.morning)
    }

    @Test("a stop of the pre-ring keeps the alarm, which rings at 07:00; a reload in between changes nothing")
    func stopKeepsMain() throws {
        let d = try Self.daemon()
        d.advance(by: .seconds(8 * 3600 - 300))
        d.stop("work")
        #expect(d.world.stops == 1)
        #expect(d.recorder.names.contains("preRingStopped"))
        d.controller?.requestReload()
        d.controller?.applyPending()
        #expect(d.world.startedVolumes == [20], "the reload did not start the pre-ring again")
        d.advance(by: .seconds(300))
        #expect(d.runner.isRinging)
        #expect(d.world.startedVolumes == [20, 80])
    }

    @Test("up already in the pre-ring skips the occurrence (recorded), and the next day's is armed")
    func upAlreadySkips() throws {
        let d = try Self.daemon()
        d.advance(by: .seconds(8 * 3600 - 300))
        d.runner.command(.upAlready, by: .key("u"), alarm: "work")
        d.controller?.applyPending()
        #expect(try d.record("work")?.lastSkipped == RunnerTests.morning)
        d.advance(by: .seconds(600))
        #expect(!d.runner.isRinging)
        #expect(d.world.startedVolumes == [20])
        #expect(d.controller?.occurrence(of: "work") == RunnerTests.morning + .seconds(86_400))
    }

    // Was Tests/WakeTests/PreAlarmDaemonEndToEndTests.swift's skipIsUpAlready: `wake skip` writes the
    // day to the history, and the reload that brings stops the pre-ring.
    @Test("wake skip during the pre-ring: the pre-ring stops, the alarm does not ring, and the next day's is armed")
    func skipDuringPreRing() throws {
        let d = try Self.daemon()
        d.advance(by: .seconds(8 * 3600 - 300))
        #expect(d.world.startedVolumes == [20])
        try d.store.updateHistory { h in
            var r = h["work"] ?? AlarmRecord(name: "work")
            r.skips = [utcDay(RunnerTests.morning)]
            h["work"] = r
        }
        d.controller?.requestReload()
        d.controller?.applyPending()
        #expect(d.world.stops == 1, "the pre-ring stopped: \(d.lines.lines)")
        d.advance(by: .seconds(600))
        #expect(!d.runner.isRinging)
        #expect(d.world.startedVolumes == [20])
        #expect(d.controller?.occurrence(of: "work") == RunnerTests.morning + .seconds(86_400))
    }

    @Test("a stored pre-alarm that does not check is set aside alone, said once; the alarm keeps its other options")
    func badStoredPreAlarm() throws {
        let d = try Self.daemon(["pre-alarm": "10m,0", "device": "plughw:0,0"])
        let said = d.lines.lines.filter { $0.contains("alarm 'work'") && $0.contains("pre-alarm") }
        #expect(said.count == 1 && said[0].contains("invalid volume '0'"), "\(d.lines.lines)")
        #expect(d.controller?.settings(of: "work").preAlarm == nil)
        #expect(d.runner.setup(of: "work")?.ring.device == "plughw:0,0")
    }

    @Test("a pre-alarm sound that cannot be opened is said; the pre-ring plays the alarm's own sound")
    func badPreAlarmSound() throws {
        let d = try Self.daemon(["pre-alarm": "10m", "pre-alarm-sound": "/nonexistent/pre.wav"])
        #expect(d.lines.lines.contains { $0.contains("alarm 'work'") && $0.contains("--pre-alarm-sound") && $0.contains("the alarm's own sound") },
                "\(d.lines.lines)")
        let setup = try #require(d.runner.setup(of: "work"))
        #expect(setup.preRingRequest?.sound === setup.ring.sound)
        #expect(setup.preRingRequest?.volume == 20)
    }
}
