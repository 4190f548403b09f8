import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 13: a hung sound server must never freeze wake. A PulseAudio server (WakeTestSupport/
/// PulseAudioServer.swift) is frozen with SIGSTOP while wake rings through it; every ALSA call
/// into the pulse plugin then blocks for about 30 s. wake must notice within its 3 s stall limit
/// (a `fallback` event), and keys, signals and `--ring-for` must keep working meanwhile, since
/// device I/O runs on a supervised output worker thread, never on the loop.
///
/// Bounds are twice the requirement (a 3 s stall limit is allowed 6 s, "within a second" 2 s):
/// the machine running them is small and busy; the defect they catch takes 30 s to 2 minutes.

/// A duration in seconds, as a number for bounds and messages.
func runtimeSeconds(_ d: Duration) -> Double {
    Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
}

/// Seconds from `a` to now.
func secondsSince(_ a: ContinuousClock.Instant) -> Double { runtimeSeconds(ContinuousClock.now - a) }

@Suite("Runtime: a frozen sound server", .serialized,
       .enabled(if: PulseAudioServer.isAvailable, "needs pulseaudio, pulseaudio-utils and libasound2-plugins (make deps-test)"))
struct RuntimeFrozenServerTests {
    /// Rings through the server, checks that the speaker hears it, freezes the server 2 s into
    /// the ring, and returns when the freeze took effect.
    func ringThenFreeze(_ wake: WakeProcess, _ pa: PulseAudioServer, _ recorder: PulseRecorder) async throws -> ContinuousClock.Instant {
        try await wake.waitForEvent("ringing", timeout: .seconds(15))
        let heard = await recorder.waitForSound(timeout: .seconds(5))
        #expect(heard, "before the freeze, the alarm should be heard on the server's speaker (parec on speaker.monitor recorded silence)")
        try await Task.sleep(for: .seconds(2))
        try await pa.freeze()
        return ContinuousClock.now
    }

    @Test("frozen 2 s into ringing: a fallback within the 3 s stall limit, then SIGTERM stops it at once (exit 0)",
          arguments: ["pulse", "default"])
    func frozenThenSIGTERM(device: String) async throws {
        try await PulseAudioServer.with { pa in
            let recorder = try await pa.record()
            // --ring-for leaves the test room to send SIGTERM even when a loaded machine runs it slowly.
            let wake = try DetachedWake(["now", "-D", device, "--ring-for", "60s", "--inhibit", "off"], environment: pa.environment)
            let frozen = try await ringThenFreeze(wake, pa, recorder)
            var fallbackTime: Date?
            do {
                let fallback = try await wake.waitForEvent("fallback", timeout: .seconds(6))
                #expect(fallback["from"] == device, "the fallback should name the frozen device '\(device)': \(fallback)")
                fallbackTime = fallback["time"].flatMap(isoTime)
            } catch {
                let what = "a sound server frozen under '\(device)' went unnoticed for \(secondsSince(frozen)) s: no fallback event "
                    + "within the 3 s stall limit (6 s allowed), so a sleeper hears silence and is told nothing\n\(error)"
                Issue.record(Comment(rawValue: what))
            }
            // Under ASan on two cores this test has been starved for seconds between wake's fallback
            // and the line below; by then wake had walked its whole chain (no terminal, no bell) and
            // was ending with 1. That says nothing about SIGTERM: note it and stop here.
            if let t = fallbackTime, Date().timeIntervalSince(t) > 5 {
                wake.send(SIGTERM)
                let r = await wake.wait(timeout: .seconds(10))
                if r.exitCode == 1 { return }
                #expect(r.exitCode == 0, "\(wake.report(r))")
                return
            }
            let sent = ContinuousClock.now
            wake.send(SIGTERM)
            let r = await wake.wait(timeout: .seconds(10))
            let took = secondsSince(sent)
            #expect(!r.timedOut && took <= 2, "SIGTERM took \(took) s to stop wake ringing into a frozen server (2 s allowed): \(wake.report(r))")
            #expect(r.exitCode == 0, "a stop by signal while ringing exits 0: \(wake.report(r))")
            #expect(wake.events.contains { $0.name == "stopped" && $0["signal"] == "SIGTERM" },
                    "a stopped event naming SIGTERM: \(wake.report(r))")
        }
    }

    @Test("frozen 2 s into ringing, nobody there: --ring-for 10s still ends it (exit 4 near 10 s, not 2 minutes)",
          arguments: ["pulse", "default"])
    func frozenRingForObeyed(device: String) async throws {
        try await PulseAudioServer.with { pa in
            let recorder = try await pa.record()
            // On a pty, so the end of the fallback chain (the bell) is open and only --ring-for ends the alarm.
            let session = try PtySession(["now", "-D", device, "--ring-for", "10s", "--inhibit", "off"],
                                         steps: ["wait:ringing"], environment: pa.environment, timeout: 40)
            try await session.waitForEvent("ringing", timeout: .seconds(15))
            let ringing = ContinuousClock.now
            #expect(await recorder.waitForSound(timeout: .seconds(5)), "before the freeze, the alarm should be heard on the speaker")
            try await Task.sleep(for: .seconds(2))
            try await pa.freeze()
            let (o, events, exitedAt) = try await session.finish()
            let took = runtimeSeconds(exitedAt - ringing)
            #expect(!o.timed_out && took <= 14, "--ring-for 10s ended the alarm \(took) s after it began ringing (14 s allowed): \(o)")
            #expect(o.exit == 4, "rang for --ring-for without being stopped: exit 4: \(o)")
            #expect(o.restored, "the terminal's settings should be restored: \(o)")
            #expect(events.contains { $0.name == "fallback" }, "the frozen server should have been reported by a fallback event: \(o)")
            #expect(events.last?.name == "timed_out", "\(o)")
        }
    }

    @Test("a key stops the alarm within ~2 s while the server is frozen", arguments: ["pulse", "default"])
    func keyWhileFrozen(device: String) async throws {
        try await PulseAudioServer.with { pa in
            let recorder = try await pa.record()
            // The driver presses x 4 s after it sees the ringing event; the test freezes the server at 2 s.
            let session = try PtySession(["now", "-D", device, "--ring-for", "60s", "--inhibit", "off"],
                                         steps: ["wait:ringing", "sleep:4", "key:x"], environment: pa.environment, timeout: 30)
            try await session.waitForEvent("ringing", timeout: .seconds(15))
            let ringing = ContinuousClock.now
            #expect(await recorder.waitForSound(timeout: .seconds(5)), "before the freeze, the alarm should be heard on the speaker")
            let freezeAt = ringing + .seconds(2)
            if ContinuousClock.now < freezeAt { try await Task.sleep(until: freezeAt) }
            try await pa.freeze()
            let (o, events, exitedAt) = try await session.finish()
            let afterKey = runtimeSeconds(exitedAt - (ringing + .seconds(4)))
            #expect(!o.timed_out && afterKey <= 3, "the key x stopped the alarm only \(afterKey) s after it was pressed (~2 s allowed): \(o)")
            #expect(o.exit == 0, "a key stops the alarm: exit 0: \(o)")
            #expect(o.restored, "\(o)")
            #expect(events.contains { $0.name == "stopped" && $0["key"] == "x" }, "a stopped event naming the key: \(o)")
        }
    }

    @Test("checking a device on a frozen server: refused (69) within seconds, saying the device did not answer",
          arguments: [["07:00", "--dry-run"], ["+1h"]])
    func armAgainstFrozenServer(when: [String]) async throws {
        try await PulseAudioServer.with { pa in
            try await pa.freeze()
            let wake = try DetachedWake(when + ["-D", "pulse", "--inhibit", "off"], environment: pa.environment, events: false)
            let r = await wake.wait(timeout: .seconds(40))
            let took = runtimeSeconds(r.elapsed)
            #expect(!r.timedOut && took <= 10, "wake \(when.joined(separator: " ")) -D pulse took \(took) s against a frozen server (10 s allowed): \(r)")
            #expect(r.exitCode == 69, "an unavailable device is exit 69: \(r)")
            let said = r.stderr.lowercased()
            #expect(said.contains("pulse") && ["answer", "respond", "timed out", "timeout"].contains { said.contains($0) },
                    "stderr should name the device and say it did not answer: \(r)")
        }
    }

    @Test("a write that never returns (fault HANG): a fallback within the stall limit, then SIGTERM stops it (exit 0)")
    func hangingWriteThenSIGTERM() async throws {
        let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "60s", "--inhibit", "off"],
                                    environment: faults("pcm.write=HANG@10x0"))
        try await wake.waitForEvent("ringing")
        let ringing = ContinuousClock.now
        do {
            let fallback = try await wake.waitForEvent("fallback", timeout: .seconds(8))
            #expect(fallback["reason"]?.contains("stall") == true, "the fallback should say the device stalled: \(fallback)")
        } catch {
            Issue.record("a hung write went unnoticed for \(secondsSince(ringing)) s after ringing began (3 s stall limit): \(error)")
        }
        let sent = ContinuousClock.now
        wake.send(SIGTERM)
        let r = await wake.wait(timeout: .seconds(10))
        let took = secondsSince(sent)
        #expect(!r.timedOut && took <= 2, "SIGTERM took \(took) s with a write hung in the device (2 s allowed): \(wake.report(r))")
        #expect(r.exitCode == 0, "a stop by signal while ringing exits 0: \(wake.report(r))")
    }

    @Test("a write that never returns (fault HANG), on a terminal: a key still stops the alarm (exit 0)")
    func hangingWriteThenKey() async throws {
        let session = try PtySession(["now", "-D", "null", "--ring-for", "60s", "--inhibit", "off"],
                                     steps: ["wait:ringing", "wait:fallback", "key:x"],
                                     environment: faults("pcm.write=HANG@10x0"), timeout: 30)
        try await session.waitForEvent("ringing", timeout: .seconds(15))
        let ringing = ContinuousClock.now
        let fallbackSeen: ContinuousClock.Instant?
        do {
            try await session.waitForEvent("fallback", timeout: .seconds(8))
            fallbackSeen = ContinuousClock.now
        } catch {
            Issue.record("a hung write went unnoticed for \(secondsSince(ringing)) s after ringing began (3 s stall limit): \(error)")
            fallbackSeen = nil
        }
        let (o, events, exitedAt) = try await session.finish()
        if let fallbackSeen {
            let took = runtimeSeconds(exitedAt - fallbackSeen)
            #expect(took <= 3, "the key pressed after the fallback stopped the alarm only \(took) s later: \(o)")
        }
        #expect(o.error == nil && !o.timed_out, "\(o)")
        #expect(o.exit == 0, "a key stops the alarm: exit 0: \(o)")
        #expect(o.restored, "\(o)")
        #expect(events.contains { $0.name == "stopped" && $0["key"] == "x" }, "\(o)")
    }
}

/// An event's `time` field (ISO-8601 with milliseconds and offset) as a Date.
func isoTime(_ text: String) -> Date? {
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return f.date(from: text)
}
