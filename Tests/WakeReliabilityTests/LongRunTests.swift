import Foundation
import Glibc
import Testing
import WakeCore
import WakeEngine
import WakeSystem
@testable import WakeTestSupport

/// R4. Long runs: a tiny sound looped a million times unpaced (hidden `--unpaced`) into ALSA's
/// `file` PCM must come out as exactly the file repeated, with memory flat; and 10,000 arm /
/// cancel cycles of the system wrappers in one process must leak no descriptor.
/// The million-seam and memory runs are long: they run under `make stress` (WAKE_STRESS=1).

/// Checks that `capture` (raw S16_LE bytes) is `pattern` (one loop of the sound, raw bytes)
/// repeated, over its first `bytes` bytes. Returns the first differing frame, if any.
func firstMismatch(capture: [UInt8], pattern: [UInt8], bytes: Int, frameBytes: Int) -> Int? {
    let repeats = max(1, 65_536 / pattern.count)
    let block = Array([[UInt8]](repeating: pattern, count: repeats).joined())
    return capture.withUnsafeBytes { cap -> Int? in
        block.withUnsafeBytes { blk -> Int? in
            var offset = 0
            while offset < bytes {
                let n = min(block.count, bytes - offset)
                if memcmp(cap.baseAddress! + offset, blk.baseAddress!, n) != 0 {
                    for i in 0..<n where cap[offset + i] != blk[i] { return (offset + i) / frameBytes }
                }
                offset += n
            }
            return nil
        }
    }
}

struct SeamRun {
    var result: ProcessResult
    var frames: Int
    var seams: Int
    var captureFrames: Int
    var mismatch: Int?
    var report: String
}

/// Rings a `loopFrames`-frame mono WAV unpaced into a file PCM for `ringFor`, and checks the capture.
func ringTinyLoop(loopFrames: Int, ringFor: String) async throws -> SeamRun {
    let dir = try TestDirectory("wake-seams")
    let samples = distinctSamples(loopFrames)
    let sound = try writeWAV(in: dir, name: "tiny-\(loopFrames).wav", samples: samples)
    let capture = dir.file("capture.raw")
    let wake = try DetachedWake(["now", "-s", sound, "-D", "file:'\(capture)',raw", "--unpaced", "--ring-for", ringFor,
                                 "--inhibit", "off", "-q"], directory: dir)
    let r = await wake.wait(timeout: .seconds(120))
    let stopped = wake.events.first { $0.name == "sound_stopped" }
    let frames = (stopped?["frames"]).flatMap { Int($0) } ?? -1
    let seams = (stopped?["seams"]).flatMap { Int($0) } ?? -1
    let bytes = fileBytes(capture) ?? []
    let pattern = samples.flatMap { [UInt8(truncatingIfNeeded: UInt16(bitPattern: $0)), UInt8(truncatingIfNeeded: UInt16(bitPattern: $0) >> 8)] }
    // All but the last 20 ms (the fade-out of a stop) must be the sound looped, exactly.
    let fadeBytes = 44_100 / 50 * 2
    let mismatch = firstMismatch(capture: bytes, pattern: pattern, bytes: max(0, bytes.count - fadeBytes), frameBytes: 2)
    return SeamRun(result: r, frames: frames, seams: seams, captureFrames: bytes.count / 2, mismatch: mismatch,
                   report: wake.report(r))
}

/// `ringTinyLoop` for `ringFor`, and again for `longer` when a loaded machine passed fewer than
/// `enough` seams, every one of them exact: ring longer rather than fail on speed.
func ringTinyLoop(loopFrames: Int, ringFor: String, orFor longer: String, enough: Int) async throws -> SeamRun {
    let run = try await ringTinyLoop(loopFrames: loopFrames, ringFor: ringFor)
    guard run.seams < enough && run.mismatch == nil && run.result.exitCode == 4 else { return run }
    return try await ringTinyLoop(loopFrames: loopFrames, ringFor: longer)
}

func expectExactLoop(_ run: SeamRun, loopFrames: Int, minimumSeams: Int, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(run.result.exitCode == 4, "\(run.report)", sourceLocation: sourceLocation)
    #expect(run.frames > 0 && run.seams >= 0, "no sound_stopped event with frames and seams: \(run.report)", sourceLocation: sourceLocation)
    #expect(run.seams >= minimumSeams, "only \(run.seams) seams in the run", sourceLocation: sourceLocation)
    if let bad = run.mismatch {
        Issue.record("capture frame \(bad) of \(run.captureFrames) differs from the loop (repetition \(bad / loopFrames), frame \(bad % loopFrames))",
                     sourceLocation: sourceLocation)
    }
    // Every frame written reached the capture, followed by at most the 20 ms fade-out.
    let extra = run.captureFrames - run.frames
    #expect(extra >= 0 && extra <= 44_100 / 50, "capture \(run.captureFrames) frames, written \(run.frames)", sourceLocation: sourceLocation)
    // Seams counted = loops read: frames written / loop length, plus at most the one 16384-frame
    // chunk read ahead of the device.
    let expected = run.frames / loopFrames
    #expect(run.seams >= expected - 1 && run.seams <= expected + 16384 / loopFrames + 1,
            "seams \(run.seams) for \(run.frames) frames of a \(loopFrames)-frame loop", sourceLocation: sourceLocation)
}

/// Peak and final resident memory of an unpaced ring, sampled from /proc every 50 ms.
func memoryOfUnpacedRing(_ ringFor: String, sound: String) async throws -> (hwm: Int, rssEarly: Int, rssLate: Int, seams: Int) {
    let wake = try DetachedWake(["now", "-s", sound, "-D", "null", "--unpaced", "--ring-for", ringFor, "--inhibit", "off", "-q"])
    try await wake.waitForEvent("ringing")
    let start = ContinuousClock.now
    var hwm = 0, rssEarly = 0, rssLate = 0
    while !wake.hasExited {
        if let h = procStatusKB(wake.pid, "VmHWM") { hwm = max(hwm, h) }
        // Anonymous memory, where a leak would show: a ring gives back its start-up code once
        // audible and maps back what it runs, so its file pages fall and then rise again.
        if let r = procStatusKB(wake.pid, "RssAnon") {
            if ContinuousClock.now - start < .milliseconds(700) { rssEarly = r }
            rssLate = r
        }
        try await Task.sleep(for: .milliseconds(50))
    }
    let r = await wake.wait()
    #expect(r.exitCode == 4, "\(wake.report(r))")
    let seams = (wake.events.first { $0.name == "sound_stopped" }?["seams"]).flatMap { Int($0) } ?? -1
    return (hwm, rssEarly, rssLate, seams)
}

@Suite("R4. Long runs")
struct LongRunTests {
    @Test("a 13-frame sound rung unpaced for 1 s: the capture is the sound repeated, seam after seam")
    func quickSeams() async throws {
        // A starved machine (ASan, both cores busy): in one CI run the second ran out before the
        // first frame was written.
        let run = try await ringTinyLoop(loopFrames: 13, ringFor: "1s", orFor: "5s", enough: 1_000)
        // Thousands of seams even under ASan on a loaded machine; the point is that each is exact.
        expectExactLoop(run, loopFrames: 13, minimumSeams: 1_000)
        print("R4 quick: \(run.seams) seams, \(run.frames) frames in 1 s unpaced (13-frame loop)")
    }

    @Test("a waiting wake and a ringing one each give back the code that started them: file pages well below the peak")
    func wakesGiveBackStartupCode() async throws {
        // The same binary, start-up and checks: one waits (after a quiet second it gives back what
        // parsed and checked, keeping the deadline's code on the disk for its pre-roll to map back),
        // the other rings and gives back what parsed, checked and started it. No peak of file pages
        // is kept by the kernel: the waiting one's, read as it arms (a second before its release),
        // stands for both, or the whole peak less the anonymous memory where that is more (ASan's
        // shadow grows after the start, so there it is less).
        let waiting = try DetachedWake(["+1h", "-D", "null", "--inhibit", "off", "--mixer", "off", "-q"])
        let ringing = try DetachedWake(["now", "-D", "null", "--inhibit", "off", "--mixer", "off", "--ring-for", "0", "-q"])
        try await waiting.waitForEvent("armed")
        let atArming = procStatusKB(waiting.pid, "RssFile") ?? 0
        try await ringing.waitForEvent("ringing")
        func pages(_ pid: pid_t) -> (file: Int, peakFile: Int) {
            let (file, anon, peak) = (procStatusKB(pid, "RssFile") ?? 0, procStatusKB(pid, "RssAnon") ?? 0, procStatusKB(pid, "VmHWM") ?? 0)
            return (file, max(atArming, peak - anon))
        }
        func givenBack(_ p: (file: Int, peakFile: Int)) -> Bool { p.file > 0 && p.file * 10 < p.peakFile * 8 }
        // A loaded machine (ASan, both cores busy) may take more than the quiet second to get there.
        var (w, r) = (pages(waiting.pid), pages(ringing.pid))
        for _ in 0..<100 where !(givenBack(w) && givenBack(r)) {
            try await Task.sleep(for: .milliseconds(200))
            (w, r) = (pages(waiting.pid), pages(ringing.pid))
        }
        waiting.send(SIGTERM)
        ringing.send(SIGTERM)
        let (wr, rr) = (await waiting.wait(), await ringing.wait())
        #expect(wr.exitCode == 143 && rr.exitCode == 0, "\(waiting.report(wr))\n\(ringing.report(rr))")
        for (name, p) in [("waiting", w), ("ringing", r)] {
            #expect(givenBack(p), "\(name): \(p.file) kB of file pages resident, \(p.peakFile) kB at the peak")
        }
        print("R4 code given back: file pages waiting \(w.file) kB (peak \(w.peakFile)), ringing \(r.file) kB (peak \(r.peakFile))")
    }

    @Test("a million loop seams: a 7-frame sound unpaced, no frame lost or doubled",
          .enabled(if: Stress.enabled, "make stress"), .timeLimit(.minutes(3)))
    func millionSeams() async throws {
        let run = try await ringTinyLoop(loopFrames: 7, ringFor: "5s", orFor: "20s", enough: 1_000_000)
        expectExactLoop(run, loopFrames: 7, minimumSeams: 1_000_000)
        print("R4 million: \(run.seams) seams, \(run.frames) frames (\(run.captureFrames) captured)")
    }

    @Test("memory stays flat: peak RSS of a 10 s unpaced ring is that of a 3 s one",
          .enabled(if: Stress.enabled, "make stress"), .timeLimit(.minutes(3)))
    func memoryFlat() async throws {
        let dir = try TestDirectory()
        let sound = try writeWAV(in: dir, name: "seven.wav", samples: distinctSamples(7))
        // 3 s, not 1: on a loaded machine a 1 s ring was over before the first sample was taken.
        var short = try await memoryOfUnpacedRing("3s", sound: sound)
        if short.hwm == 0 { short = try await memoryOfUnpacedRing("3s", sound: sound) }
        let long = try await memoryOfUnpacedRing("10s", sound: sound)
        print("R4 memory: 3 s: VmHWM \(short.hwm) kB, \(short.seams) seams; 10 s: VmHWM \(long.hwm) kB, RssAnon \(long.rssEarly) → \(long.rssLate) kB, \(long.seams) seams")
        #expect(short.hwm > 0 && long.hwm > 0)
        #expect(long.hwm <= short.hwm + 4096, "peak RSS grew from \(short.hwm) kB (3 s) to \(long.hwm) kB (10 s)")
        #expect(long.rssLate <= long.rssEarly + 2048, "anonymous memory grew during the run: \(long.rssEarly) → \(long.rssLate) kB")
        // Ten times as long, so more seams whatever else the machine does (a rate is not the point here).
        #expect(long.seams > short.seams, "the long run should pass more seams: \(short.seams) in 3 s, \(long.seams) in 10 s")
    }

    /// Descriptor kinds a leak of the wrappers would show.
    static func tally(_ fds: [Int32: String], dir: String) -> [String: Int] {
        var t: [String: Int] = ["timerfd": 0, "signalfd": 0, "memfd": 0, "sound": 0, "snd": 0, "all": fds.count]
        for target in fds.values {
            if target.contains("[timerfd]") { t["timerfd"]! += 1 }
            if target.contains("[signalfd]") { t["signalfd"]! += 1 }
            if target.hasPrefix("/memfd:") { t["memfd"]! += 1 }
            if target.contains(dir) { t["sound"]! += 1 }
            if target.hasPrefix("/dev/snd") { t["snd"]! += 1 }
        }
        return t
    }

    @Test("""
        10,000 arm/cancel cycles in one process (1,000 outside make stress, 100 under ASan: \
        timers, signal channel, sound file, a ring on null): no descriptor leaks
        """, .timeLimit(.minutes(5)))
    func noDescriptorLeaks() async throws {
        let dir = try TestDirectory("wake-fdleak")
        let soundPath = try writeWAV(in: dir, name: "short.wav", samples: distinctSamples(2205))
        let wavBytes = try #require(fileBytes(soundPath))
        let canonicalDir = URL(fileURLWithPath: dir.path).resolvingSymlinksInPath().path
        // Warm up once (ALSA's configuration, dispatch's own timers) before counting.
        do {
            let s = try SoundFile(path: soundPath)
            let pcm = try PCM(device: "null", format: .s16, channels: s.channels, rate: s.sampleRate)
            pcm.close()
        }
        let before = Self.tally(openDescriptors(), dir: canonicalDir)
        let started = ContinuousClock.now
        var stops = 0, opened = 0
        // 10,000 under `make stress`; a thousand in the everyday suite, which shares two cores;
        // a hundred under ASan, where the thousand took minutes.
        let cycles = Stress.enabled ? 10_000 : Stress.sanitized ? 100 : 1_000
        for i in 0..<cycles {
            if i % 100 == 0 { await Task.yield() }  // share the test pool with the process-driven tests
            // The deadline timer: armed, cancelled, dropped.
            let wall = try WakeTimer(clock: .wall)
            try wall.arm(at: SystemClock.realtime + .seconds(3600))
            wall.disarm()
            let boot = try WakeTimer(clock: .elapsed)
            try boot.arm(at: SystemClock.boottime + .seconds(60))
            #expect(boot.acknowledge() == .spurious)
            boot.disarm()
            let tick = try WakeTimer(periodic: .seconds(1))
            _ = tick.acknowledge()
            let signals = try SignalChannel()
            _ = signals.drain()
            let reactor = Reactor()
            reactor.register(fd: signals.fd) { _ in }
            reactor.register(fd: wall.fd) { _ in }
            try reactor.runOnce(timeout: .zero)
            // Sound and device: open the file (alternately from disk and from memory, as the
            // built-in sound is), ring a moment on a worker and stop.
            do {
                let sound = i % 2 == 0
                    ? try SoundFile(path: soundPath)
                    : try wavBytes.withUnsafeBytes { b in try SoundFile(bytes: b, name: "in-memory") }
                let output = try SupervisedOutput(reactor: reactor, clock: SystemRuntimeClock(), bell: nil) { nil }
                var openedHere = false
                output.onEvent = { event in
                    switch event {
                    case .stopped: stops += 1
                    case .opened: opened += 1; openedHere = true
                    default: break
                    }
                }
                output.start(RingRequest(sound: sound, soundKind: .user, device: "null"))
                let deadline = ContinuousClock.now + .seconds(5)
                while !openedHere && ContinuousClock.now < deadline { try reactor.runOnce(timeout: .milliseconds(100)) }
                output.finish(within: .seconds(2))
            }
        }
        let elapsed = ContinuousClock.now - started
        let after = Self.tally(openDescriptors(), dir: canonicalDir)
        print("R4 fd leak: \(cycles) cycles in \(elapsed); descriptors before \(before), after \(after)")
        #expect(opened == cycles && stops == cycles, "opened \(opened), stopped \(stops)")
        // Other tests run in this process at the same time and hold descriptors of every kind for
        // a while (25 memfds of in-memory sounds were seen on a loaded CI machine); a leak here
        // would be one per cycle or half of them at least, so a tenth of the cycles is the bound.
        let slack = max(2, cycles / 10)
        for kind in ["timerfd", "signalfd", "memfd", "sound", "snd"] {
            #expect(after[kind]! <= before[kind]! + slack, "\(kind) descriptors: \(before[kind]!) before, \(after[kind]!) after")
        }
        #expect(after["all"]! <= before["all"]! + max(40, slack), "descriptors: \(before["all"]!) before, \(after["all"]!) after")
    }
}
