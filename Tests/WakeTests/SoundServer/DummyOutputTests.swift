import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 25: a sound server with no output device offers a "Dummy Output" (`auto_null`:
/// PulseAudio's module-always-sink, pipewire-pulse on a machine without a card), so opening
/// `default` succeeds and the ring would go to nobody. wake warns when the alarm is set and,
/// at ring time, treats the dummy as no device: it falls back, says so, and keeps trying the
/// server, so a device that appears during the ring (headphones, a USB speaker) is heard.
@Suite("No device but a dummy output", .serialized,
       .enabled(if: PulseAudioServer.isAvailable, "needs pulseaudio, pulseaudio-utils and libasound2-plugins (make deps-test)"))
struct DummyOutputTests {
    @Test("PulseAudio's dummy output: the dry run and wake add say so at once, in one line; nothing is refused")
    func warnedWhenSet() async throws {
        try await PulseAudioServer.with(noDevice: true) { pa in
            let dry = try await WakeProcess.run(["--dry-run", "07:00", "-D", "default"], environment: pa.environment)
            #expect(dry.exitCode == 0, "\(dry)")
            #expect(dry.stdout.contains("device: default (") && dry.stdout.contains("opens, but the sound server has no output device"), "\(dry)")
            #expect(dry.stderrIsOneLine && dry.stderr.contains("warning: the sound server has no output device: its 'Dummy Output' (auto_null)")
                    && dry.stderr.contains("falls back"), "\(dry)")

            let home = try AlarmHome()
            var env = pa.environment
            for (k, v) in home.environment where k != "XDG_RUNTIME_DIR" && k != "XDG_STATE_HOME" { env[k] = v }
            let add = try await WakeProcess.run(["add", "06:30", "--days", "weekdays", "-D", "default"], environment: env)
            #expect(add.exitCode == 0 && add.stderr.contains("warning: the sound server has no output device"), "\(add)")

            // A real sink makes the warning go: the server's own default is no longer the dummy.
            let load = try await pa.pactl(["load-module", "module-null-sink", "sink_name=speaker"])
            #expect(load.exitCode == 0, "\(load)")
            let again = try await WakeProcess.run(["--dry-run", "07:00", "-D", "default"], environment: pa.environment)
            #expect(again.exitCode == 0 && again.stdout.contains("): ok") && !again.stderr.contains("no output device"), "\(again)")
        }
    }

    @Test("PipeWire without a card: the ring falls back from the dummy output and says so; a sink that appears is heard; exit 4",
          .enabled(if: PipeWireServer.isAvailable, "needs pipewire, wireplumber, pipewire-pulse"))
    func pipeWireDummyThenASink() async throws {
        try await PipeWireServer.with(sinks: false) { pw in
            let info = try await pw.pactl(["info"])
            #expect(info.stdout.contains("Default Sink: auto_null"), "the server offers its dummy output: \(info)")
            let wake = try DetachedWake(["+1s", "-D", "default", "--ring-for", "30s", "--inhibit", "off"], environment: pw.environment)
            let fallback = try await wake.waitForEvent("fallback", timeout: .seconds(20))
            #expect(fallback["reason"]?.contains("no output device: its 'Dummy Output' (auto_null)") == true, "\(fallback)")
            let silent = try await wake.waitForEvent("silent", timeout: .seconds(15))
            #expect(silent["reason"]?.contains("Dummy Output") == true, "\(silent)")
            #expect(!wake.events.contains { $0.name == "ringing" }, "nothing counts as rung into the dummy: \(wake.events)")
            try await pw.makeSinks()
            let back = ContinuousClock.now
            let recorder = try await pw.record(sink: "speaker")
            #expect(await recorder.waitForSound(timeout: .seconds(8)), "the new speaker hears the alarm")
            #expect(secondsSince(back) <= 8, "heard \(secondsSince(back)) s after the sink appeared")
            let r = await wake.wait(timeout: .seconds(60))
            #expect(r.exitCode == 4, "sound was heard: the window ends as timed out: \(wake.report(r))")
            #expect(wake.events.contains { $0.name == "recovered" && $0["from"] == "silent" }, "\(wake.report(r))")
        }
    }
}
