import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 42 (B): `--pre-alarm`, heard on a private PulseAudio through parec. The pre-ring and
/// the ring play back to back into the sink, so the capture's positions are times: the quiet
/// part is the pre-ring, the loud part the alarm itself.
@Suite("The pre-alarm rings quietly before the alarm, which rings at its own time", .serialized,
       .enabled(if: PulseAudioServer.isAvailable, "needs pulseaudio, pulseaudio-utils and libasound2-plugins (make deps-test)"))
struct PreAlarmEndToEndTests {
    static func peak(_ samples: ArraySlice<Int16>) -> Int { samples.map { Int(abs(Int32($0))) }.max() ?? 0 }

    static func date(_ text: String?) -> Date? {
        guard let text else { return nil }
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = f.date(from: text) { return d }
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: text)
    }

    static let quiet = ["-D", "default", "--fade-in", "0", "--volume", "80", "--inhibit", "off", "--notify", "off", "--mpris", "off"]

    @Test("--pre-alarm 4s,25 --fade-in 0: heard at 25 % of the ring's level, about 4 s before it, and the ring at its deadline")
    func levelAndLead() async throws {
        try await PulseAudioServer.with { pa in
            let dir = try TestDirectory("wake-prealarm")
            let tone = try await makeSound(in: dir, name: "tone.wav", rate: 44_100, channels: 1, seconds: "1", synth: ["sine", "440"])
            let rec = try await pa.record()
            let wake = try DetachedWake(["+9s", "-s", tone, "--pre-alarm", "4s,25", "--ring-for", "3s"] + Self.quiet, environment: pa.environment)
            let pre = try await wake.waitForEvent("pre_ringing", timeout: .seconds(20))
            let ringing = try await wake.waitForEvent("ringing", timeout: .seconds(20))
            try await wake.waitForEvent("timed_out", timeout: .seconds(20))
            let r = await wake.wait(timeout: .seconds(15))
            #expect(r.exitCode == 4, "\(wake.report(r))")
            #expect(wake.count("ringing") == 1 && wake.count("pre_stopped") == 0, "\(wake.eventLogText)")

            // The pre-ring starts 4 s before the ring, which is on time (the log's own times; the
            // deadline is written to the second).
            let deadline = try #require(Self.date(pre["deadline"]))
            let preAt = try #require(Self.date(pre["time"])), ringAt = try #require(Self.date(ringing["time"]))
            let gap = ringAt.timeIntervalSince(preAt)
            #expect(gap > 3.5 && gap < 5, "pre_ringing at \(preAt), ringing at \(ringAt)")
            #expect(abs(deadline.timeIntervalSince(preAt) - 4) < 1.5, "pre_ringing at \(preAt), deadline \(deadline)")
            let late = Double(ringing["late_ms"] ?? "") ?? 9999
            #expect(late >= 0 && late < 1000, "\(ringing)")

            // In the capture: a quiet onset, then a loud one about 4 s later.
            let samples = rec.samples()
            let loudPeak = Self.peak(samples[...])
            let start = try #require(samples.firstIndex { abs(Int32($0)) > Int32(PulseRecorder.threshold) }, "nothing heard")
            let loud = try #require(samples.firstIndex { Int(abs(Int32($0))) > loudPeak * 6 / 10 })
            let rate = PulseRecorder.rate
            let lead = Double(loud - start) / Double(rate)
            #expect(lead > 3 && lead < 5.5, "the quiet part lasted \(lead) s; 4 s expected")
            let quietPeak = Self.peak(samples[min(loud, start + rate / 2)..<max(start + rate / 2, loud - rate / 2)])
            let mainPeak = Self.peak(samples[min(samples.count, loud + rate / 5)..<min(samples.count, loud + rate * 2)])
            let percent = Double(quietPeak) * 100 / Double(max(1, mainPeak))
            #expect(percent > 22 && percent < 28, "the pre-ring peaked at \(quietPeak), the ring at \(mainPeak): \(percent) %")
        }
    }

    @Test("wake stop during the pre-ring: it stops, says the alarm stays set, and the alarm rings at its time")
    func stopKeepsMain() async throws {
        try await PulseAudioServer.with { pa in
            let dir = try TestDirectory("wake-prealarm-stop")
            let tone = try await makeSound(in: dir, name: "tone.wav", rate: 44_100, channels: 1, seconds: "1", synth: ["sine", "440"])
            let rec = try await pa.record()
            let wake = try DetachedWake(["+10s", "-s", tone, "--pre-alarm", "8s,25", "--ring-for", "2s"] + Self.quiet, environment: pa.environment)
            try await wake.waitForEvent("pre_ringing", timeout: .seconds(20))
            #expect(await rec.waitForSound(timeout: .seconds(10)), "the pre-ring is heard")
            let stop = try await WakeProcess.run(["stop"], environment: pa.environment)
            #expect(stop.exitCode == 0 && stop.stdout.contains("stopped the pre-alarm") && stop.stdout.contains("the alarm stays set"), "\(stop)")
            let stopped = try await wake.waitForEvent("pre_stopped", timeout: .seconds(10))
            #expect(stopped["main_kept"] == "1" || stopped["main_kept"] == "true", "\(stopped)")
            #expect(stopped["by"] == "control", "\(stopped)")
            try await Task.sleep(for: .milliseconds(800))
            let silentFrom = rec.mark()
            try await wake.waitForEvent("ringing", timeout: .seconds(20))
            let heard = await rec.waitForSound(after: silentFrom, timeout: .seconds(10))
            #expect(heard, "the ring is heard")
            let r = await wake.wait(timeout: .seconds(20))
            #expect(r.exitCode == 4, "\(wake.report(r))")
            #expect(r.stdout.contains("the alarm stays set for"), "\(wake.report(r))")
        }
    }
}

/// The pre-alarm on a terminal: any key stops the quiet ring and keeps the alarm; u skips it. (The
/// dry run's line and the refused pre-alarm sounds run in process since issue 50:
/// Tests/WakeCommandLineTests/DryRunCommandTests.swift.)
@Suite("The pre-alarm's keys on a terminal")
struct PreAlarmKeyTests {
    @Test("a key stops the pre-ring; the alarm stays set and rings")
    func keyStopKeepsMain() async throws {
        let (o, events) = try await runOnPty(["+5s", "-D", "null", "--pre-alarm", "4s", "--ring-for", "1s", "--inhibit", "off", "--notify", "off"],
                                             steps: ["wait:pre_ringing", "key:x", "wait:pre_stopped", "wait:ringing", "wait:timed_out"])
        #expect(o.error == nil, "\(o)")
        #expect(o.exit == 4, "\(o)")
        #expect(o.restored, "\(o)")
        #expect(events.contains { $0.name == "pre_stopped" && $0["key"] == "x" }, "\(o)")
        #expect(o.output.contains("the alarm stays set for"), "\(o)")
        #expect(events.contains { $0.name == "ringing" }, "\(o)")
    }

    @Test("u during the pre-ring: up already, the alarm never rings, exit 0")
    func upAlready() async throws {
        let (o, events) = try await runOnPty(["+6s", "-D", "null", "--pre-alarm", "5s", "--inhibit", "off", "--notify", "off"],
                                             steps: ["wait:pre_ringing", "key:u"])
        #expect(o.error == nil, "\(o)")
        #expect(o.exit == 0, "\(o)")
        #expect(events.contains { $0.name == "up_already" && $0["key"] == "u" }, "\(o)")
        #expect(!events.contains { $0.name == "ringing" }, "\(o)")
    }
}
