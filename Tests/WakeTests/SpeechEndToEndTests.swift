import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// `--say on` (issue 42): the message or the time spoken between loops of the sound, in wake's
/// own stream (a `file:` PCM capture holds both), refused when it is set without espeak-ng, and
/// left out with a warning by the daemon. `WAKE_TEST_ESPEAK=missing` (debug builds) is a machine
/// without libespeak-ng1.
@Suite("Speech: --say on")
struct SpeechEndToEndTests {
    static let missing = ["WAKE_TEST_ESPEAK": "missing"]
    static let refusal = "cannot speak (--say on): espeak-ng is not installed (libespeak-ng.so.1 cannot be loaded); "
        + "install it: sudo apt install libespeak-ng1 espeak-ng-data, or give --say off"

    /// The first frame at or after `from` where `source` starts again, whole for `length` frames.
    static func restart(of source: [Int16], in capture: [Int16], from: Int, length: Int = 2000) -> Int? {
        guard source.count >= length, capture.count >= length else { return nil }
        var k = from
        while k + length <= capture.count {
            var i = 0
            while i < length && capture[k + i] == source[i] { i += 1 }
            if i == length { return k }
            k += 1
        }
        return nil
    }

    static func rms(_ s: ArraySlice<Int16>) -> Double {
        guard !s.isEmpty else { return 0 }
        return (s.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(s.count)).squareRoot()
    }

    @Test("a 1 s sine loop: the first loop whole, then speech (neither the sine nor silence), then the sine from its start")
    func speechBetweenLoops() async throws {
        let dir = try TestDirectory()
        let sound = try await makeSound(in: dir, name: "sine.wav", rate: 44100, channels: 1, seconds: "1", synth: ["sine", "440"])
        let source = try readWAV(sound)
        let capturePath = dir.file("capture.raw")
        let r = try await WakeProcess.run(["now", "-s", sound, "-D", "file:'\(capturePath)',raw", "--ring-for", "5s", "--say", "on",
                                           "--inhibit", "off", "--notify", "off"], timeout: .seconds(30))
        #expect(r.exitCode == 4, "\(r)")
        let capture = try readRaw(capturePath, channels: 1, rate: 44100).samples
        let L = source.samples.count
        try #require(L == 44100 && capture.count > 3 * L, "capture of \(capture.count) frames, source \(L)")
        // The first loop is the sound, sample for sample.
        #expect(Array(capture[0..<L]) == source.samples, "the first loop is not the sound")
        // Then the sine comes back from its first sample, after the speech.
        let back = try #require(Self.restart(of: source.samples, in: capture, from: L), "the sine never starts again")
        let gap = back - L
        #expect(gap > 44100 / 2 && gap < 5 * 44100, "speech of \(Double(gap) / 44100) s between the loops")
        let speech = capture[L..<back]
        // Not silence: speech is loud (espeak-ng's peaks are a third of full scale and more).
        #expect(Self.rms(speech) > 500, "the gap is near silence: rms \(Self.rms(speech))")
        #expect((speech.map { Int($0.magnitude) }.max() ?? 0) > 4000)
        // Not the sine: hardly a sample matches the sine continued.
        var same = 0
        for (i, s) in speech.enumerated() where s == source.samples[i % L] { same += 1 }
        #expect(Double(same) < 0.05 * Double(speech.count), "\(same) of \(speech.count) samples are the sine's")
        // And the sine after it is whole again for a loop (the capture ends with the ring's stop).
        if back + L <= capture.count {
            #expect(Array(capture[back..<(back + L)]) == source.samples, "the loop after the speech is not the sound")
        }
    }

    @Test("the dry run says what is spoken; without --say nothing is")
    func dryRun() async throws {
        let on = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--say", "on", "--message", "Bins out",
                                            "--inhibit", "off", "--notify", "off"])
        #expect(on.exitCode == 0, "\(on)")
        #expect(on.stdout.contains("say: \"Bins out\" ("), "\(on)")
        let time = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--say", "on", "--inhibit", "off", "--notify", "off"],
                                             environment: ["TZ": "UTC"])
        #expect(time.stdout.contains("say: \"It is 7:00\" ("), "\(time)")
        // Given as a flag, as other programs' --say is: the words it takes.
        for args in [["07:00", "--dry-run", "--say"], ["07:00", "--say", "--dry-run"]] {
            let bare = try await WakeProcess.run(args)
            #expect(bare.exitCode == 64 && bare.stderrLines == ["wake: --say: missing its value; give off or on, as '--say on'"], "\(bare)")
        }
        let off = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--inhibit", "off", "--notify", "off"])
        #expect(off.stdout.contains("say: off"), "\(off)")
    }

    @Test("without espeak-ng a one-off and wake add are refused with the apt line (69), and nothing is added")
    func refusedWithoutEspeak() async throws {
        let once = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--say", "on", "--inhibit", "off", "--notify", "off"],
                                             environment: Self.missing)
        #expect(once.exitCode == 69, "\(once)")
        #expect(once.stderrLines == ["wake: " + Self.refusal], "\(once)")
        let home = try AlarmHome()
        var env = home.environment
        env.merge(Self.missing) { $1 }
        let add = try await WakeProcess.run(["add", "06:30", "--days", "daily", "--name", "spoken", "-D", "null", "--say", "on"],
                                            environment: env)
        #expect(add.exitCode == 69, "\(add)")
        #expect(add.stderr.contains(Self.refusal), "\(add)")
        #expect(try await home.listJSON().isEmpty, "a refused alarm is not stored")
        // The library there but not its data (espeak-ng-data removed): refused the same way.
        let data = try TestDirectory()
        let noData = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--say", "on", "--inhibit", "off", "--notify", "off"],
                                               environment: ["ESPEAK_DATA_PATH": data.path])
        #expect(noData.exitCode == 69, "\(noData)")
        #expect(noData.stderrLines == ["wake: cannot speak (--say on): espeak-ng cannot start: No such file or directory (is espeak-ng-data installed?); "
                                       + "install it: sudo apt install libespeak-ng1 espeak-ng-data, or give --say off"], "\(noData)")
        // Speech off needs no espeak-ng.
        let plain = try await WakeProcess.run(["add", "06:30", "--days", "daily", "--name", "plain", "-D", "null", "--say", "off"],
                                              environment: env)
        #expect(plain.exitCode == 0, "\(plain)")
    }

    @Test("wake doctor: sound.speech WARN without espeak-ng, with the fix; PASS with it")
    func doctor() async throws {
        let home = try AlarmHome()
        let add = try await home.run(["add", "06:30", "--days", "daily", "--name", "spoken", "-D", "null", "--say", "on"])
        #expect(add.exitCode == 0, "\(add)")
        let with = try await home.run(["doctor", "spoken"])
        #expect(with.stdout.contains("espeak-ng speaks \"It is 6:30\" ("), "\(with)")
        var env = home.environment
        env.merge(Self.missing) { $1 }
        let without = try await WakeProcess.run(["doctor", "spoken"], environment: env)
        #expect(without.stdout.contains("cannot speak (--say on): espeak-ng is not installed"), "\(without)")
        #expect(without.stdout.contains("fix: sudo apt install libespeak-ng1 espeak-ng-data, then 'systemctl --user restart wake'"), "\(without)")
    }

    @Test("the daemon without espeak-ng warns and rings the alarm without speech")
    func daemonWarnsAndRings() async throws {
        let home = try AlarmHome()
        let sound = try await makeSound(in: home.dir, name: "sine.wav", rate: 44100, channels: 1, seconds: "1", synth: ["sine", "440"])
        let source = try readWAV(sound)
        let capture = home.dir.file("capture.raw")
        let add = try await home.run(["add", AlarmHome.soon(6), "--name", "spoken", "-s", sound, "-D", "file:'\(capture)',raw",
                                      "--ring-for", "3s", "--say", "on", "--unattended", "stop"])
        #expect(add.exitCode == 0, "\(add)")
        var env = home.environment
        env.merge(Self.missing) { $1 }
        let daemon = try DetachedWake(["daemon", "--inhibit", "off", "--notify", "off", "--no-wake-system"], environment: env, directory: home.dir)
        let said = try await daemon.waitForOutput(containing: "alarm 'spoken'", onStderr: true)
        #expect(said.contains("alarm 'spoken': cannot speak (--say on): espeak-ng is not installed (libespeak-ng.so.1 cannot be loaded); "
                              + "it rings without speech (install it: sudo apt install libespeak-ng1 espeak-ng-data, then restart the daemon)"),
                "\(said)")
        _ = try await daemon.waitForEvent("ringing", timeout: .seconds(20))
        _ = try await daemon.waitForEvent("timed_out", timeout: .seconds(15))
        daemon.send(SIGTERM)
        _ = await daemon.wait()
        // It rang, and only the sound: the loop whole across its seams.
        let samples = try readRaw(capture, channels: 1, rate: 44100).samples
        try #require(samples.count > 2 * 44100, "\(samples.count) frames captured")
        let end = 2 * 44100
        #expect(Array(samples[0..<end]) == source.samples + source.samples, "the ring is the sound looped, with nothing between")
    }

    @Test("the daemon speaks a standing alarm's message between loops, made when it armed it")
    func daemonSpeaks() async throws {
        let home = try AlarmHome()
        let sound = try await makeSound(in: home.dir, name: "sine.wav", rate: 48000, channels: 2, seconds: "1", synth: ["sine", "440"])
        let source = try readWAV(sound)
        let capture = home.dir.file("capture.raw")
        let add = try await home.run(["add", AlarmHome.soon(6), "--name", "spoken", "-s", sound, "-D", "file:'\(capture)',raw",
                                      "--ring-for", "4s", "--say", "on", "--message", "Bins out", "--unattended", "stop"])
        #expect(add.exitCode == 0, "\(add)")
        let daemon = try DetachedWake(["daemon", "--inhibit", "off", "--notify", "off", "--no-wake-system"], environment: home.environment,
                                      directory: home.dir)
        _ = try await daemon.waitForEvent("ringing", timeout: .seconds(20))
        _ = try await daemon.waitForEvent("timed_out", timeout: .seconds(15))
        daemon.send(SIGTERM)
        let end = await daemon.wait()
        #expect(!end.stderr.contains("cannot speak"), "\(end)")
        // Stereo at 48 kHz: the clip was fitted to the sound's own rate and channels.
        let samples = try readRaw(capture, channels: 2, rate: 48000).samples
        let L = source.samples.count
        try #require(samples.count > 2 * L, "\(samples.count) samples captured")
        #expect(Array(samples[0..<L]) == source.samples, "the first loop is the sound")
        let back = try #require(Self.restart(of: source.samples, in: samples, from: L), "the sound never starts again")
        #expect(back - L > 48000 && back - L < 5 * 2 * 48000, "\(Double(back - L) / 96000) s of speech")
        let speech = samples[L..<back]
        #expect(Self.rms(speech) > 500, "rms \(Self.rms(speech))")
        // Both channels carry the same voice.
        #expect(stride(from: L, to: back, by: 2).allSatisfy { samples[$0] == samples[$0 + 1] })
    }
}
