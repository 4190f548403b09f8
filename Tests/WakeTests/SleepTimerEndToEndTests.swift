import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 56, `wake sleep`: the sound played and faded away, as a file PCM records it; `wake stop`
/// ending it; and `--then` against python-dbusmock's logind on a private system bus, which
/// records each Suspend and PowerOff asked of it. (The rules themselves: WakeCoreTests/SleepTimerTests.)
@Suite("wake sleep", .serialized)
struct SleepTimerEndToEndTests {
    /// The loudest sample of each quarter second of a mono capture.
    static func quarters(_ data: PCMData) -> [Int] {
        stride(from: 0, to: data.samples.count, by: data.sampleRate / 4).map { start in
            data.samples[start..<min(data.samples.count, start + data.sampleRate / 4)].map { Int($0.magnitude) }.max() ?? 0
        }
    }

    @Test("4s: the tone at 30 %, then fading away over the last 2s, down to silence; exit 0, said on stdout")
    func fadesAway() async throws {
        let home = try AlarmHome()
        let tone = try await makeSound(in: home.dir, name: "tone.wav", rate: 44_100, channels: 1, seconds: "1", synth: ["sine", "440"])
        let capture = home.dir.file("sleep.raw")
        let r = try await WakeProcess.run(["sleep", "4s", "-s", tone, "-D", "file:'\(capture)',raw"], environment: home.environment,
                                          timeout: .seconds(40))
        #expect(r.exitCode == 0 && r.stdout.contains("sleep timer: '\(tone)' for 4s at 30 %, fading away over its last 2s"), "\(r)")
        #expect(r.stdout.contains("sleep timer: ended") && !r.stdout.contains("RINGING"), "no alarm's words: \(r)")
        let q = Self.quarters(try readRaw(capture, channels: 1, rate: 44_100))
        try #require(q.count >= 15, "\(q)")
        let full = Double(0.6 * 32768 * 0.3)  // the tone's level (sox's vol 0.6) at 30 %
        #expect(q[4...7].allSatisfy { abs(Double($0) - full) < full * 0.05 }, "at 30 % from the first second: \(q)")
        #expect(q[9] < q[8] && q[11] < q[9] && q[13] < q[11] && Double(q[14]) < full / 20, "falling through the last 2s: \(q)")
        #expect((q.last ?? 1) < Int(full / 20), "nothing loud at the end: \(q)")
    }

    @Test("a key on the terminal fades it away over 3s, then it stops (exit 0, stopped by that key)")
    func keyFades() async throws {
        let home = try AlarmHome()
        let tone = try await makeSound(in: home.dir, name: "tone.wav", rate: 44_100, channels: 1, seconds: "1", synth: ["sine", "440"])
        let capture = home.dir.file("sleep.raw")
        let session = try PtySession(["sleep", "60s", "-s", tone, "-D", "file:'\(capture)',raw"],
                                     steps: ["wait:ringing", "sleep:1.5", "key:x"], environment: home.environment, timeout: 40)
        let (o, events, _) = try await session.finish()
        #expect(o.exit == 0 && events.contains { $0.name == "stopped" && $0["key"] == "x" }, "\(o)")
        // Rising (its 5 s fade-in) until the key, 1.5 s in; from there down to near nothing over 3 s, not cut off.
        let q = Self.quarters(try readRaw(capture, channels: 1, rate: 44_100))
        let loudest = try #require(q.indices.max { q[$0] < q[$1] }, "\(q)")
        #expect(q.count - loudest >= 10, "three seconds of sound after its loudest moment: \(q)")
        #expect(Double(q[q.count - 2]) < Double(q[loudest]) / 10 && q[loudest + 6] < q[loudest + 2], "faded, not cut: \(q)")
    }

    @Test("wake sleep +4s: the running one plays 4s longer, its fade moved with its end; with none playing, exit 1")
    func extended() async throws {
        let home = try AlarmHome()
        let tone = try await makeSound(in: home.dir, name: "tone.wav", rate: 44_100, channels: 1, seconds: "1", synth: ["sine", "440"])
        let capture = home.dir.file("sleep.raw")
        let sleep = try DetachedWake(["sleep", "6s", "-s", tone, "-D", "file:'\(capture)',raw"], environment: home.environment,
                                     events: false)
        try await sleep.waitForOutput(containing: "sleep timer: ")
        try await Task.sleep(for: .milliseconds(1500))
        let more = try await home.run(["sleep", "+4s"])
        #expect(more.exitCode == 0 && more.stdout.contains("sleep timer (pid \(sleep.pid)): 4s more, until "), "\(more)")
        let r = await sleep.wait(timeout: .seconds(30))
        #expect(r.exitCode == 0 && r.stdout.contains("sleep timer: ended"), "\(sleep.report(r))")
        // At its level until 7 s (the fade's old start, 3 s, moved by 4 s), then down to silence by 10 s.
        let q = Self.quarters(try readRaw(capture, channels: 1, rate: 44_100))
        try #require(q.count >= 38, "ten seconds of sound: \(q)")
        let full = Double(0.6 * 32768 * 0.3)
        #expect(q[12...27].allSatisfy { abs(Double($0) - full) < full * 0.05 }, "at 30 % from 3 s to 7 s: \(q)")
        #expect(Double(q[37]) < full / 10, "faded by its new end: \(q)")
        let none = try await home.run(["sleep", "+4s"])
        #expect(none.exitCode == 1 && none.stderr.contains("no sleep timer is playing"), "\(none)")
    }

    @Test("no alarm to wake list or wake next; wake snooze refused (it would ring again); wake stop ends it at once: exit 0")
    func stoppedByWakeStop() async throws {
        let home = try AlarmHome()
        let sleep = try DetachedWake(["sleep", "30s", "-D", "null"], environment: home.environment, events: false)
        try await sleep.waitForOutput(containing: "sleep timer: ")
        try await Task.sleep(for: .milliseconds(800))
        let list = try await home.run(["list", "--json"])
        #expect(list.exitCode == 0 && list.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(list)")
        let next = try await home.run(["next"])
        #expect(next.exitCode == 1, "nothing will ring: \(next)")
        let snooze = try await home.run(["snooze"])
        #expect(snooze.exitCode != 0 && snooze.stderr.contains("snooze limit reached"), "\(snooze)")
        let stop = try await home.run(["stop"])
        #expect(stop.exitCode == 0, "\(stop)")
        let r = await sleep.wait(timeout: .seconds(20))
        #expect(r.exitCode == 0 && r.stdout.contains("sleep timer: stopped"), "\(sleep.report(r))")
    }

    @Test("--then suspend, no alarm set: logind's Suspend at the end; beside an alarm without RTC, off and suspend refused",
          .enabled(if: LogindMock.isAvailable, "needs python3-dbusmock, dbus-daemon and busctl"))
    func thenSuspendOrStay() async throws {
        try await LogindMock.with { logind in
            let home = try AlarmHome()
            let env = home.environment.merging(logind.environment) { $1 }
            var r = try await WakeProcess.run(["sleep", "2s", "-D", "null", "--then", "suspend"], environment: env, timeout: .seconds(40))
            #expect(r.exitCode == 0 && r.stdout.contains("sleep timer: ended; suspending"), "\(r)")
            #expect(logind.log.contains("Suspend False"), "asked of logind, non-interactive: \(logind.log)")

            #expect(try await home.run(["add", "06:30", "--days", "daily", "--name", "work", "-D", "null"]).exitCode == 0)
            r = try await WakeProcess.run(["sleep", "2s", "-D", "null", "--then", "off"], environment: env, timeout: .seconds(40))
            let why = "a machine that is off rings nothing: powering off would silence 06:30 (work); staying on"
            #expect(r.exitCode == 0 && r.stderr.contains("warning: " + why) && r.stderr.contains("sleep timer: ended; " + why), "\(r)")
            #expect(logind.log.contains("CanPowerOff") && !logind.log.contains("PowerOff False"), "\(logind.log)")
            // No daemon arms the RTC for it here: a suspend would silence it too.
            r = try await WakeProcess.run(["sleep", "2s", "-D", "null", "--then", "suspend"], environment: env, timeout: .seconds(40))
            let awake = "no RTC wake-up for the next alarm: a suspend would silence 06:30 (work); staying awake"
            #expect(r.exitCode == 0 && r.stderr.contains("warning: " + awake) && r.stderr.contains("sleep timer: ended; " + awake), "\(r)")
            #expect(logind.log.components(separatedBy: "Suspend False").count == 2, "the first run's alone: \(logind.log)")
        }
    }

    /// Root arms its own alarms on the RTC (CAP_WAKE_ALARM; `WAKE_TEST_RTC_DIR` stands in for
    /// /sys/class/rtc in debug builds): the one case where a suspend silences nothing.
    @Test("--then suspend beside an alarm the RTC wakes the machine for: logind's Suspend at the end",
          .enabled(if: LogindMock.isAvailable && geteuid() == 0, "needs python3-dbusmock, dbus-daemon, busctl and root"))
    func thenSuspendBesideAnRTCAlarm() async throws {
        try await LogindMock.with { logind in
            let home = try AlarmHome()
            mkdir(home.dir.file("rtc"), 0o755)
            _ = try home.dir.write("rtc/rtc0", [])
            let env = home.environment.merging(logind.environment) { $1 }.merging(["WAKE_TEST_RTC_DIR": home.dir.file("rtc")]) { $1 }
            let alarm = try DetachedWake(["+1h", "-D", "null", "--inhibit", "off", "--notify", "off"], environment: env)
            defer { alarm.send(SIGKILL) }
            let armed = try await alarm.waitForEvent("armed")
            #expect(armed["wakes_system"] == "1", "\(armed)")
            let r = try await WakeProcess.run(["sleep", "2s", "-D", "null", "--then", "suspend"], environment: env, timeout: .seconds(40))
            #expect(r.exitCode == 0 && r.stdout.contains("sleep timer: ended; suspending") && !r.stderr.contains("staying awake"), "\(r)")
            #expect(logind.log.contains("Suspend False"), "asked of logind: \(logind.log)")
            alarm.send(SIGTERM)
            _ = await alarm.wait()
        }
    }
}
