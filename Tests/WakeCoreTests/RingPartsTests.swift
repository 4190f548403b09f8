import Testing
import WakeCore

/// The pure parts of a ring: the fallback order, the gain, the pacing and stall rules, and what
/// each key asks for.
@Suite("Ring parts")
struct RingPartsTests {
    // MARK: fallback chain

    @Test("a failing device: reopened once, then default, then each card's plughw, then the bell")
    func deviceChain() {
        var chain = FallbackChain(device: "hw:1", sound: .user)
        var asked = 0
        let cards = { () -> [Int] in asked += 1; return [0, 1] }
        var steps: [FallbackChain.Output] = [chain.current]
        for _ in 0..<6 { steps.append(chain.advance(after: .device, cards: cards)) }
        #expect(steps == [.device("hw:1", .user), .device("hw:1", .user), .device("default", .user),
                          .device("plughw:0", .user), .device("plughw:1", .user), .bell, .bell])
        #expect(asked == 1, "the cards are listed once, when first needed")
    }

    @Test("default is not tried twice, nor the requested plughw")
    func noDuplicates() {
        var chain = FallbackChain(device: "default", sound: .builtIn)
        var steps: [FallbackChain.Output] = []
        for _ in 0..<3 { steps.append(chain.advance(after: .device, cards: { [0] })) }
        #expect(steps == [.device("default", .builtIn), .device("plughw:0", .builtIn), .bell])
        var p = FallbackChain(device: "plughw:0", sound: .user)
        #expect(p.advance(after: .device, cards: { [0] }) == .device("plughw:0", .user))
        #expect(p.advance(after: .device, cards: { [0] }) == .device("default", .user))
        #expect(p.advance(after: .device, cards: { [0] }) == .bell)
    }

    @Test("a sound that stops decoding: the built-in sound on the same device first, then the device chain")
    func soundChain() {
        var chain = FallbackChain(device: "null", sound: .user)
        #expect(chain.advance(after: .sound, cards: { [] }) == .device("null", .builtIn))
        // The built-in sound failing too is treated as the device failing.
        #expect(chain.advance(after: .sound, cards: { [] }) == .device("null", .builtIn))
        #expect(chain.advance(after: .device, cards: { [] }) == .device("default", .builtIn))
        #expect(chain.advance(after: .device, cards: { [] }) == .bell)
    }

    // MARK: gain

    @Test("full volume without a fade passes samples through bit-exact")
    func unity() {
        let g = GainRamp(volumePercent: 100, fadeIn: .zero, sampleRate: 44_100)
        var samples: [Int16] = [1, -1, .max, .min, 12345]
        let before = samples
        samples.withUnsafeMutableBufferPointer { g.apply(to: $0.baseAddress!, frames: 5, channels: 1, firstIndex: 0) }
        #expect(samples == before)
        #expect(g.isUnity(from: 0))
    }

    @Test("the fade-in rises linearly in decibels from -40 dB to the volume, then holds")
    func fadeIn() {
        let g = GainRamp(volumePercent: 50, fadeIn: .seconds(1), sampleRate: 1000)
        #expect(g.fadeInFrames == 1000)
        #expect(abs(g.gain(atFrame: 0) - 0.005) < 1e-9)            // -40 dB: a hundredth
        #expect(abs(g.gain(atFrame: 500) - 0.05) < 1e-9)            // half-way: a tenth, not half
        #expect(g.gain(atFrame: 1000) == 0.5)
        #expect(g.gain(atFrame: 10_000_000) == 0.5)
        var samples: [Int32] = [10000, 10000, 10000, 10000]  // two stereo frames at 500 and 501
        samples.withUnsafeMutableBufferPointer { g.apply(to: $0.baseAddress!, frames: 2, channels: 2, firstIndex: 500) }
        #expect(samples[0] == 500 && samples[1] == 500)
        #expect(samples[2] == 502 && samples[3] == 502)  // 10000 × 0.5 × 10^(-19.92/20)
    }

    @Test("the crescendo: equal steps in decibels, a tenth half-way, monotonic, clamped")
    func crescendo() {
        #expect(abs(GainRamp.crescendo(0) - 0.01) < 1e-12)
        #expect(abs(GainRamp.crescendo(0.25) - 0.031_622_776_6) < 1e-9)
        #expect(abs(GainRamp.crescendo(0.5) - 0.1) < 1e-12)
        #expect(abs(GainRamp.crescendo(0.75) - 0.316_227_766) < 1e-9)
        #expect(GainRamp.crescendo(1) == 1)
        #expect(GainRamp.crescendo(-3) == GainRamp.crescendo(0))
        #expect(GainRamp.crescendo(7) == 1)
        #expect(GainRamp.crescendo(.nan) == 1)
        var last = 0.0
        for i in 0...1000 {
            let a = GainRamp.crescendo(Double(i) / 1000)
            #expect(a > last)
            last = a
        }
        // Each tenth of the fade adds the same 4 dB: the ratio of neighbours is constant.
        for i in 0..<10 {
            let ratio = GainRamp.crescendo(Double(i + 1) / 10) / GainRamp.crescendo(Double(i) / 10)
            #expect(abs(ratio - 1.584_893_192) < 1e-8)
        }
    }

    /// Issue 37 (10): every new output started the crescendo again from -40 dB, so a ring whose
    /// sound server restarted mid-fade fell back to the first second's level.
    @Test("the crescendo goes on from where the outputs before left it, across sample rates")
    func crescendoResumes() {
        var position = CrescendoPosition()
        #expect(position.startFrame(rate: 48_000) == 0, "a fresh ring starts at the start")
        // 5 s played at 44.1 kHz (the user's file), then the ring moves to wake's 48 kHz sound.
        position.add(frames: 5 * 44_100, rate: 44_100)
        #expect(position.played == .seconds(5))
        let g = GainRamp(volumePercent: 100, fadeIn: .seconds(10), sampleRate: 48_000)
        let start = position.startFrame(rate: 48_000)
        #expect(start == 240_000)
        #expect(abs(g.gain(atFrame: start) - 0.1) < 1e-9, "half-way through a 10 s fade: -20 dB, not -40")
        // A second output that played 2.5 s more: the fade goes on at 7.5 s.
        position.add(frames: 20_000, rate: 8000)
        #expect(position.played == .milliseconds(7500))
        #expect(abs(g.gain(atFrame: position.startFrame(rate: 48_000)) - GainRamp.crescendo(0.75)) < 1e-9)
        // Part seconds are kept (to the microsecond), and outputs that played nothing add nothing.
        position.add(frames: 1, rate: 3)
        position.add(frames: 0, rate: 48_000)
        position.add(frames: 100, rate: 0)
        position.add(frames: -5, rate: 48_000)
        #expect(position.played == .microseconds(7_833_333))
        // Past the fade's end the volume holds.
        position.add(frames: 48_000 * 60, rate: 48_000)
        #expect(g.gain(atFrame: position.startFrame(rate: 48_000)) == 1)
    }

    @Test("the crescendo's position saturates instead of overflowing")
    func crescendoSaturates() {
        var position = CrescendoPosition()
        for _ in 0..<4 { position.add(frames: .max, rate: 1) }
        position.add(frames: .max, rate: .max)
        position.add(frames: .max - 1, rate: 7)
        #expect(position.played <= .seconds(Int64(1) << 40) && position.played > .seconds(1_000_000))
        #expect(position.startFrame(rate: 384_000) > 0)
        #expect(position.startFrame(rate: .max) == .max)
    }

    @Test("gain never overflows: it clamps, and absurd fades saturate")
    func clamping() {
        let g = GainRamp(volumePercent: 100, fadeIn: .seconds(Int64.max / 2), sampleRate: 384_000)
        #expect(g.fadeInFrames > 0)
        var samples: [Int16] = [.min, .max]
        samples.withUnsafeMutableBufferPointer { GainRamp(volumePercent: 100, fadeIn: .zero, sampleRate: 1).applyFadeOut(to: $0.baseAddress!, frames: 2, channels: 1) }
        #expect(samples[0] == .min && samples[1] == Int16.max / 2 + 1)
    }

    // MARK: pacing and stalls

    @Test("pacing: what real time has played plus the lead; and when a frame is due")
    func pacing() {
        let p = PacingSchedule(rate: 48_000, lead: .milliseconds(100))
        #expect(p.framesDue(after: .zero) == 4800)
        #expect(p.framesDue(after: .seconds(1)) == 52_800)
        #expect(p.timeDue(ofFrame: 4800) == .zero)
        #expect(p.timeDue(ofFrame: 52_800) == .seconds(1))
        #expect(p.framesDue(after: .seconds(Int64.max / 1_000_000_000)) > 0)
    }

    @Test("a stall is no progress for longer than the limit")
    func stall() {
        var s = StallWatch(limit: .seconds(3), start: Instant(seconds: 100))
        #expect(!s.isStalled(at: Instant(seconds: 103)))
        #expect(s.isStalled(at: Instant(seconds: 103) + .nanoseconds(1)))
        s.progressed(at: Instant(seconds: 102))
        #expect(!s.isStalled(at: Instant(seconds: 105)))
        s.progressed(at: Instant(seconds: 50))  // never backwards
        #expect(s.lastProgress == Instant(seconds: 102))
    }

    // MARK: keys

    @Test("keys: s, z, space snooze; q cancels; anything else stops; names are printable", arguments: [
        (UInt8(ascii: "s"), AlarmCommand.snooze, "s"), (UInt8(ascii: "Z"), .snooze, "Z"), (UInt8(ascii: " "), .snooze, "space"),
        (UInt8(ascii: "q"), .cancel, "q"), (UInt8(ascii: "x"), .stop, "x"), (0x0A, .stop, "enter"), (0x1B, .stop, "escape"),
        (0x04, .stop, "ctrl-D"), (0x7F, .stop, "ctrl-?"), (0x9B, .stop, "0x9b"),
    ])
    func keys(byte: UInt8, command: AlarmCommand, name: String) {
        let (c, who) = KeyBinding.command(for: byte)
        #expect(c == command)
        #expect(who == .key(name))
    }
}
