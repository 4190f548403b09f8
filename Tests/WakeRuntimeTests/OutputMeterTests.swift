import Foundation
import Testing
import WakeCore
import WakeEngine
import WakeSystem

/// The output's own counters (`OutputMeter`), which `wake test` reports: the frames each device
/// accepted and the loudest sample written, checked against what ALSA's file PCM wrote.
@Suite("Output meter")
struct OutputMeterTests {
    /// The loudest |sample| of 16-bit little-endian audio.
    static func loudest(_ bytes: [UInt8]) -> Int {
        stride(from: 0, to: bytes.count - 1, by: 2).reduce(0) { m, i in
            max(m, Int(Int16(bitPattern: UInt16(bytes[i]) | UInt16(bytes[i + 1]) << 8).magnitude))
        }
    }

    @Test("on a file PCM: the frames accepted and the peak written after the gain, as the file has them")
    func countsWhatTheFileGot() throws {
        let dir = try SupervisedOutputTests.temporaryDirectory("meter")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("capture.raw").path
        let reactor = Reactor()
        let output = try SupervisedOutput(reactor: reactor, clock: SystemRuntimeClock(), bell: nil) { nil }
        var events: [OutputEvent] = []
        output.onEvent = { events.append($0) }
        #expect(output.meter.attempts.isEmpty, "nothing has rung")
        let before = SystemClock.monotonic
        output.start(RingRequest(sound: try RunnerTests.tone(), soundKind: .user, device: "file:'\(path)',raw", volume: 50))
        try SupervisedOutputTests.turn(reactor, for: .seconds(5)) { events.contains(.audible) }
        try SupervisedOutputTests.turn(reactor, for: .milliseconds(700)) { false }
        output.stop()
        output.finish(within: .seconds(2))

        let meter = output.meter
        let attempt = try #require(meter.attempts.first, "\(events)")
        #expect(meter.attempts.count == 1)
        #expect(attempt.device == "file:'\(path)',raw" && attempt.sound == .user && !attempt.serverBacked && attempt.rate == 8000)
        #expect(attempt.frames >= 2_000 && attempt.frames <= 16_000, "about 0.7 s at 8 kHz: \(attempt.frames)")
        #expect(abs(attempt.seconds - Double(attempt.frames) / 8000) < 1e-9)
        let first = try #require(attempt.firstFrame), stopped = try #require(attempt.stopRequested)
        #expect(first >= before && stopped > first, "\(first) \(stopped)")

        // The tone's own peak at --volume 50 (the gain rounds each sample: one step either way).
        let tonePeak = Self.loudest(Array(RunnerTests.toneWAV().dropFirst(44)))
        let expected = Double(tonePeak) / 2 / 32768
        #expect(abs(attempt.peak - expected) <= 1.5 / 32768, "peak \(attempt.peak), expected \(expected)")
        #expect(abs(Audibility.dBFS(meter.peak) - Audibility.dBFS(expected)) < 0.01)

        // What the device got: the same peak, and the frames the meter counted (and the stop's 10 ms fade).
        let written = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(Self.loudest(written) == Int((attempt.peak * 32768).rounded()), "file peak \(Self.loudest(written))")
        let fileFrames = Int64(written.count / 2)
        #expect(fileFrames >= attempt.frames - 800 && fileFrames <= attempt.frames + 800, "file \(fileFrames), meter \(attempt.frames)")
    }

    @Test("a device that does not open counts as an attempt that took nothing; the next step's frames are its own")
    func fallbackAttempts() throws {
        let reactor = Reactor()
        let output = try SupervisedOutput(reactor: reactor, clock: SystemRuntimeClock(), bell: nil) { try? RunnerTests.tone() }
        var events: [OutputEvent] = []
        output.onEvent = { events.append($0) }
        output.start(RingRequest(sound: try RunnerTests.tone(), soundKind: .user, device: "wake_no_such_pcm"))
        try SupervisedOutputTests.turn(reactor, for: .seconds(5)) { events.contains(.audible) }
        try SupervisedOutputTests.turn(reactor, for: .milliseconds(300)) { false }
        output.finish(within: .seconds(2))
        let attempts = output.meter.attempts
        #expect(attempts.count >= 2, "\(attempts) \(events)")
        #expect(attempts.first?.device == "wake_no_such_pcm" && attempts.first?.frames == 0 && attempts.first?.peak == 0)
        if events.contains(.audible) {
            #expect(attempts.dropFirst().contains { $0.frames > 0 && $0.peak > 0 }, "\(attempts)")
        }
    }
}
