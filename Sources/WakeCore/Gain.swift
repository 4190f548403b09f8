/// The software gain of a ring: `--volume`, the `--fade-in` crescendo, and the short fade-out
/// that makes a stop click-free. Pure arithmetic over sample buffers.
public struct GainRamp: Hashable, Sendable {
    /// 0...1.
    public let volume: Double
    /// Frames over which the sound rises from -40 dB to `volume`; 0 for no fade.
    public let fadeInFrames: Int64

    public init(volumePercent: Int, fadeIn: Duration, sampleRate: Int) {
        volume = Double(min(100, max(0, volumePercent))) / 100
        fadeInFrames = GainRamp.frames(in: fadeIn, rate: sampleRate)
    }

    /// Frames in `duration` at `rate`, saturating instead of overflowing.
    public static func frames(in duration: Duration, rate: Int) -> Int64 {
        let us = max(0, duration.nanoseconds / 1000)
        let (product, overflow) = us.multipliedReportingOverflow(by: Int64(max(0, rate)))
        return overflow ? Int64.max : product / 1_000_000
    }

    /// Where the fade-in starts, in decibels below the volume.
    public static let crescendoFloor = -40.0

    /// The fade-in's amplitude, relative to the volume, at `progress` (0 at the start, 1 at the
    /// end): linear in decibels from `crescendoFloor` to 0 dB, so loudness grows evenly over the
    /// whole fade (as Android's DeskClock does); a ramp linear in amplitude is already loud after
    /// its first quarter and barely changes after. Half-way it is -20 dB, a tenth.
    public static func crescendo(_ progress: Double) -> Double {
        guard progress.isFinite else { return 1 }
        let t = min(1, max(0, progress))
        if t >= 1 { return 1 }
        return pow10(crescendoFloor * (1 - t) / 20)
    }

    /// 10^x for the crescendo's range, without Foundation: e^(x ln 10) by its series, after
    /// taking out whole powers of ten (x is in -2...0, so at most two of them).
    static func pow10(_ x: Double) -> Double {
        var whole = 1.0, rest = x
        while rest <= -1 { whole /= 10; rest += 1 }
        let y = rest * 2.302585092994046
        var term = 1.0, sum = 1.0
        for n in 1...30 {
            term *= y / Double(n)
            sum += term
        }
        return whole * sum
    }

    /// The gain of the frame `index` frames into the ring.
    public func gain(atFrame index: Int64) -> Double {
        guard fadeInFrames > 0, index < fadeInFrames else { return volume }
        return volume * GainRamp.crescendo(Double(max(0, index)) / Double(fadeInFrames))
    }

    /// Whether frames from `index` on pass through untouched (bit-exact at full volume).
    public func isUnity(from index: Int64) -> Bool { volume >= 1 && index >= fadeInFrames }

    /// Applies the ramp to `frames` interleaved frames that are `firstIndex` frames into the ring.
    public func apply<T: FixedWidthInteger>(to samples: UnsafeMutablePointer<T>, frames: Int, channels: Int, firstIndex: Int64) {
        if isUnity(from: firstIndex) { return }
        GainRamp.scale(samples, frames: frames, channels: channels) { gain(atFrame: firstIndex + Int64($0)) }
    }

    /// A linear fade from `volume` to silence over `frames` frames, for the end of a ring.
    public func applyFadeOut<T: FixedWidthInteger>(to samples: UnsafeMutablePointer<T>, frames: Int, channels: Int) {
        guard frames > 0 else { return }
        GainRamp.scale(samples, frames: frames, channels: channels) { Double(frames - $0) / Double(frames) * volume }
    }

    /// Multiplies every sample by `factor` (below 1: quieter), as `scale` does.
    public static func attenuate<T: FixedWidthInteger>(_ samples: UnsafeMutablePointer<T>, frames: Int, channels: Int, by factor: Double) {
        guard factor < 1 else { return }
        scale(samples, frames: frames, channels: channels) { _ in max(0, factor) }
    }

    /// Multiplies each frame by its gain, rounding to the nearest sample value and clamping.
    static func scale<T: FixedWidthInteger>(_ p: UnsafeMutablePointer<T>, frames: Int, channels: Int, gain: (Int) -> Double) {
        for f in 0..<max(0, frames) {
            let g = gain(f)
            for c in f * channels..<(f + 1) * channels {
                let v = (Double(p[c]) * g).rounded()
                p[c] = v >= Double(T.max) ? T.max : (v <= Double(T.min) ? T.min : T(v))
            }
        }
    }
}

/// How far a ring's crescendo has come, kept across the outputs the ring goes through: the
/// audio each one played, as time. A ring that moves to another device (a fallback, a stalled
/// worker replaced, the sound back after the bell or a restarted sound server) goes on from the
/// level it had reached instead of falling back to the first second's, -40 dB. Time, not frames:
/// the next output may play another sound at another rate (wake's built-in one).
public struct CrescendoPosition: Hashable, Sendable {
    /// Audio played so far in this ring.
    public private(set) var played: Duration = .zero

    /// Where the position stops growing: far beyond any fade (`--fade-in` is at most the ring's
    /// length), and far from Duration's limits.
    static let ceiling: Duration = .seconds(1 << 40)

    public init() {}

    /// An output played `frames` frames at `rate` before it was left behind.
    public mutating func add(frames: Int64, rate: Int) {
        guard frames > 0, rate > 0 else { return }
        let r = Int64(rate)
        let whole = frames / r
        let (scaled, overflow) = (frames % r).multipliedReportingOverflow(by: 1_000_000)
        let rest = overflow ? 0 : scaled / r  // microseconds of the part second
        guard whole < Int64(1) << 40 else { played = Self.ceiling; return }
        played = min(Self.ceiling, played + .seconds(whole) + .microseconds(rest))
    }

    /// The frame, at `rate`, the next output's ramp starts from.
    public func startFrame(rate: Int) -> Int64 { GainRamp.frames(in: played, rate: rate) }
}

/// When to write on a device with no clock of its own (ALSA's `null` and `file`): as much as
/// real time has played since the ring began, plus a lead, as a sound card's buffer would hold.
public struct PacingSchedule: Hashable, Sendable {
    public let rate: Int
    public let lead: Int64

    public init(rate: Int, lead: Duration = Defaults.latency) {
        self.rate = rate
        self.lead = GainRamp.frames(in: lead, rate: rate)
    }

    /// Frames that should have been written `elapsed` after the start.
    public func framesDue(after elapsed: Duration) -> Int64 {
        let played = GainRamp.frames(in: elapsed, rate: rate)
        let (due, overflow) = played.addingReportingOverflow(lead)
        return overflow ? Int64.max : due
    }

    /// How long after the start the `frames`-th frame is due (for sleeping until then).
    public func timeDue(ofFrame frames: Int64) -> Duration {
        let played = max(0, frames - lead)
        guard rate > 0 else { return .zero }
        let (ns, overflow) = (played / Int64(rate)).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return .seconds(Int64.max / 1_000_000_000) }
        return .nanoseconds(ns + (played % Int64(rate)) * 1_000_000_000 / Int64(rate))
    }
}

/// The supervisor's rule for a stuck output: no progress for longer than the limit.
public struct StallWatch: Hashable, Sendable {
    public let limit: Duration
    public private(set) var lastProgress: Instant

    public init(limit: Duration = Defaults.stallLimit, start: Instant) {
        self.limit = limit
        lastProgress = start
    }

    public mutating func progressed(at now: Instant) { lastProgress = max(lastProgress, now) }

    public func isStalled(at now: Instant) -> Bool { now - lastProgress > limit }
}

/// A ring that ends by fading away (`wake sleep`): at its volume for `after` of audio, then down
/// to silence over `over` (the fade-in's curve backwards, even in loudness), silent from then on.
/// Counted in audio played, as `CrescendoPosition` counts it, so a fallback to another output
/// goes on from where the fade had come.
public struct FadeOut: Hashable, Sendable {
    public var after: Duration
    public var over: Duration
    public init(after: Duration, over: Duration) { self.after = max(.zero, after); self.over = max(.zero, over) }

    /// The factor on the ring's own gain for the frame `index` frames into the ring's audio, at `rate`.
    public func factor(atFrame index: Int64, rate: Int) -> Double {
        let start = GainRamp.frames(in: after, rate: rate), length = GainRamp.frames(in: over, rate: rate)
        guard index >= start else { return 1 }
        guard length > 0, index - start < length else { return 0 }
        return GainRamp.crescendo(1 - Double(index - start) / Double(length))
    }

    /// Applies the fade to `frames` interleaved frames that are `firstIndex` frames into the
    /// ring's audio; frames before its start pass untouched.
    public func apply<T: FixedWidthInteger>(to samples: UnsafeMutablePointer<T>, frames: Int, channels: Int, firstIndex: Int64, rate: Int) {
        guard firstIndex + Int64(frames) > GainRamp.frames(in: after, rate: rate) else { return }
        GainRamp.scale(samples, frames: frames, channels: channels) { factor(atFrame: firstIndex + Int64($0), rate: rate) }
    }
}
