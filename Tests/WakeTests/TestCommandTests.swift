import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// `wake test [NAME] [--for 10s] [--full]` end to end (issue 39): a standing alarm's real path
/// rung now on ALSA's file PCM, whose file holds what reached the output; the one-off form; the
/// refusals; the ends a ring can have; a private PulseAudio, where the report says what the
/// server did to wake's stream; the notification's buttons on python-dbusmock.
///
/// Bounds are wide: a test rings for its --for in real time, on a machine others share.
@Suite("wake test: an alarm's real path rung now")
struct TestCommandTests {
    /// No session bus: notify auto is then quick and the same everywhere.
    static let noBus = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/nonexistent/wake-test-bus"]

    static func loudest(_ samples: [Int16]) -> Int { samples.map { Int($0.magnitude) }.max() ?? 0 }
    static func dBFS(_ peak: Int) -> Double { 20 * log10(Double(peak) / 32768) }

    /// The dBFS figure of the report's `audio:` line (`peak -20.9 dBFS`).
    static func reportedPeak(_ stdout: String) -> Double? {
        guard let line = stdout.split(separator: "\n").first(where: { $0.hasPrefix("audio: ") }),
              let at = line.range(of: "peak ") else { return nil }
        return Double(line[at.upperBound...].split(separator: " ").first ?? "")
    }

    /// A home with a 1 s stereo 440 Hz tone at 0.6 of full scale, and its peak.
    static func home() async throws -> (AlarmHome, tone: String, peak: Int) {
        let home = try AlarmHome()
        let tone = try await makeSound(in: home.dir, name: "tone.wav", rate: 44_100, channels: 2, seconds: "1", synth: ["sine", "440"])
        return (home, tone, loudest(try readWAV(tone).samples))
    }

    static func run(_ home: AlarmHome, _ args: [String], _ extra: [String: String] = [:]) async throws -> ProcessResult {
        try await WakeProcess.run(args, environment: home.environment.merging(noBus) { $1 }.merging(extra) { $1 }, timeout: .seconds(90))
    }

    /// Issue 49, item 15: `wake now -D null --ring-for 5s`, the try the README gave, ended with
    /// exit 4 (rang unanswered), which make shows as "Error 4", a failure to a newcomer.
    @Test("the README's try (make run ARGS='...') ends with exit 0 and says what reached the output")
    func readmeTry() async throws {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md").path
        let text = try String(contentsOfFile: readme, encoding: .utf8)
        let tries = text.split(separator: "\n").compactMap { line -> [String]? in
            guard let start = line.range(of: "make run ARGS='"), let end = line[start.upperBound...].firstIndex(of: "'") else { return nil }
            let args = line[start.upperBound..<end].split(separator: " ").map(String.init)
            return args == ["07:00"] ? nil : args  // the quick start's own alarm, not a try
        }
        #expect(tries.count == 1, "\(tries)")
        let home = try AlarmHome()
        for args in tries {
            let r = try await Self.run(home, args)
            #expect(r.exitCode == 0, "wake \(args.joined(separator: " ")): \(r)")
            #expect(r.stdout.contains("SOUND REACHED THE OUTPUT"), "\(r)")
        }
    }

    @Test("wake test work on a file PCM: the alarm's sound is written there, quietly (15 % gain), and the report says so; --full at its own volume")
    func standingAlarmOnAFilePCM() async throws {
        let (home, tone, tonePeak) = try await Self.home()
        var r = try await home.run(["add", "07:00", "--days", "weekdays", "--name", "work", "-s", tone, "-D", "null", "--fade-in", "30s"])
        #expect(r.exitCode == 0, "\(r)")

        let quiet = home.dir.file("quiet.raw")
        r = try await Self.run(home, ["test", "work", "-D", "file:'\(quiet)',raw", "--for", "2s"])
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stdout.hasPrefix("TESTING: alarm 'work' quietly (15 % gain) for 2s on 'file:'"), "\(r)")
        #expect(r.stdout.contains("test of alarm 'work', quietly, 2s: SOUND REACHED THE OUTPUT"), "\(r)")
        #expect(r.stdout.contains("level: quiet test at 15 % gain without a fade-in; the alarm rings at volume 100 %, fading in over 30s"), "\(r)")
        #expect(r.stdout.contains("accepted by the device, peak ") && r.stdout.contains("sound: \(tone)"), "\(r)")
        #expect(r.stdout.contains("ended: --for 2s ran out"), "\(r)")
        let written = try readRaw(quiet, channels: 2, rate: 44_100)
        // 2 s rung, paced in real time, up to 0.1 s queued ahead; a loaded machine starts late, never early.
        #expect(written.frameCount >= 44_100 && written.frameCount <= 3 * 44_100, "\(written.frameCount) frames")
        let peak = Self.loudest(written.samples)
        #expect(abs(peak - Int((Double(tonePeak) * 0.15).rounded())) <= 2, "the quiet gain: \(peak) of the tone's \(tonePeak)")
        let reported = try #require(Self.reportedPeak(r.stdout), "\(r)")
        #expect(abs(reported - Self.dBFS(peak)) <= 0.1, "the report's peak \(reported) is the file's \(Self.dBFS(peak))")

        // --full: the alarm's own volume (and fade: 2 s into a 30 s crescendo is far below it).
        let full = home.dir.file("full.raw")
        r = try await Self.run(home, ["test", "work", "-D", "file:'\(full)',raw", "--for", "2s", "--full", "--fade-in", "0"])
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stdout.contains("test of alarm 'work', at the alarm's own level, 2s: SOUND REACHED THE OUTPUT"), "\(r)")
        #expect(abs(Self.loudest(try readRaw(full, channels: 2, rate: 44_100).samples) - tonePeak) <= 1, "\(r)")
        #expect(try await home.listJSON().first?["options"] as? [String: String] == ["sound": tone, "device": "null", "fade-in": "30s"],
                "the options given for the test are not stored")
    }

    @Test("the one-off form tests options before wake add: JSON on stdout, the ring's lines on stderr, never louder than --volume")
    func oneOffForm() async throws {
        let (home, tone, tonePeak) = try await Self.home()
        let capture = home.dir.file("capture.raw")
        let r = try await Self.run(home, ["test", "-s", tone, "-D", "file:'\(capture)',raw", "--volume", "10", "--for", "1s", "--json"])
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stderr.contains("TESTING: the ring options given quietly (10 % gain) for 1s"), "\(r)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any], "\(r)")
        #expect(report["audible"] as? Bool == true && report["alarm"] is NSNull && report["mode"] as? String == "quiet", "\(report)")
        #expect(report["gain_percent"] as? Int == 10 && report["device"] as? String == "file:'\(capture)',raw", "\(report)")
        let peak = Self.loudest(try readRaw(capture, channels: 2, rate: 44_100).samples)
        #expect(abs(peak - Int((Double(tonePeak) * 0.10).rounded())) <= 2, "\(peak) of \(tonePeak)")
        let reported = try #require(report["peak_dbfs"] as? Double, "\(report)")
        #expect(abs(reported - Self.dBFS(peak)) <= 0.1, "\(reported) vs \(Self.dBFS(peak))")
        #expect((report["frames"] as? Int ?? 0) > 22_050 && report["ended"] as? String == "time", "\(report)")
        #expect(!FileManager.default.fileExists(atPath: home.alarmsFile), "nothing is stored")
    }

    @Test("a standing alarm's stored --snooze-volume reaches wake test: in its settings line and its JSON, said as the alarm's")
    func snoozeVolumeReported() async throws {
        let (home, tone, _) = try await Self.home()
        #expect(try await home.run(["add", "07:00", "--name", "work", "-s", tone, "-D", "null", "--snooze-volume", "30"]).exitCode == 0)
        let r = try await Self.run(home, ["test", "work", "--for", "1s"])
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stdout.contains("snooze volume 30 % (at the alarm, not in the test)"), "\(r)")
        let json = try await Self.run(home, ["test", "work", "--for", "1s", "--json"])
        #expect(json.stdout.contains("\"snooze-volume\":\"30\""), "\(json)")
    }

    @Test("a standing alarm whose sound file was deleted rings wake's built-in sound, as the daemon would, and says so")
    func deletedSound() async throws {
        let (home, tone, _) = try await Self.home()
        #expect(try await home.run(["add", "07:00", "--name", "work", "-s", tone, "-D", "null"]).exitCode == 0)
        unlink(tone)
        let capture = home.dir.file("capture.raw")
        let r = try await Self.run(home, ["test", "work", "-D", "file:'\(capture)',raw", "--for", "1s"])
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stderr.contains("warning: alarm 'work': cannot use sound file") && r.stderr.contains("it will ring wake's built-in sound"), "\(r)")
        #expect(r.stdout.contains("sound: \(tone) (not used: wake's built-in sound rang instead)"), "\(r)")
        #expect((FileManager.default.contents(atPath: capture) ?? Data()).contains { $0 != 0 }, "the built-in sound reached the file")
    }

    @Test("refusals: one line and the code the other commands give", arguments: [
        (["test", "nobody"], Int32(64), "no standing alarm named 'nobody'; see 'wake list'"),
        (["test", "--for", "0s"], 64, "--for 0s is out of range: a test rings for 1s to 5m"),
        (["test", "--for", "6m"], 64, "--for 6m is out of range"),
        (["test", "--for", "soon"], 64, "--for: invalid duration 'soon'"),
        (["test", "--for", "2s", "--for", "3s"], 64, "option --for given more than once"),
        (["test", "-D", "null", "--volume", "0"], 64, "silent"),
        (["test", "-s", "/nonexistent/alarm.wav", "-D", "null"], 66, "/nonexistent/alarm.wav"),
        (["test", "-D", "nosuchdevice"], 69, "nosuchdevice"),
    ])
    func refusals(args: [String], code: Int32, says: String) async throws {
        let home = try AlarmHome()
        let r = try await Self.run(home, args)
        #expect(r.exitCode == code, "\(r)")
        #expect(r.stderrIsOneLine && r.stderr.contains(says) && r.stdout.isEmpty, "\(r)")
    }

    @Test("a device that fails under a standing alarm: it falls back as at the alarm, nothing reaches any output, said in the report, exit 1")
    func nothingReached() async throws {
        let (home, tone, _) = try await Self.home()
        #expect(try await home.run(["add", "07:00", "--name", "work", "-s", tone, "-D", "null"]).exitCode == 0)
        // An ALSA configuration of its own with no device but null (so `default` and the cards fail
        // everywhere), and no terminal for the bell.
        let asound = try home.dir.write("asound.conf", Array("pcm.null { type null }\n".utf8))
        let wake = try DetachedWake(["test", "work", "-D", "broken", "--for", "2s"],
                                    environment: home.environment.merging(Self.noBus) { $1 }.merging(["ALSA_CONFIG_PATH": asound]) { $1 },
                                    events: false, directory: home.dir)
        let r = await wake.wait(timeout: .seconds(90))
        #expect(r.exitCode == 1, "\(wake.report(r))")
        #expect(r.stderr.contains("warning: cannot ring on device 'broken'") && r.stderr.contains("and so does this test"), "\(wake.report(r))")
        #expect(r.stdout.contains("test of alarm 'work', quietly, 2s: NOTHING AUDIBLE REACHED THE OUTPUT: no device accepted any audio"),
                "\(wake.report(r))")
        #expect(r.stdout.contains("audio: none") && r.stdout.contains("fallbacks: 'broken' failed"), "\(wake.report(r))")
    }

    @Test("wake stop ends a test early, as any ring; a snooze ends it too")
    func endedEarly() async throws {
        let home = try AlarmHome()
        for (command, says) in [("stop", "ended: stopped by"), ("snooze", "ended: snoozed after")] {
            let wake = try DetachedWake(["test", "-D", "null", "--for", "60s"], environment: home.environment.merging(Self.noBus) { $1 },
                                        events: false, directory: home.dir)
            try await wake.waitForOutput(containing: "TESTING:", timeout: .seconds(30))
            // Sound must reach the output before the command, or the test rightly says nothing
            // audible did (on a loaded machine the command came first).
            try await wake.waitForOutput(containing: "ringing on", timeout: .seconds(30))
            try await Task.sleep(for: .seconds(2))
            // wake stop reaches a ringing wake once its control socket is there (made before it rings).
            let c = try await Self.run(home, [command])
            #expect(c.exitCode == 0, "\(command): \(c)")
            let r = await wake.wait(timeout: .seconds(30))
            #expect(r.exitCode == 0, "\(wake.report(r))")
            #expect(r.stdout.contains("SOUND REACHED THE OUTPUT") && r.stdout.contains(says), "\(wake.report(r))")
            #expect(r.elapsed < .seconds(45), "it did not ring its whole --for: \(r.elapsed)")
        }
    }
}

/// On a private PulseAudio: the stream's report, and what a quiet test leaves alone.
@Suite("wake test on a sound server", .serialized,
       .enabled(if: PulseAudioServer.isAvailable, "needs pulseaudio, pulseaudio-utils and libasound2-plugins (make deps-test)"))
struct TestCommandSoundServerTests {
    static func environment(_ pa: PulseAudioServer, _ home: TestDirectory) -> [String: String] {
        pa.environment.merging(TestCommandTests.noBus) { $1 }.merging(["XDG_CONFIG_HOME": home.file("config"), "TZ": "UTC"]) { $1 }
    }

    @Test("the report says wake's stream played on the sink; a sink muted stays muted in a quiet test (said, exit 0), not with --full; --mixer off: exit 1")
    func streamAndMutedSink() async throws {
        try await PulseAudioServer.with { pa in
            let home = try TestDirectory("wake-test-home")
            let env = Self.environment(pa, home)
            var r = try await WakeProcess.run(["test", "-D", "default", "--for", "3s"], environment: env, timeout: .seconds(90))
            #expect(r.exitCode == 0, "\(r)")
            #expect(r.stdout.contains("accepted by the sound server's stream, peak -"), "\(r)")
            #expect(r.stdout.contains("stream: wake's own on sink 'speaker'") && r.stdout.contains("playing, unmuted and uncorked in all"), "\(r)")

            try await pa.run(["set-sink-mute", "speaker", "1"])
            let wake = try DetachedWake(["test", "-D", "default", "--for", "4s"], environment: env, events: false)
            try await wake.waitForOutput(containing: "TESTING:", timeout: .seconds(30))
            _ = try await pa.stream(of: wake.pid, timeout: .seconds(30))
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await pa.sinkLevels("speaker").muted, "a quiet test leaves the sink muted while it plays")
            r = await wake.wait(timeout: .seconds(60))
            #expect(r.exitCode == 0, "\(wake.report(r))")
            #expect(r.stdout.contains("the sink was MUTED in") && r.stdout.contains("the guard lifts it at the alarm"), "\(wake.report(r))")
            #expect(r.stdout.contains("at the alarm: output muted"), "what the guard does then: \(wake.report(r))")

            r = try await WakeProcess.run(["test", "-D", "default", "--for", "2s", "--mixer", "off"], environment: env, timeout: .seconds(90))
            #expect(r.exitCode == 1, "\(r)")
            #expect(r.stdout.contains("NOTHING AUDIBLE REACHED THE OUTPUT: the sink 'speaker' wake's stream plays on was muted the whole test "
                                      + "and --mixer off leaves it so"), "\(r)")

            let full = try DetachedWake(["test", "-D", "default", "--for", "4s", "--full"], environment: env, events: false)
            try await full.waitForOutput(containing: "while ringing", timeout: .seconds(30))
            #expect(try await pa.sinkLevels("speaker").muted == false, "--full: the guard unmutes the sink while it rings")
            r = await full.wait(timeout: .seconds(60))
            #expect(r.exitCode == 0 && r.stdout.contains("mixer guard: raised"), "\(full.report(r))")
            #expect(try await pa.sinkLevels("speaker").muted, "and puts it back")
            withExtendedLifetime(home) {}
        }
    }

    @Test("a stream the server mutes while the test plays is reported, with how long")
    func streamMutedWhilePlaying() async throws {
        try await PulseAudioServer.with { try await Self.mutedWhilePlaying(on: $0) }
    }

    @Test("the same on PipeWire (pipewire-pulse)", .enabled(if: PipeWireServer.isAvailable, "needs pipewire, wireplumber, pipewire-pulse"))
    func streamMutedWhilePlayingOnPipeWire() async throws {
        try await PipeWireServer.with { try await Self.mutedWhilePlaying(on: $0) }
    }

    static func mutedWhilePlaying(on server: some SoundServerFixture) async throws {
        let home = try TestDirectory("wake-test-home")
        let env = server.environment.merging(TestCommandTests.noBus) { $1 }.merging(["XDG_CONFIG_HOME": home.file("config"), "TZ": "UTC"]) { $1 }
        let wake = try DetachedWake(["test", "-D", "default", "--for", "6s"], environment: env, events: false)
        // After the checks (the device probe's own short-lived stream is gone by then), the ring's stream.
        try await wake.waitForOutput(containing: "TESTING:", timeout: .seconds(30))
        let stream = try await server.stream(of: wake.pid, timeout: .seconds(30))
        try await Task.sleep(for: .milliseconds(700))
        try await server.run(["set-sink-input-mute", stream.index, "1"])
        let r = await wake.wait(timeout: .seconds(60))
        #expect(r.exitCode == 0, "heard before the mute: \(wake.report(r))")
        #expect(r.stdout.contains("stream: wake's own on sink '") && r.stdout.contains("MUTED by the server in "), "\(wake.report(r))")
    }
}

/// The notification of a test, with python-dbusmock's notification server.
@Suite("wake test: the notification", .serialized, .enabled(if: NotificationMock.isAvailable, "needs python3-dbusmock, dbus-daemon and busctl"))
struct TestCommandNotificationTests {
    @Test("shown with Snooze and Stop buttons; its Stop ends the test, and the report says both")
    func stopButton() async throws {
        try await NotificationMock.with { mock in
            let home = try AlarmHome()
            let wake = try DetachedWake(["test", "-D", "null", "--for", "60s", "--message", "Tea"],
                                        environment: home.environment.merging(mock.environment) { $1 }, events: false, directory: home.dir)
            let n = try await mock.waitForNotify()
            #expect(n.summary.hasPrefix("Alarm test") && n.body.hasPrefix("Tea"), "\(n)")
            #expect(n.actions == ["snooze", "Snooze 9 min", "snooze-long", "Snooze 18 min", "stop", "Stop"], "\(n)")
            // The notification can come before the first frame (under ASan it did): let sound reach
            // the output first, or the test rightly says nothing audible did.
            try await wake.waitForOutput(containing: "ringing on", timeout: .seconds(30))
            try await Task.sleep(for: .seconds(2))
            try await mock.press("stop", on: 1)
            let r = await wake.wait(timeout: .seconds(30))
            #expect(r.exitCode == 0, "\(wake.report(r))")
            #expect(r.stdout.contains("notification: shown by '") && r.stdout.contains("with Snooze and Stop buttons"), "\(wake.report(r))")
            #expect(r.stdout.contains("ended: stopped by the notification") && r.stdout.contains("message: Tea"), "\(wake.report(r))")
        }
    }
}
