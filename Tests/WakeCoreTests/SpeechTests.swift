import Testing
import WakeCore

/// `--say on`, the pure part: what is said, the resampler that fits the clip to the sound, and
/// the seams the speech comes at.
@Suite("Speech: text, resampling, cadence")
struct SpeechTests {
    @Test("the message, or the occurrence's local time as one says it")
    func text() throws {
        #expect(SpeechClip.text(message: nil, hour: 6, minute: 30) == "It is 6:30")
        #expect(SpeechClip.text(message: nil, hour: 18, minute: 5) == "It is 18:05")
        #expect(SpeechClip.text(message: nil, hour: 0, minute: 0) == "It is 0:00")
        #expect(SpeechClip.text(message: "Take the bins out", hour: 6, minute: 30) == "Take the bins out")
        #expect(SpeechClip.text(message: "  ", hour: 7, minute: 0) == "It is 7:00", "a blank message says the time")
        // Local time, not UTC.
        let berlin = try zone("Europe/Berlin")
        #expect(SpeechClip.text(message: nil, at: utc(2026, 11, 22, 5, 30), zone: berlin) == "It is 6:30")
        #expect(SpeechClip.text(message: nil, at: utc(2026, 7, 1, 4, 30), zone: berlin) == "It is 6:30")
    }

    @Test("linear resampling keeps the length in time and the shape")
    func resample() {
        let ramp = (0..<100).map { Int16($0 * 100) }
        // Same rate: unchanged.
        #expect(Resample.linear(ramp, from: 22050, to: 22050) == ramp)
        // Doubling: twice the samples, the originals at the even places, midpoints between.
        let up = Resample.linear(ramp, from: 22050, to: 44100)
        #expect(up.count == 200)
        #expect(up[0] == 0 && up[2] == 100 && up[1] == 50 && up[198] == 9900)
        #expect(up[199] == 9900, "the last sample is held, not read past the end")
        // Halving: every other sample.
        let down = Resample.linear(ramp, from: 44100, to: 22050)
        #expect(down == stride(from: 0, to: 100, by: 2).map { Int16($0 * 100) })
        // 22,050 to 48,000: 1.35 s stays 1.35 s.
        let clip = [Int16](repeating: 1000, count: 29_829)
        let at48 = Resample.linear(clip, from: 22050, to: 48000)
        #expect(at48.count == 29_829 * 48000 / 22050 && at48.allSatisfy { $0 == 1000 })
        // Extremes clamp, never trap.
        let loud = Resample.linear([Int16.max, Int16.min, Int16.max], from: 8000, to: 44100)
        #expect(loud.first == Int16.max && loud.count == 3 * 44100 / 8000)
    }

    @Test("nonsense rates and empty clips give nothing rather than trap")
    func resampleRefuses() {
        #expect(Resample.linear([], from: 22050, to: 44100).isEmpty)
        #expect(Resample.linear([1, 2], from: 0, to: 44100).isEmpty)
        #expect(Resample.linear([1, 2], from: 22050, to: -1).isEmpty)
        #expect(Resample.linear([1, 2], from: 22050, to: Int.max).isEmpty)
        #expect(SpeechClip(samples: [1], rate: 0, text: "x").resampled(to: 44100).isEmpty)
    }

    @Test("speech after the first loop, then at the first seam once the interval of sound has played")
    func cadence() {
        // A 1 s loop at 1000 Hz, speech every 20 s of sound.
        var c = SpeechCadence(interval: .seconds(20), rate: 1000)
        #expect(c.interval == 20_000)
        var spokeAt: [Int] = []
        for loop in 1...45 {
            c.played(1000)
            if c.speaksAtSeam() { spokeAt.append(loop) }
        }
        #expect(spokeAt == [1, 21, 41])
        // A sound longer than the interval speaks at every seam.
        var long = SpeechCadence(interval: .seconds(20), rate: 1000)
        var every: [Bool] = []
        for _ in 0..<3 { long.played(30_000); every.append(long.speaksAtSeam()) }
        #expect(every == [true, true, true])
        // A seam with no sound before it (an empty or truncated file) is no loop: no speech.
        var empty = SpeechCadence(interval: .seconds(20), rate: 1000)
        #expect(!empty.speaksAtSeam() && !empty.speaksAtSeam())
        empty.played(1)
        #expect(empty.speaksAtSeam() && !empty.speaksAtSeam())
        // Counting never overflows.
        var huge = SpeechCadence(interval: .seconds(20), rate: 1000)
        _ = huge.speaksAtSeam()
        huge.played(Int.max); huge.played(Int.max)
        #expect(huge.soundSinceSpeech == Int64.max && huge.speaksAtSeam())
        #expect(SpeechCadence(interval: .seconds(Int64.max), rate: 384_000).interval == Int64.max)
    }

    @Test("the option: off by default, on or off, in both files and the config")
    func option() {
        #expect(AlarmOption.say.defaultText == "off" && AlarmOption.say.words == ["off", "on"])
        #expect(AlarmOption.say.scope.contains([.ring, .stored, .config]))
        if case .failure(let p) = AlarmOption.say.parse("yes") {
            #expect(p.message == "--say: invalid mode 'yes'; use on (speak the message or the time between loops) or off")
        } else {
            Issue.record("yes was taken")
        }
        #expect((try? AlarmOption.say.parse("on").get()) == .text("on"))
    }
}
