import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 37 (10): the crescendo started again from -40 dB at every new output, so after a sound
/// server restarted mid-ring the alarm came back at its first second's level. With a 20 s fade,
/// the server killed about 6 s into the ring (about -27 dB reached) and started again, what the
/// speaker hears first must be near the level reached before, not 13 dB under it.
@Suite("The crescendo goes on after the sound server comes back", .serialized,
       .enabled(if: PulseAudioServer.isAvailable, "needs pulseaudio, pulseaudio-utils and libasound2-plugins (make deps-test)"))
struct CrescendoResumeTests {
    /// The loudest sample of `samples`.
    static func peak(_ samples: [Int16]) -> Int { samples.map { Int(abs(Int32($0))) }.max() ?? 0 }

    @Test("--fade-in 20s, the server killed 6 s into the ring and restarted: heard again at the level reached, not at -40 dB")
    func resumesAfterServerRestart() async throws {
        try await PulseAudioServer.with { pa in
            let dir = try TestDirectory("wake-crescendo")
            // A steady tone, so a window's peak is the gain's level wherever it falls.
            let tone = try await makeSound(in: dir, name: "tone.wav", rate: 44_100, channels: 1, seconds: "1", synth: ["sine", "440"])
            let before = try await pa.record()
            let wake = try DetachedWake(["now", "-D", "default", "-s", tone, "--fade-in", "20s", "--ring-for", "40s", "--inhibit", "off"],
                                        environment: pa.environment)
            try await wake.waitForEvent("ringing", timeout: .seconds(20))
            #expect(await before.waitForSound(timeout: .seconds(10)), "the ring is heard before the server goes")
            try await Task.sleep(for: .seconds(6))
            let end = before.mark()
            let window = PulseRecorder.rate * 2 * 3 / 10  // 0.3 s of mono S16
            let reached = Self.peak(before.samples(from: max(0, end - window), to: end))
            let first = Self.peak(before.samples(from: 0, to: window))
            #expect(reached > first * 2, "the fade rose before the restart: \(first) at its start, \(reached) 6 s in")
            await pa.killServer()
            try await wake.waitForEvent("silent", timeout: .seconds(15))
            try await pa.restart()
            let after = try await pa.record()
            #expect(await after.waitForSound(frames: PulseRecorder.rate / 2, timeout: .seconds(10)), "heard again once the server is back")
            let samples = after.samples()
            let start = samples.firstIndex { abs(Int32($0)) > Int32(PulseRecorder.threshold) } ?? 0
            let resumed = Self.peak(Array(samples[start..<min(samples.count, start + window / 2)]))
            // -40 dB would be about a quarter of the level reached; the fade went on by the
            // 0.5 s the server had queued and lost, about 1 dB.
            #expect(resumed * 10 >= reached * 6 && resumed <= reached * 2,
                    "back at \(resumed) after the restart; the level reached was \(reached), the fade's start \(first)")
            wake.send(SIGTERM)
            let r = await wake.wait(timeout: .seconds(15))
            #expect(r.exitCode == 0, "\(wake.report(r))")
        }
    }
}
