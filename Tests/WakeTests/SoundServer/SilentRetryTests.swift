import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 22, never give up while the ring window lasts: with no terminal (stdin from /dev/null,
/// a new session: no bell), a sound server that dies mid-ring or is down at the deadline leaves
/// wake `silent`, trying the devices every 2 s; once the server is back the speaker hears the
/// alarm within seconds, and the ring ends at `--ring-for` with exit 4 (30 s: long enough for a server restarted on a loaded machine). A window that passes
/// without any sound ends with exit 1.
@Suite("Silent, then heard again: no terminal, a sound server that comes back", .serialized,
       .enabled(if: PulseAudioServer.isAvailable, "needs pulseaudio, pulseaudio-utils and libasound2-plugins (make deps-test)"))
struct SilentRetryTests {
    @Test("the server killed mid-ring and back after a while: silent, then heard again within seconds; exit 4 at --ring-for",
          arguments: [1, 8])
    func killedMidRing(downFor seconds: Int) async throws {
        try await PulseAudioServer.with(desktop: true) { pa in
            let wake = try DetachedWake(["now", "-D", "default", "--ring-for", "30s", "--inhibit", "off"], environment: pa.environment)
            try await wake.waitForEvent("ringing", timeout: .seconds(20))
            await pa.killServer()
            let silent = try await wake.waitForEvent("silent", timeout: .seconds(15))
            #expect(silent["reason"]?.contains("no terminal") == true, "\(silent)")
            let list = try await WakeProcess.run(["list", "--json"], environment: pa.environment)
            #expect(list.stdout.contains("\"state\":\"silent\""), "wake list shows the ring as silent: \(list)")
            try await Task.sleep(for: .seconds(seconds))
            try await pa.restart()
            let back = ContinuousClock.now
            let recorder = try await pa.record()
            let recovered = try await wake.waitForEvent("recovered", timeout: .seconds(10))
            #expect(recovered["from"] == "silent" && recovered["device"] == "default", "\(recovered)")
            #expect(await recorder.waitForSound(timeout: .seconds(8)), "the speaker hears the alarm again")
            #expect(secondsSince(back) <= 8, "heard \(secondsSince(back)) s after the server returned")
            let r = await wake.wait(timeout: .seconds(60))
            #expect(r.exitCode == 4, "rang to the end of --ring-for: \(wake.report(r))")
            let steps = wake.events.filter { $0.name == "silent_step" }
            #expect(Set(steps.map { "\($0["device"] ?? ""): \($0["reason"] ?? "")" }).count == steps.count,
                    "each step's failure is said once: \(steps)")
        }
    }

    @Test("the server down at the deadline and up 4 s later: heard within seconds of its return; exit 4")
    func downAtTheDeadline() async throws {
        try await PulseAudioServer.with(desktop: true) { pa in
            let wake = try DetachedWake(["+3s", "-D", "default", "--ring-for", "30s", "--inhibit", "off"], environment: pa.environment)
            try await wake.waitForEvent("armed", timeout: .seconds(20))
            await pa.killServer()
            let silent = try await wake.waitForEvent("silent", timeout: .seconds(15))
            #expect(!wake.events.contains { $0.name == "device" }, "no device opened with the server down: \(silent)")
            try await Task.sleep(for: .seconds(4))
            try await pa.restart()
            let back = ContinuousClock.now
            let recorder = try await pa.record()
            #expect(await recorder.waitForSound(timeout: .seconds(8)), "the speaker hears the alarm once the server is back")
            #expect(secondsSince(back) <= 8, "heard \(secondsSince(back)) s after the server returned")
            let r = await wake.wait(timeout: .seconds(60))
            #expect(r.exitCode == 4, "sound was heard, so the window ends as timed out: \(wake.report(r))")
            #expect(wake.events.contains { $0.name == "recovered" && $0["from"] == "silent" }, "\(wake.report(r))")
        }
    }

    @Test("PipeWire: pipewire-pulse killed mid-ring and back after 1 s: heard again within seconds; exit 4",
          .enabled(if: PipeWireServer.isAvailable, "needs pipewire, wireplumber, pipewire-pulse"))
    func pipeWireRestarted() async throws {
        try await PipeWireServer.with { pw in
            let wake = try DetachedWake(["now", "-D", "default", "--ring-for", "30s", "--inhibit", "off"], environment: pw.environment)
            try await wake.waitForEvent("ringing", timeout: .seconds(20))
            await pw.killPulse()
            try await wake.waitForEvent("silent", timeout: .seconds(15))
            try await Task.sleep(for: .seconds(1))
            try await pw.restartPulse()
            let back = ContinuousClock.now
            let recorder = try await pw.record(sink: "speaker")
            #expect(await recorder.waitForSound(timeout: .seconds(8)), "the speaker hears the alarm again")
            #expect(secondsSince(back) <= 8, "heard \(secondsSince(back)) s after the server returned")
            let r = await wake.wait(timeout: .seconds(60))
            #expect(r.exitCode == 4, "\(wake.report(r))")
            #expect(wake.events.contains { $0.name == "recovered" && $0["from"] == "silent" }, "\(wake.report(r))")
        }
    }

    @Test("under wake daemon: the server killed mid-ring and back after 1 s: the standing alarm is heard again")
    func daemonServerRestarted() async throws {
        try await PulseAudioServer.with(desktop: true) { pa in
            let home = try AlarmHome()
            var env = pa.environment
            for (k, v) in home.environment where k != "XDG_RUNTIME_DIR" && k != "XDG_STATE_HOME" { env[k] = v }
            let add = try await WakeProcess.run(["add", AlarmHome.soon(4), "--name", "soon", "-D", "default", "--ring-for", "30s"],
                                                environment: env)
            #expect(add.exitCode == 0, "\(add)")
            let events = home.dir.file("events.jsonl")
            let daemon = try DetachedWake(["daemon", "--inhibit", "off", "--notify", "off", "--events", events], environment: env,
                                          events: false, directory: home.dir)
            func has(_ name: String) -> Bool { WakeEvent.read(events).contains { $0.name == name } }
            for _ in 0..<100 where !has("ringing") { try await Task.sleep(for: .milliseconds(200)) }
            #expect(has("ringing"), "it did not ring: \(ChildProcess.read(events))")
            await pa.killServer()
            for _ in 0..<75 where !has("silent") { try await Task.sleep(for: .milliseconds(200)) }
            #expect(has("silent"), "\(ChildProcess.read(events))")
            try await Task.sleep(for: .seconds(1))
            try await pa.restart()
            let recorder = try await pa.record()
            #expect(await recorder.waitForSound(timeout: .seconds(8)), "the speaker hears the daemon's alarm again")
            #expect(WakeEvent.read(events).contains { $0.name == "recovered" && $0["from"] == "silent" }, "\(ChildProcess.read(events))")
            daemon.send(SIGTERM)
            #expect(await daemon.wait(timeout: .seconds(30)).exitCode == 0)
        }
    }

    @Test("the server down for the whole window: silent, still_silent counts, exit 1 at --ring-for")
    func neverBack() async throws {
        try await PulseAudioServer.with(desktop: true) { pa in
            let wake = try DetachedWake(["+2s", "-D", "default", "--ring-for", "13s", "--inhibit", "off"], environment: pa.environment)
            try await wake.waitForEvent("armed", timeout: .seconds(20))
            await pa.killServer()
            let start = ContinuousClock.now
            let r = await wake.wait(timeout: .seconds(60))
            #expect(r.exitCode == 1, "a window without any sound is a failure: \(wake.report(r))")
            #expect(secondsSince(start) >= 12, "wake kept trying for the whole window, not \(secondsSince(start)) s")
            #expect(wake.events.contains { $0.name == "still_silent" && Int($0["tries"] ?? "") ?? 0 >= 4 }, "\(wake.report(r))")
            #expect(wake.events.contains { $0.name == "error" && $0["reason"]?.contains("whole --ring-for window") == true },
                    "\(wake.report(r))")
        }
    }
}
