import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 16, coming back from the bell: a sound server that dies mid-ring sends wake down the
/// fallback chain to the terminal bell; once the server is back, wake finds a working device
/// within a few seconds (it retries every 5 s in the background, never blocking the loop), says
/// so with a `recovered` event, and the speaker hears the alarm again.
///
/// On a pseudo-terminal, so the bell is there to fall back to. Bounds are wide: the retry runs
/// every 5 s and a probe stuck on a server is given the 3 s stall limit; 30 s are allowed.
@Suite("Back from the bell", .serialized,
       .enabled(if: PulseAudioServer.isAvailable, "needs pulseaudio, pulseaudio-utils and libasound2-plugins (make deps-test)"))
struct BellRecoveryTests {
    @Test("the server killed mid-ring: the bell; started again: sound comes back (recovered), and a key still stops it")
    func serverRestarted() async throws {
        try await PulseAudioServer.with { pa in
            let first = try await pa.record()
            let session = try PtySession(["now", "-D", "default", "--ring-for", "120s", "--inhibit", "off"],
                                         steps: ["wait:ringing", "wait:recovered", "sleep:3", "key:x"], environment: pa.environment, timeout: 150)
            try await session.waitForEvent("ringing", timeout: .seconds(20))
            #expect(await first.waitForSound(timeout: .seconds(10)), "before the crash the alarm is heard")
            await pa.killServer()
            let bell = try await session.waitForEvent("fallback", occurrence: 1, timeout: .seconds(20))
            // Every device step fails quickly with the server gone; the chain ends on the bell.
            var sawBell = session.events.contains { $0.name == "fallback" && $0["to"] == "bell" }
            let bellDeadline = ContinuousClock.now + .seconds(30)
            while !sawBell && ContinuousClock.now < bellDeadline {
                try await Task.sleep(for: .milliseconds(100))
                sawBell = session.events.contains { $0.name == "fallback" && $0["to"] == "bell" }
            }
            #expect(sawBell, "with the server gone wake should fall back to the bell: first fallback \(bell)\n\(session.eventLogText)")
            try await Task.sleep(for: .seconds(2))
            #expect(!session.events.contains { $0.name == "recovered" && $0["what"] == "sound" }, "no recovery while the server is down")
            let restarted = ContinuousClock.now
            try await pa.restart()
            let second = try await pa.record()
            let back = try await session.waitForEvent("recovered", timeout: .seconds(30))
            #expect(back["what"] == "sound" && back["device"] == "default" && back["from"] == "bell", "\(back)")
            #expect(secondsSince(restarted) <= 30, "sound came back \(secondsSince(restarted)) s after the server did")
            #expect(await second.waitForSound(timeout: .seconds(30)), "after the recovery the speaker hears the alarm again")
            let (o, events, _) = try await session.finish(timeout: .seconds(60))
            #expect(o.exit == 0, "a key stops the alarm: exit 0: \(o)")
            #expect(o.bells >= 1, "the bell rang while the server was away: \(o)")
            #expect(events.contains { $0.name == "stopped" && $0["key"] == "x" }, "\(o)")
            #expect(o.restored, "\(o)")
        }
    }
}
