import Foundation
import Testing
@testable import WakeTestSupport

/// F. The sound loops sample-exactly: rung into ALSA's `file` PCM (raw S16_LE capture), every
/// repetition equals the source, with nothing added or lost at the seam.

struct LoopCase: Sendable, CustomTestStringConvertible {
    var rate: Int
    var channels: Int
    var flac: Bool
    var testDescription: String { "\(flac ? "FLAC" : "WAV") \(channels == 1 ? "mono" : "stereo") \(rate) Hz" }
    var fileName: String { "source-\(channels)ch-\(rate).\(flac ? "flac" : "wav")" }
}

/// Makes the source, decodes it independently, rings it with `extra` options and returns both.
func ringIntoCapture(_ c: LoopCase, ringFor: String, extra: [String] = [],
                     sourceLocation: SourceLocation = #_sourceLocation) async throws -> (source: PCMData, capture: PCMData) {
    let dir = try TestDirectory()
    let sound = try await makeSound(in: dir, name: c.fileName, rate: c.rate, channels: c.channels)
    let source = c.flac
        ? try await decodeWithSox(sound, channels: c.channels, rate: c.rate, in: dir)
        : try readWAV(sound)
    try #require(source.channels == c.channels && source.sampleRate == c.rate, sourceLocation: sourceLocation)
    try #require(source.frameCount > c.rate, "source too short: \(source.frameCount) frames", sourceLocation: sourceLocation)

    let capturePath = dir.file("capture.raw")
    let r = try await WakeProcess.run(["now", "-s", sound, "-D", "file:'\(capturePath)',raw", "--ring-for", ringFor] + extra,
                                      timeout: .seconds(30))
    #expect(r.exitCode == 4, "\(r)", sourceLocation: sourceLocation)
    let capture = try readRaw(capturePath, channels: c.channels, rate: c.rate)
    #expect(capture.samples.count % c.channels == 0, "the capture holds a partial frame", sourceLocation: sourceLocation)
    return (source, capture)
}

/// The first frame in `from..<to` where the capture differs from the source looped end to end.
func firstLoopMismatch(_ capture: PCMData, _ source: PCMData, from: Int, to: Int) -> Int? {
    let ch = source.channels
    let period = source.samples.count
    return capture.samples.withUnsafeBufferPointer { cap in
        source.samples.withUnsafeBufferPointer { src in
            var j = (from * ch) % period
            for i in (from * ch)..<(to * ch) {
                if cap[i] != src[j] { return i / ch }
                j += 1
                if j == period { j = 0 }
            }
            return nil
        }
    }
}

func describeFrames(_ d: PCMData, _ frame: Int, count: Int = 4) -> String {
    (frame..<min(d.frameCount, frame + count)).map { "\(Array(d.frame($0)))" }.joined(separator: " ")
}

@Suite("F. Sample-exact loop")
struct SampleExactLoopTests {
    static let cases = [
        LoopCase(rate: 44100, channels: 1, flac: false),
        LoopCase(rate: 44100, channels: 2, flac: false),
        LoopCase(rate: 48000, channels: 1, flac: false),
        LoopCase(rate: 48000, channels: 2, flac: false),
        LoopCase(rate: 44100, channels: 2, flac: true),
    ]

    @Test("every repetition in the capture equals the source", arguments: cases)
    func loopIsExact(c: LoopCase) async throws {
        let (source, capture) = try await ringIntoCapture(c, ringFor: "3s")
        let L = source.frameCount
        let N = capture.frameCount
        // 3 s of a 1.2345 s sound: at least two whole repetitions, so at least one seam.
        #expect(N >= 2 * L, "capture too short: \(N) frames, source \(L)")
        // Everything up to the last 30 ms (where the 10 ms stop fade-out is) is the source looped.
        let end = max(0, N - Int(0.03 * Double(c.rate)))
        if let bad = firstLoopMismatch(capture, source, from: 0, to: end) {
            let k = bad % L
            Issue.record("""
                frame \(bad) of \(N) (repetition \(bad / L), frame \(k) of \(L)) differs:
                capture \(describeFrames(capture, bad)), source \(describeFrames(source, k))
                """)
        }
    }

    @Test("--volume 50 halves every sample (rounded) over the first loop")
    func halfVolume() async throws {
        let c = LoopCase(rate: 44100, channels: 2, flac: false)
        let (source, capture) = try await ringIntoCapture(c, ringFor: "2s", extra: ["--volume", "50"])
        let L = source.frameCount
        try #require(capture.frameCount >= L, "capture shorter than one loop: \(capture.frameCount) < \(L)")
        var bad: Int?
        for i in 0..<(L * c.channels) where abs(2 * Int(capture.samples[i]) - Int(source.samples[i])) > 1 {
            bad = i
            break
        }
        if let bad {
            Issue.record("sample \(bad): capture \(capture.samples[bad]), source \(source.samples[bad]) × 0.5 = \(Double(source.samples[bad]) * 0.5)")
        }
        // Not silent and not the source itself.
        #expect(capture.samples.prefix(L * c.channels).contains { $0 != 0 })
    }

    @Test("--fade-in 1s: starts at -40 dB, rises evenly in decibels, then equals the source")
    func fadeIn() async throws {
        let c = LoopCase(rate: 44100, channels: 2, flac: false)
        let (source, capture) = try await ringIntoCapture(c, ringFor: "3s", extra: ["--fade-in", "1s"])
        let L = source.frameCount
        let N = capture.frameCount
        let fade = c.rate  // 1 s
        try #require(N > fade + L / 2, "capture too short: \(N) frames")

        // The first frame is at -40 dB: a hundredth of the source's (rounded).
        for (s, src) in zip(capture.frame(0), source.frame(0)) {
            #expect(abs(Int(s)) <= abs(Int(src)) / 100 + 1, "first frame \(Array(capture.frame(0))), source \(Array(source.frame(0)))")
        }

        // Over the fade, the gain (capture against source, per 50 ms window) rises from ~0 to ~1.
        let window = c.rate / 20
        var gains: [Double] = []
        for w in stride(from: 0, to: fade, by: window) {
            var num = 0.0, den = 0.0
            for i in (w * c.channels)..<((w + window) * c.channels) {
                let s = Double(source.samples[i % (L * c.channels)])
                num += Double(capture.samples[i]) * s
                den += s * s
            }
            gains.append(den > 0 ? num / den : 0)
        }
        #expect(gains.first! < 0.1, "gains \(gains)")
        // A crescendo linear in decibels: -30 dB at a quarter, -20 dB (a tenth) half-way, -10 dB
        // at three quarters (a ramp linear in amplitude would give 0.25, 0.5, 0.75).
        func level(at fraction: Double) -> Double {
            let half = c.rate / 100, mid = Int(fraction * Double(fade))
            var num = 0.0, den = 0.0
            for i in ((mid - half) * c.channels)..<((mid + half) * c.channels) {
                let s = Double(source.samples[i % (L * c.channels)])
                num += Double(capture.samples[i]) * s
                den += s * s
            }
            return den > 0 ? num / den : 0
        }
        for (fraction, expected) in [(0.25, 0.031_62), (0.5, 0.1), (0.75, 0.316_2)] {
            let measured = level(at: fraction)
            #expect(abs(measured / expected - 1) < 0.1, "level at \(fraction) of the fade: \(measured), expected \(expected)")
        }
        #expect(gains.last! > 0.8, "gains \(gains)")
        for (a, b) in zip(gains, gains.dropFirst()) { #expect(b >= a - 0.02, "gain falls during the fade: \(gains)") }
        #expect(gains.allSatisfy { $0 >= -0.01 && $0 <= 1.01 }, "gains \(gains)")
        // No sample louder than its source during the fade.
        let louder = (0..<(fade * c.channels)).first { i in
            abs(Int(capture.samples[i])) > abs(Int(source.samples[i % (L * c.channels)])) + 1
        }
        #expect(louder == nil, "sample \(louder ?? -1) is louder than the source")

        // From 1 s on, the capture is the source looped, exactly (up to the final fade-out).
        let end = max(fade, N - Int(0.03 * Double(c.rate)))
        if let bad = firstLoopMismatch(capture, source, from: fade, to: end) {
            Issue.record("after the fade, frame \(bad) differs: capture \(describeFrames(capture, bad)), source \(describeFrames(source, bad % L))")
        }
    }
}
