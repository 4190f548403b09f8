import Foundation
import Glibc
import Testing
import WakeCore
import WakeEngine
import WakeSystem

/// The real output workers on ALSA's null and file PCMs, supervised from a real reactor.
@Suite("Supervised output")
struct SupervisedOutputTests {
    /// A fresh directory, removed by the caller's defer.
    static func temporaryDirectory(_ label: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wake-\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Turns the reactor until `done` or the limit; returns the longest single turn, which shows
    /// whether anything blocked the loop.
    @discardableResult
    static func turn(_ reactor: Reactor, for limit: Duration, until done: () -> Bool) throws -> Duration {
        let end = ContinuousClock.now + limit
        var longest = Duration.zero
        while !done() && ContinuousClock.now < end {
            let t0 = ContinuousClock.now
            try reactor.runOnce(timeout: .milliseconds(50))
            longest = max(longest, ContinuousClock.now - t0)
        }
        return longest
    }

    @Test("rings on null, paced to real time, and stops with a sound_stopped report")
    func ringsAndStops() throws {
        let reactor = Reactor()
        let output = try SupervisedOutput(reactor: reactor, clock: SystemRuntimeClock(), bell: nil) { nil }
        var events: [OutputEvent] = []
        output.onEvent = { events.append($0) }
        output.start(RingRequest(sound: try RunnerTests.tone(), soundKind: .user, device: "null"))
        try Self.turn(reactor, for: .seconds(5)) { events.contains(.audible) }
        try Self.turn(reactor, for: .milliseconds(500)) { false }
        output.finish(within: .seconds(2))
        guard case .stopped(let frames, _)? = events.last else { Issue.record("no stopped report: \(events)"); return }
        // 0.5 s at 8 kHz plus the 100 ms lead; generous bounds for a busy machine.
        #expect(frames >= 2_000 && frames <= 16_000, "\(frames) frames in about half a second")
    }

    @Test("the pre-roll opens the device and writes nothing until the start, which adopts it; one made for another ring is closed unheard")
    func prerollIsAdoptedOrDiscarded() throws {
        let dir = try Self.temporaryDirectory("preroll")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("first.raw").path, second = dir.appendingPathComponent("second.raw").path
        func size(_ path: String) -> Int? { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil }
        let reactor = Reactor()
        let output = try SupervisedOutput(reactor: reactor, clock: SystemRuntimeClock(), bell: nil) { nil }
        var events: [OutputEvent] = []
        output.onEvent = { events.append($0) }
        let sound = try RunnerTests.tone()
        let ring = RingRequest(sound: sound, soundKind: .user, device: "file:'\(first)',raw")
        output.prepare(ring)
        // ALSA's file PCM creates its file when it is configured: the device is open, silent.
        try Self.turn(reactor, for: .seconds(5)) { size(first) != nil }
        try Self.turn(reactor, for: .milliseconds(300)) { false }
        #expect(size(first) == 0 && events.isEmpty, "before the deadline: \(String(describing: size(first))) bytes, \(events)")
        output.start(ring)
        try Self.turn(reactor, for: .seconds(5)) { events.contains(.audible) }
        #expect(events.first.map { if case .opened = $0 { true } else { false } } == true, "\(events)")
        try Self.turn(reactor, for: .seconds(5)) { (size(first) ?? 0) > 0 }  // the file PCM writes a period at a time
        #expect((size(first) ?? 0) > 0)
        output.stop()

        // Prepared for one ring, started for another: the prepared device is closed unheard.
        events = []
        output.prepare(RingRequest(sound: sound, soundKind: .user, device: "file:'\(second)',raw"))
        try Self.turn(reactor, for: .seconds(5)) { size(second) != nil }
        output.start(RingRequest(sound: sound, soundKind: .user, device: "null"))
        try Self.turn(reactor, for: .seconds(5)) { events.contains(.audible) }
        #expect(events.contains { if case .opened(let d, _, _) = $0 { d == "null" } else { false } }, "\(events)")
        output.finish(within: .seconds(2))
        #expect(size(second) == 0)

        // Prepared, then not needed (the alarm was cancelled): closed, nothing said.
        let third = dir.appendingPathComponent("third.raw").path
        let quiet = try SupervisedOutput(reactor: reactor, clock: SystemRuntimeClock(), bell: nil) { nil }
        var quietEvents: [OutputEvent] = []
        quiet.onEvent = { quietEvents.append($0) }
        quiet.prepare(RingRequest(sound: sound, soundKind: .user, device: "file:'\(third)',raw"))
        try Self.turn(reactor, for: .seconds(5)) { size(third) != nil }
        quiet.discardPrepared()
        quiet.finish(within: .seconds(2))
        #expect(quietEvents.isEmpty && size(third) == 0, "\(quietEvents)")
    }

    @Test("a pre-roll whose device does not open changes nothing: the ring falls back as it would, and nothing is left to wait for at exit")
    func prerollOnAFailingDevice() throws {
        let reactor = Reactor()
        let output = try SupervisedOutput(reactor: reactor, clock: SystemRuntimeClock(), bell: nil) { try? RunnerTests.tone() }
        var events: [OutputEvent] = []
        output.onEvent = { events.append($0) }
        let ring = RingRequest(sound: try RunnerTests.tone(), soundKind: .user, device: "wake_no_such_pcm")
        output.prepare(ring)
        try Self.turn(reactor, for: .milliseconds(300)) { false }
        #expect(events.isEmpty, "\(events)")
        output.start(ring)
        try Self.turn(reactor, for: .seconds(5)) { events.contains(.audible) }
        let fallback = events.first { if case .fallback = $0 { true } else { false } }
        guard case .fallback(let from, _, let reason)? = fallback else { Issue.record("no fallback: \(events)"); return }
        #expect(from.contains("wake_no_such_pcm") && reason.contains("no such ALSA device"), "\(from): \(reason)")
        // Prepared again on the failing device, then not needed: the exit does not wait for it.
        output.stop()
        output.prepare(ring)
        try Self.turn(reactor, for: .milliseconds(300)) { false }
        output.discardPrepared()
        let exiting = ContinuousClock.now
        output.finish(within: .seconds(3))
        #expect(ContinuousClock.now - exiting < .seconds(2), "finish took \(ContinuousClock.now - exiting)")
    }

    @Test("a healthy ring wakes the loop once per stall limit, not every second, and is never taken for stalled")
    func healthyRingWatchdogLooksOncePerLimit() throws {
        let reactor = Reactor()
        let output = try SupervisedOutput(reactor: reactor, clock: SystemRuntimeClock(), bell: nil) { nil }
        output.stallLimit = .seconds(3)
        var events: [OutputEvent] = []
        output.onEvent = { events.append($0) }
        output.start(RingRequest(sound: try RunnerTests.tone(), soundKind: .user, device: "null"))
        try Self.turn(reactor, for: .seconds(5)) { events.contains(.audible) }
        // Progress on null is a counter the watchdog reads, not a report: only its ticks return
        // from the loop. Ticking every second, no wait would last much over 1 s; looking once
        // per 3 s limit, some wait lasts about 3 s. (A count of returns was not steady enough
        // under AddressSanitizer on a loaded machine, where a late tick resyncs at 1 s.)
        var longest = Duration.zero
        let end = ContinuousClock.now + .seconds(8)
        while ContinuousClock.now < end {
            let t0 = ContinuousClock.now
            try reactor.runOnce(timeout: end - t0)
            longest = max(longest, ContinuousClock.now - t0)
        }
        #expect(longest >= .seconds(2), "the longest wait of the loop was \(longest)")
        #expect(!events.contains { if case .fallback = $0 { true } else { false } }, "\(events)")
        output.finish(within: .seconds(2))
        guard case .stopped(let frames, _)? = events.last else { Issue.record("no stopped report: \(events)"); return }
        #expect(frames >= 8_000 * 7, "\(frames) frames in over 8 s at 8 kHz")
    }

    @Test("a device that blocks forever is abandoned within the stall limit, and the loop never blocks")
    func stalledDeviceFallsBack() throws {
        let dir = try Self.temporaryDirectory("stall")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer {
            // Let the abandoned worker's open() finish, so its thread can end.
            let fd = open(fifo, O_RDONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
        }
        let reactor = Reactor()
        let output = try SupervisedOutput(reactor: reactor, clock: SystemRuntimeClock(), bell: nil) { nil }
        output.stallLimit = .milliseconds(1500)
        var events: [OutputEvent] = []
        output.onEvent = { events.append($0) }
        let started = ContinuousClock.now
        // ALSA's file plugin opens its file at the first write: on a FIFO with no reader that
        // open blocks, as a plugin behind a frozen sound server does.
        output.start(RingRequest(sound: try RunnerTests.tone(), soundKind: .user, device: "file:'\(fifo)',raw"))
        let longest = try Self.turn(reactor, for: .seconds(8)) {
            events.contains { if case .fallback = $0 { true } else { false } }
        }
        let fallback = events.first { if case .fallback = $0 { true } else { false } }
        guard case .fallback(_, _, let reason)? = fallback else { Issue.record("no fallback: \(events)"); return }
        #expect(reason.contains("did not answer"), "\(reason)")
        #expect(ContinuousClock.now - started < .seconds(6))
        #expect(longest < .seconds(1), "one turn of the loop took \(longest)")
        output.finish(within: .milliseconds(200))
    }

    /// Issue 37 (10): each new worker started the crescendo again from -40 dB. Here a 4 s fade
    /// plays about 2 s of the user's file on a file PCM, the file is truncated (a fallback to
    /// the built-in sound on the same device), and the new worker's first tenth of a second
    /// must be at the level reached (about -19.5 dB, 1,270 of the tone's 12,000), not -40 dB (120).
    @Test("a fallback mid-crescendo goes on from the level reached, not from -40 dB")
    func crescendoResumesAfterFallback() throws {
        let dir = try Self.temporaryDirectory("crescendo")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("alarm.wav").path, capture = dir.appendingPathComponent("capture.raw").path
        try Data(RunnerTests.toneWAV(frames: 24_000)).write(to: URL(fileURLWithPath: path))
        let sound = try SoundFile(path: path)
        let reactor = Reactor()
        let output = try SupervisedOutput(reactor: reactor, clock: SystemRuntimeClock(), bell: nil) { try? RunnerTests.tone() }
        var events: [OutputEvent] = []
        output.onEvent = { events.append($0) }
        output.start(RingRequest(sound: sound, soundKind: .user, device: "file:'\(capture)',raw", fadeIn: .seconds(4)))
        try Self.turn(reactor, for: .seconds(5)) { events.contains(.audible) }
        // The first chunk (16,384 frames, about 2 s) is read; the next read finds the file empty.
        #expect(truncate(path, 0) == 0)
        try Self.turn(reactor, for: .seconds(10)) { events.filter { $0 == .audible }.count >= 2 }
        try Self.turn(reactor, for: .milliseconds(600)) { false }
        output.finish(within: .seconds(2))
        let fallback = events.first { if case .fallback = $0 { true } else { false } }
        guard case .fallback(_, let to, _)? = fallback else { Issue.record("no fallback: \(events)"); return }
        #expect(to.hasPrefix("built-in sound on "), "\(events)")
        // The file PCM starts its file again when the next worker opens it: what it holds is
        // the second worker's audio (the first's 16,384 frames come first if it does not).
        let bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: capture))) ?? Data())
        let samples = stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
        let second = samples.count > 16_384 + 800 && samples.count >= 24_000 ? Array(samples[16_384...]) : samples
        #expect(second.count >= 800, "\(samples.count) samples captured")
        let peak = second.prefix(800).map { Int(abs(Int32($0))) }.max() ?? 0
        #expect(peak > 800 && peak < 3000, "the new worker's first 0.1 s peaks at \(peak): -40 dB is 120, the level reached about 1,270")
    }

    @Test("a sound that stops decoding falls back to the built-in sound on the same device")
    func decodeFailureFallsBackToBuiltIn() throws {
        let dir = try Self.temporaryDirectory("trunc")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("alarm.wav").path
        // A file the alarm opened, then truncated during the night.
        let wav = RunnerTests.toneWAV(frames: 8000)
        try Data(wav).write(to: URL(fileURLWithPath: path))
        let sound = try SoundFile(path: path)
        #expect(truncate(path, 0) == 0)

        let reactor = Reactor()
        let output = try SupervisedOutput(reactor: reactor, clock: SystemRuntimeClock(), bell: nil) { try? RunnerTests.tone() }
        var events: [OutputEvent] = []
        output.onEvent = { events.append($0) }
        output.start(RingRequest(sound: sound, soundKind: .user, device: "null"))
        try Self.turn(reactor, for: .seconds(5)) { events.filter { $0 == .audible }.count >= 1 && events.contains { if case .fallback = $0 { true } else { false } } }
        output.finish(within: .seconds(1))
        let fallback = events.first { if case .fallback = $0 { true } else { false } }
        guard case .fallback(let from, let to, _)? = fallback else { Issue.record("no fallback: \(events)"); return }
        #expect(from == "null")
        #expect(to == "built-in sound on null")
        #expect(!events.contains { if case .failed = $0 { true } else { false } })
    }

    /// `--say on`: the clip belongs to the ring, not to one sound or device. The user's file is
    /// truncated in the night; the chain falls back to the built-in sound on the same device,
    /// and that sound speaks after its first loop, in its own format (prepared at arm time).
    @Test("the speech follows the fallback chain: the built-in sound speaks after its first loop")
    func speechFollowsFallback() throws {
        let dir = try Self.temporaryDirectory("speech")
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("alarm.wav").path, capture = dir.appendingPathComponent("capture.raw").path
        try Data(RunnerTests.toneWAV(frames: 8000)).write(to: URL(fileURLWithPath: path))
        let sound = try SoundFile(path: path)
        #expect(truncate(path, 0) == 0)
        // A clip of a tenth of a second at espeak-ng's rate, one value throughout: 800 frames at 8 kHz.
        let speech = RingSpeech(SpeechClip(samples: [Int16](repeating: 20_000, count: 2205), rate: 22050, text: "test"))
        speech.prepare(for: [sound, try RunnerTests.tone()])
        let reactor = Reactor()
        let output = try SupervisedOutput(reactor: reactor, clock: SystemRuntimeClock(), bell: nil) { try? RunnerTests.tone() }
        var events: [OutputEvent] = []
        output.onEvent = { events.append($0) }
        output.start(RingRequest(sound: sound, soundKind: .user, device: "file:'\(capture)',raw", speech: speech))
        func captured() -> [Int16] {
            let bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: capture))) ?? Data())
            return stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
        }
        try Self.turn(reactor, for: .seconds(15)) { captured().count >= 4000 + 800 + 4000 }
        output.finish(within: .seconds(2))
        let fallback = events.first { if case .fallback = $0 { true } else { false } }
        guard case .fallback(_, let to, _)? = fallback else { Issue.record("no fallback: \(events)"); return }
        #expect(to.hasPrefix("built-in sound on "), "\(events)")
        let wav = RunnerTests.toneWAV(frames: 4000)
        let tone = stride(from: 44, to: wav.count - 1, by: 2).map { Int16(bitPattern: UInt16(wav[$0]) | UInt16(wav[$0 + 1]) << 8) }
        let samples = captured()
        try #require(samples.count >= 8800, "\(samples.count) samples captured")
        #expect(Array(samples[0..<4000]) == tone, "the built-in sound's first loop")
        #expect(samples[4000..<4800].allSatisfy { $0 == 20_000 }, "the clip between the loops, at the sound's rate")
        #expect(Array(samples[4800..<8800]) == tone, "the second loop after the clip")
    }

    /// A stop while the speech plays fades the speech out, as a stop fades the sound: not 10 ms
    /// of the sound from wherever the file stands (a click, then a blip of the alarm).
    @Test("a stop during the speech fades the speech out")
    func stopDuringSpeechFadesIt() throws {
        let dir = try Self.temporaryDirectory("speech-stop")
        defer { try? FileManager.default.removeItem(at: dir) }
        let capture = dir.appendingPathComponent("capture.raw").path
        let sound = try RunnerTests.tone()  // 4,000 frames at 8 kHz
        // Two seconds of one value: 16,000 frames at 8 kHz.
        let speech = RingSpeech(SpeechClip(samples: [Int16](repeating: 20_000, count: 44_100), rate: 22050, text: "test"))
        speech.prepare(for: [sound])
        let reactor = Reactor()
        let output = try SupervisedOutput(reactor: reactor, clock: SystemRuntimeClock(), bell: nil) { nil }
        var events: [OutputEvent] = []
        output.onEvent = { events.append($0) }
        output.start(RingRequest(sound: sound, soundKind: .user, device: "file:'\(capture)',raw", speech: speech))
        func captured() -> [Int16] {
            let bytes = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: capture))) ?? Data())
            return stride(from: 0, to: bytes.count - 1, by: 2).map { Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8) }
        }
        // Half a second into the speech (the file PCM is written a period at a time).
        try Self.turn(reactor, for: .seconds(15)) { captured().count >= 4000 + 4000 }
        output.stop()
        output.finish(within: .seconds(2))
        let samples = captured()
        try #require(samples.count > 8000 && samples.count < 4000 + 16_000, "\(samples.count) samples: stopped inside the speech")
        // The speech until the stop, then 80 frames (10 ms) falling from it to silence.
        let fade = samples.suffix(80)
        #expect(samples[4000..<(samples.count - 80)].allSatisfy { $0 == 20_000 }, "speech up to the fade")
        #expect(fade.allSatisfy { $0 >= 0 && $0 <= 20_000 } && zip(fade, fade.dropFirst()).allSatisfy { $0 >= $1 },
                "the fade falls from the speech: \(Array(fade))")
        #expect((fade.first ?? 0) > 19_000 && (fade.last ?? 20_000) < 300, "\(Array(fade))")
        #expect(events.contains { if case .stopped = $0 { true } else { false } }, "\(events)")
    }

    @Test("a folder's files at ring time: opened by the worker in order, a missing and a broken one passed over and said, the next rings; none left: wake's own sound")
    func entriesFallToTheNextThenTheBuiltInSound() throws {
        let dir = try Self.temporaryDirectory("entries")
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = dir.appendingPathComponent("gone.wav").path
        let broken = dir.appendingPathComponent("broken.wav").path
        let good = dir.appendingPathComponent("good.wav").path
        try Data("not a sound".utf8).write(to: URL(fileURLWithPath: broken))
        try Data(RunnerTests.toneWAV()).write(to: URL(fileURLWithPath: good))
        let reactor = Reactor()
        let builtIn = try RunnerTests.tone()
        let output = try SupervisedOutput(reactor: reactor, clock: SystemRuntimeClock(), bell: nil) { builtIn }
        var events: [OutputEvent] = []
        output.onEvent = { events.append($0) }
        // The request's own `sound` is not what rings: the entries are.
        output.start(RingRequest(sound: builtIn, soundKind: .user, device: "null", entries: [missing, broken, good]))
        try Self.turn(reactor, for: .seconds(10)) { events.contains(.audible) }
        let failed = events.compactMap { if case .entryFailed(let p, let n, _) = $0 { (p, n) } else { nil } }
        #expect(failed.map(\.0) == [missing, broken] && failed.map(\.1) == [broken, good], "\(events)")
        #expect(events.contains(.soundChosen(path: good)), "\(events)")
        #expect(!events.contains { if case .fallback = $0 { true } else { false } }, "no fallback past the folder: \(events)")
        #expect(!events.contains(.builtInChosen), "\(events)")
        output.stop()

        // None of them opens: wake's built-in sound on the same device, as for a single file.
        events = []
        output.start(RingRequest(sound: builtIn, soundKind: .user, device: "null", entries: [missing, broken]))
        try Self.turn(reactor, for: .seconds(10)) { events.contains(.audible) }
        let fallback = events.compactMap { if case .fallback(let from, let to, let reason) = $0 { (from, to, reason) } else { nil } }
        #expect(fallback.first?.1 == "built-in sound on null" && fallback.first?.2.contains("gone.wav") == true, "\(events)")
        // Said as such, after the fallback: what rings is no file of the folder (the ring line, the event, the notice).
        #expect(events.firstIndex(of: .builtInChosen).map {
                    $0 > (events.firstIndex { if case .fallback = $0 { true } else { false } } ?? .max)
                } == true,
                "\(events)")
        #expect(!events.contains { if case .soundChosen = $0 { true } else { false } }, "\(events)")
        #expect(events.contains(.audible))
        output.finish(within: .seconds(2))
    }

    @Test("a folder's file that stops decoding mid-ring (truncated in place) gives way to the next file, not to wake's own sound")
    func entryBrokenMidRingFallsToTheNext() throws {
        let dir = try Self.temporaryDirectory("midring")
        defer { try? FileManager.default.removeItem(at: dir) }
        let first = dir.appendingPathComponent("first.wav").path
        let second = dir.appendingPathComponent("second.wav").path
        try Data(RunnerTests.toneWAV(frames: 40_000)).write(to: URL(fileURLWithPath: first))  // 5 s at 8 kHz: several chunks
        try Data(RunnerTests.toneWAV()).write(to: URL(fileURLWithPath: second))
        let reactor = Reactor()
        let builtIn = try RunnerTests.tone()
        let output = try SupervisedOutput(reactor: reactor, clock: SystemRuntimeClock(), bell: nil) { builtIn }
        var events: [OutputEvent] = []
        output.onEvent = { events.append($0) }
        output.start(RingRequest(sound: builtIn, soundKind: .user, device: "null", entries: [first, second]))
        try Self.turn(reactor, for: .seconds(10)) { events.contains(.audible) }
        #expect(events.contains(.soundChosen(path: first)), "\(events)")
        #expect(truncate(first, 44) == 0)
        try Self.turn(reactor, for: .seconds(15)) { events.contains(.soundChosen(path: second)) }
        let failed = events.compactMap { if case .entryFailed(let p, let n, _) = $0 { (p, n) } else { nil } }
        #expect(failed.count == 1 && failed.first?.0 == first && failed.first?.1 == second, "\(events)")
        #expect(!events.contains { if case .fallback = $0 { true } else { false } }, "\(events)")
        output.finish(within: .seconds(2))
    }
}
