import Testing
import WakeCore
@testable import WakeSystem

/// `--say on`'s voice: espeak-ng's library, loaded on first use, speaking into memory. Called
/// from several threads at once, as `wake add` through the D-Bus API (on a worker) and the
/// daemon's arm (on the loop) may: espeak-ng's global state is behind one lock.
@Suite("System: Speech through libespeak-ng")
struct SystemSpeechTests {
    @Test("'It is 6:30' is about a second and a half of mono 16-bit speech at espeak-ng's rate")
    func speaks() throws {
        let clip = try Speech.synthesize("It is 6:30")
        #expect(clip.rate == 22050 && clip.text == "It is 6:30")
        #expect(clip.duration > .milliseconds(800) && clip.duration < .seconds(3), "\(clip.duration)")
        let loudest = clip.samples.map(\.magnitude).max() ?? 0
        #expect(loudest > 4000, "speech, not silence: peak \(loudest)")
        // The same text again: the same speech, give or take the few milliseconds espeak-ng's
        // state carries from one utterance to the next (29,829 then 29,627 samples).
        let again = try Speech.synthesize("It is 6:30").samples.count
        #expect(abs(again - clip.samples.count) < clip.samples.count / 20, "\(again) samples, then \(clip.samples.count)")
    }

    @Test("untrusted text (controls, markup, long) is spoken or refused, never a crash")
    func oddText() throws {
        for text in ["Dentist at 9 \u{1b}[2J", "<speak>", String(repeating: "wake up ", count: 15), "é ü 日本"] {
            if let clip = try? Speech.synthesize(text) { #expect(clip.rate == 22050 && !clip.samples.isEmpty) }
        }
    }

    @Test("calls from several threads at once each get their own whole clip")
    func concurrent() async throws {
        let one = try Speech.synthesize("It is 7:15").samples.count
        try await withThrowingTaskGroup(of: (count: Int, peak: UInt16).self) { group in
            for _ in 0..<4 {
                group.addTask {
                    let samples = try Speech.synthesize("It is 7:15").samples
                    return (samples.count, samples.map(\.magnitude).max() ?? 0)
                }
            }
            for try await clip in group {
                #expect(abs(clip.count - one) < one / 20 && clip.peak > 4000, "\(clip.count) samples (alone: \(one)), peak \(clip.peak)")
            }
        }
    }
}
