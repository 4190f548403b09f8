import Foundation
import Glibc
import Testing
@testable import WakeSystem
@testable import WakeTestSupport

/// Issue 12, items 3 and 14: silent sounds are refused when the alarm is set, and every error
/// path of SoundFile leaves libsndfile's handle to exactly one owner.
///
/// Checked under valgrind 3.19: 0 errors (no invalid read, no double close) for GSM 6.10,
/// /proc/self/status, junk, zeros, one frame, a -70 dB tone, a truncated WAV, a damaged and a
/// good MP3, a missing file, each opened, read to the end and rewound three times. Valgrind 3.19
/// cannot run this bundle itself (it crashes reading the toolchain's DWARF 5 and in libdispatch),
/// so the same calls were made from a small program linked against WakeSystem built with
/// `swift build --build-tests --scratch-path /tmp/wake-vg -Xswiftc -gnone -Xcc -g0`, then:
///   valgrind --error-exitcode=9 --errors-for-leak-kinds=none ./vgmain g.wav /proc/self/status ...
@Suite("System: SoundFile measures and refuses silent sounds")
struct SystemSoundFileTests {
    func refusal(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        do {
            let s = try SoundFile(path: path)
            Issue.record("accepted, peak \(s.peakDBFS) dBFS", sourceLocation: sourceLocation)
            return ""
        } catch {
            return error.reason
        }
    }

    @Test("all zeros: refused")
    func zeros() async throws {
        let dir = try TestDirectory("wake-sys")
        let p = try await soxSound(dir, "zeros.wav", ["trim", "0", "1"])
        #expect(refusal(p) == "the sound is silent: every sample is 0")
    }

    @Test("one frame: refused, with its length")
    func oneFrame() async throws {
        let dir = try TestDirectory("wake-sys")
        let p = try await soxSound(dir, "one.wav", ["synth", "1s", "sine", "440"])
        #expect(refusal(p) == "the sound is silent: it is 1 frame long (23 µs); looped, it repeats above 20 kHz, out of hearing")
    }

    @Test("a constant level (DC 0.5): refused")
    func dc() throws {
        let dir = try TestDirectory("wake-sys")
        let p = try dir.write("dc.wav", wav16([Int16](repeating: 16384, count: 44_100)))
        #expect(refusal(p) == "the sound is silent: it is a constant level with no waveform")
    }

    @Test("a -70 dB tone is refused; a -50 dB tone passes with its level measured")
    func quiet() async throws {
        let dir = try TestDirectory("wake-sys")
        let low = try await soxSound(dir, "low.wav", ["synth", "1", "sine", "440", "vol", "-70dB"])
        let r = refusal(low)
        #expect(r.hasPrefix("the sound is silent: its waveform peaks at -7"), "\(r)")
        #expect(r.hasSuffix("dBFS; an alarm needs more than -60.0 dBFS"), "\(r)")
        let ok = try await soxSound(dir, "ok.wav", ["synth", "1", "sine", "440", "vol", "-50dB"])
        let s = try SoundFile(path: ok)
        #expect(abs(s.peakDBFS - -50) < 1, "\(s.peakDBFS)")
    }

    @Test("a DC offset under a real tone is measured from the mean")
    func toneOnDC() throws {
        let dir = try TestDirectory("wake-sys")
        let samples = (0..<44_100).map { Int16(16384 + 8192 * sin(Double($0) * 2 * .pi * 440 / 44_100)) }
        let s = try SoundFile(path: try dir.write("tone-dc.wav", wav16(samples)))
        #expect(abs(s.peakDBFS - 20 * log10(0.25)) < 0.2, "\(s.peakDBFS)")
    }

    @Test("float WAVs: silent refused, loud accepted")
    func floats() async throws {
        let dir = try TestDirectory("wake-sys")
        let f = ["-e", "floating-point", "-b", "32"]
        let zeros = try await soxSound(dir, "fz.wav", encoding: f, ["trim", "0", "1"])
        #expect(refusal(zeros) == "the sound is silent: every sample is 0")
        let quiet = try await soxSound(dir, "fq.wav", encoding: f, ["synth", "1", "sine", "440", "vol", "-70dB"])
        #expect(refusal(quiet).hasPrefix("the sound is silent: its waveform peaks at"))
        let loud = try await soxSound(dir, "fl.wav", channels: 2, encoding: f, ["synth", "1", "sine", "440", "vol", "0.5"])
        let s = try SoundFile(path: loud)
        #expect(abs(s.peakDBFS - -6.02) < 0.2, "\(s.peakDBFS)")
    }

    @Test("--volume is part of the rule")
    func volume() async throws {
        let dir = try TestDirectory("wake-sys")
        let s = try SoundFile(path: try await soxSound(dir, "n.wav", ["synth", "1", "sine", "440", "vol", "0.5"]))
        #expect(s.silenceReason(volume: 100) == nil)
        #expect(s.silenceReason(volume: 1) == nil)  // -46 dBFS
        #expect(s.silenceReason(volume: 0) == "the sound is silent: --volume 0 scales every sample to 0")
        let q = try SoundFile(path: try await soxSound(dir, "q.wav", ["synth", "1", "sine", "440", "vol", "-50dB"]))
        #expect(q.silenceReason(volume: 10)?.hasSuffix("dBFS at --volume 10; an alarm needs more than -60.0 dBFS") == true)
    }

    @Test("wake's built-in sound passes")
    func builtIn() throws {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: packageRoot + "/Resources/alarm.flac")))
        let s = try bytes.withUnsafeBytes { b throws(SoundFile.OpenError) in try SoundFile(bytes: b, name: "(built-in alarm)") }
        #expect(s.peakDBFS > -3 && s.isSeekable, "\(s.peakDBFS)")
    }

    /// The built-in sound's path: samples in memory, played without libsndfile.
    @Test("samples in memory: measured, read to the end, rewound, sought, widened to 32 bits")
    func samplesInMemory() throws {
        // Two channels, 1000 frames: left counts up, right counts down. The samples must outlive
        // the SoundFile, as the built-in sound's static data does.
        let samples = (0..<1000).flatMap { [Int16($0 * 20), Int16(-$0 * 20)] }
        let storage = UnsafeMutableBufferPointer<Int16>.allocate(capacity: samples.count)
        defer { storage.deallocate() }
        _ = storage.initialize(from: samples)
        let s = try SoundFile(samples: UnsafeBufferPointer(storage), sampleRate: 8000, channels: 2, name: "(test)")
        #expect(s.frames == 1000 && s.channels == 2 && s.sampleRate == 8000 && s.isSeekable && s.width == .int16)
        #expect(s.formatName == "built into wake, Signed 16 bit PCM")
        // Each channel swings 9,990 either side of its mean: 9990 / 32768 of full scale, -10.3 dBFS.
        #expect(s.silenceReason(volume: 100) == nil && abs(s.peakDBFS - 20 * log10(9990.0 / 32768)) < 0.01, "\(s.peakDBFS)")
        var buf = [Int16](repeating: 0, count: 2 * 300)
        var all: [Int16] = []
        while true {
            let n = try buf.withUnsafeMutableBufferPointer { try s.read(into: $0.baseAddress!, frames: 300) }
            if n == 0 { break }
            all += buf[0..<2 * n]
        }
        #expect(all == samples)
        try s.rewind()
        #expect(try buf.withUnsafeMutableBufferPointer { try s.read(into: $0.baseAddress!, frames: 1) } == 1 && buf[0] == 0)
        try s.seek(to: 999)
        var wide = [Int32](repeating: 0, count: 2 * 4)
        #expect(try wide.withUnsafeMutableBufferPointer { try s.read(into: $0.baseAddress!, frames: 4) } == 1)
        #expect(wide[0] == Int32(19_980) << 16 && wide[1] == Int32(-19_980) << 16)
        #expect(throws: SoundFile.ReadError.self) { try s.seek(to: 1001) }

        let silent = [Int16](repeating: 7, count: 4000)
        let refusal = silent.withUnsafeBufferPointer { b -> String in
            do throws(SoundFile.OpenError) {
                _ = try SoundFile(samples: b, sampleRate: 8000, channels: 1, name: "(test)")
                return ""
            } catch { return error.description }
        }
        #expect(refusal.hasPrefix("cannot use sound file '(test)': the sound is silent"), "\(refusal)")
    }

    @Test("GSM 6.10, which libsndfile cannot seek: opens, and loops by reopening")
    func gsm() async throws {
        let dir = try TestDirectory("wake-sys")
        let p = try await soxSound(dir, "g.wav", rate: 8000, encoding: ["-e", "gsm-full-rate"], ["synth", "1", "sine", "440"])
        let s = try SoundFile(path: p)
        #expect(!s.isSeekable)
        var buf = [Int16](repeating: 0, count: 4096)
        func readAll() throws -> Int64 {
            var total: Int64 = 0
            while true {
                let n = try buf.withUnsafeMutableBufferPointer { b throws(SoundFile.ReadError) in try s.read(into: b.baseAddress!, frames: 4096) }
                if n == 0 { return total }
                total += Int64(n)
            }
        }
        let first = try readAll()
        try s.rewind()
        let second = try readAll()
        #expect(first == s.frames && second == s.frames, "\(first) \(second) \(s.frames)")
        #expect(throws: SoundFile.ReadError.self) { try s.seek(to: 100) }
        try s.seek(to: 0)
        #expect(try readAll() == s.frames)
    }

    @Test("a /proc file reads as not a sound file, not as empty; an empty file as empty")
    func procfs() throws {
        #expect(refusal("/proc/self/status").contains("is not a sound file"))
        let dir = try TestDirectory("wake-sys")
        #expect(refusal(try dir.write("empty.wav", [])) == "the file is empty")
    }

    @Test("failure paths: bad header, truncated data, wrong layout")
    func failurePaths() throws {
        let dir = try TestDirectory("wake-sys")
        #expect(refusal(try dir.write("junk.wav", Array(repeating: 0x41, count: 5000))).contains("not a sound file libsndfile can read"))
        let good = wav16((0..<44_100).map { Int16(8000 * sin(Double($0) / 10)) })
        // A header that promises more data than there is: libsndfile reads what is there.
        let truncated = try dir.write("trunc.wav", Array(good.prefix(good.count / 2)))
        _ = try? SoundFile(path: truncated)
        #expect(refusal(try dir.write("rate.wav", wav16([1, 2, 3], rate: 100))).hasPrefix("unsupported layout"))
    }

    /// A long file takes seconds to decode on a slow board (many more under a sanitizer), and
    /// the signals are blocked meanwhile: a Ctrl-C or SIGTERM must not wait for the end.
    @Test("a signal while decoding ends it early with that signal, leaving no descriptor; none lets it finish")
    func interruptedDecoding() async throws {
        let dir = try TestDirectory("wake-sys")
        let p = try await soxSound(dir, "long.wav", channels: 2, ["synth", "60", "sine", "440", "vol", "0.5"])
        func openOnFile() -> Bool {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).contains {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == p
            }
        }
        var asked = 0
        do {
            _ = try SoundFile(path: p) { asked += 1; return asked == 3 ? SIGTERM : nil }
            Issue.record("decoded to the end")
        } catch {
            #expect(error.signal == SIGTERM)
            #expect(error.description == "cannot use sound file '\(p)': interrupted by SIGTERM while decoding it")
        }
        #expect(asked == 3)
        #expect(!openOnFile())
        asked = 0
        let s = try SoundFile(path: p) { asked += 1; return nil }
        // 16 chunks of 4096 frames between questions: 60 s at 44.1 kHz asks 41 times.
        #expect(s.frames == 60 * Int64(s.sampleRate) && asked == Int(s.frames / 65_536) + 1, "\(asked) \(s.frames)")
    }

    @Test("normal sounds still open: 16-bit stereo, 24-bit, FLAC")
    func normal() async throws {
        let dir = try TestDirectory("wake-sys")
        for (name, enc) in [("s.wav", ["-b", "16"]), ("s24.wav", ["-b", "24"]), ("s.flac", ["-b", "16"])] {
            let s = try SoundFile(path: try await soxSound(dir, name, channels: 2, encoding: enc, ["synth", "0.5", "sine", "440", "vol", "0.5"]))
            #expect(s.frames == 22_050 && s.peakDBFS > -7 && s.peakDBFS < -5, "\(name) \(s.peakDBFS)")
        }
    }
}
