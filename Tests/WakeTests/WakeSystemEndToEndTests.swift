import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 23, end to end: an ordinary user (uid 4242, logged in at a seat by the helper's
/// records, through setpriv) runs a copy of the debug `wake` beside `wake-alarm-timer`
/// (setcap'd, or not) in a directory of the test's own, as `make install` puts them side by
/// side. The alarm is armed on the alarm clock with no flag wherever that works
/// (`WAKE_TEST_RTC_DIR`, debug builds only, stands in for /sys/class/rtc: this machine has no
/// RTC), on the ordinary clock with `--no-wake-system`, and `--wake-system` refuses with 69 (no
/// RTC) or 77 (no capability). wake itself stays unprivileged. Issue 37: a user the helper's
/// policy refuses (a system account, no seat) is armed on the ordinary clock, with the line.
@Suite("wake system by default (issue 23)", .serialized, .enabled(if: HelperFixture.enabled, "needs root, cc, setcap, setpriv and python3"))
struct WakeSystemEndToEndTests {
    static let person: uid_t = HelperFixture.person

    /// A copy of wake beside the helper, and nobody's own home, runtime directory and fake RTC list.
    struct Install {
        let f: (directory: TestDirectory, helper: String, client: String)
        var dir: TestDirectory { f.directory }
        let wake: String
        let home: String
        let runtime: String
        let rtcs: String
        let events: String

        /// Who runs wake: the person at the seat unless a test says otherwise.
        let user: uid_t

        init(capability: Bool, helper: Bool = true, user: uid_t = WakeSystemEndToEndTests.person) async throws {
            self.user = user
            f = try await HelperFixture.make(capability: capability)
            if !helper { unlink(f.helper) }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: WakeBinary.path).resolvingSymlinksInPath())
            wake = try f.directory.write("wake", bytes, mode: 0o755)
            // The copy was open for writing: a child another test spawns in that instant holds
            // the descriptor until its own exec, and exec'ing the copy meanwhile fails with
            // ETXTBSY (seen once in CI). Once one exec of it works, none is pending any more.
            for attempt in 1...100 {
                // posix_spawn itself reports ETXTBSY: a throw here is one more try.
                let r = await (try? ChildProcess(wake, ["--version"], directory: f.directory))?.wait(timeout: .seconds(30))
                if r?.exitCode == 0 { break }
                if attempt == 100 { throw WakeTestError("the copy of wake never ran: \(r.map { "\($0)" } ?? "posix_spawn failed")") }
                try await Task.sleep(for: .milliseconds(20))
            }
            home = f.directory.file("home")
            runtime = f.directory.file("run")
            rtcs = f.directory.file("rtc")
            events = home + "/events.jsonl"
            for d in [home, runtime, rtcs] {
                mkdir(d, 0o700)
                chown(d, user, gid_t(user))
            }
            _ = try f.directory.write("rtc/rtc0", [])
        }

        /// `wake ARGS` as the user, with an empty environment but for its own directories (and the fake RTC when `rtc`).
        func start(_ args: [String], rtc: Bool = true, extra: [String] = []) throws -> ChildProcess {
            var env = ["HOME=\(home)", "XDG_RUNTIME_DIR=\(runtime)", "TZ=UTC", "PATH=/usr/bin:/bin"] + extra
            if rtc { env.append("WAKE_TEST_RTC_DIR=\(rtcs)") }
            let asUser = HelperFixture.asUser(user)
            return try ChildProcess(asUser[0], Array(asUser.dropFirst()) + ["env", "-i"] + env + [wake] + args,
                                    newSession: true, directory: dir)
        }

        func run(_ args: [String], rtc: Bool = true) async throws -> ProcessResult {
            try await start(args, rtc: rtc).wait(timeout: .seconds(60))
        }

        /// The event log's objects, each as its fields' raw JSON values.
        func logged() -> [[String: Any]] {
            guard let text = try? String(contentsOfFile: events, encoding: .utf8) else { return [] }
            return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        }

        func waitForEvent(_ name: String, _ child: ChildProcess, timeout: Duration = .seconds(30)) async throws -> [String: Any] {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if let e = logged().first(where: { $0["event"] as? String == name }) { return e }
                if child.hasExited { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            throw WakeTestError("no '\(name)' event; events: \(logged())\nstdout: \(child.currentStdout)\nstderr: \(child.currentStderr)")
        }
    }

    /// The clock IDs of the timerfds `pid` holds (from /proc/PID/fdinfo).
    static func timerClocks(_ pid: pid_t) -> [Int] {
        let dir = "/proc/\(pid)/fdinfo"
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return fds.compactMap { fd -> Int? in
            guard let text = try? String(contentsOfFile: dir + "/" + fd, encoding: .utf8) else { return nil }
            return text.split(separator: "\n").first { $0.hasPrefix("clockid:") }
                .flatMap { Int($0.dropFirst("clockid:".count).trimmingCharacters(in: .whitespaces)) }
        }
    }

    /// AT_SECURE (23) from /proc/PID/auxv: 1 when the process runs in secure-execution mode.
    static func atSecure(_ pid: pid_t) -> UInt64? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/auxv") else { return nil }
        let words = data.withUnsafeBytes { Array($0.bindMemory(to: UInt64.self)) }
        for i in stride(from: 0, to: words.count - 1, by: 2) where words[i] == 23 { return words[i + 1] }
        return nil
    }

    static func waitFor(_ what: String, _ child: ChildProcess, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !condition() {
            guard ContinuousClock.now < deadline, !child.hasExited else {
                throw WakeTestError("\(what) never came\nstdout: \(child.currentStdout)\nstderr: \(child.currentStderr)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    // MARK: wake WHEN

    @Test func withNoFlagAnOrdinaryUsersAlarmIsOnTheAlarmClockAndRings() async throws {
        let i = try await Install(capability: true)
        // Looked at while it surely still waits: a deadline far off, so a test runner starved
        // by the parallel suite (once for over a minute) cannot look only after the ring ended.
        let waiting = try i.start(["+10m", "-D", "null", "--inhibit", "off", "--events", i.events])
        let armed = try await i.waitForEvent("armed", waiting)
        #expect(armed["wakes_system"] as? Bool == true, "\(armed)")
        #expect(armed["clock"] as? String == "elapsed" || armed["clock"] as? String == "boottime", "\(armed)")
        // A relative time waits on CLOCK_BOOTTIME_ALARM (9), made by the helper for the user.
        let clocks = Self.timerClocks(waiting.pid)
        #expect(clocks.contains(9) && !clocks.contains(7), "timerfd clocks of wake: \(clocks)")
        #expect(Self.atSecure(waiting.pid) == 0, "wake itself must not run in secure-execution mode")
        // The control socket answers the user's own `wake list`, which says the alarm wakes the machine.
        let list = try await i.run(["list", "--json"])
        let entries = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
        #expect(entries?.first?["wakes_system"] as? Bool == true && entries?.first?["id"] as? String == "\(waiting.pid)", "\(list)")
        waiting.send(SIGTERM)
        _ = await waiting.wait(timeout: .seconds(30))
        // And one that rings: on the same alarm clock, unstopped for --ring-for.
        let wake = try i.start(["+2s", "-D", "null", "--ring-for", "1s", "--inhibit", "off", "--events", i.events])
        let r = await wake.wait(timeout: .seconds(60))
        #expect(r.exitCode == 4, "rang unstopped for --ring-for: \(r)")
        #expect(r.stdout.contains("RTC will wake it") && !r.stdout.contains("note:"), "\(r)")
        #expect(i.logged().contains { $0["event"] as? String == "ringing" }, "\(i.logged())")
    }

    @Test func aWallClockTimeIsOnRealtimeAlarm() async throws {
        let i = try await Install(capability: true)
        let wake = try i.start(["23:59:59", "-D", "null", "--inhibit", "off", "--events", i.events])
        defer { wake.send(SIGKILL) }
        _ = try await i.waitForEvent("armed", wake)
        #expect(Self.timerClocks(wake.pid).contains(8), "\(Self.timerClocks(wake.pid))")
    }

    @Test func noWakeSystemUsesTheOrdinaryClockAndSaysNothing() async throws {
        let i = try await Install(capability: true)
        let wake = try i.start(["+1h", "-D", "null", "--inhibit", "off", "--no-wake-system", "--events", i.events])
        let armed = try await i.waitForEvent("armed", wake)
        #expect(armed["wakes_system"] as? Bool == false, "\(armed)")
        let clocks = Self.timerClocks(wake.pid)
        #expect(clocks.contains(7) && !clocks.contains(8) && !clocks.contains(9), "\(clocks)")
        let list = try await i.run(["list"])
        #expect(list.stdout.contains("WAKES") && list.stderr.contains("marked no under WAKES"), "\(list)")
        wake.send(SIGTERM)
        let r = await wake.wait()
        #expect(r.exitCode == 143 && !r.stdout.contains("note:") && !r.stdout.contains("RTC"), "\(r)")
    }

    @Test func bothFlagsAreAUsageError() async throws {
        let i = try await Install(capability: true)
        for args in [["+1h", "-D", "null"], ["daemon"]] {
            let r = try await i.run(args + ["--wake-system", "--no-wake-system"])
            #expect(r.exitCode == 64 && r.stderrIsOneLine && r.stderr.contains("--no-wake-system"), "\(args): \(r)")
        }
    }

    @Test(.enabled(if: !InhibitTool.machineHasRTC, "this machine has a real-time clock"))
    func wakeSystemOnThisMachineWithoutAnRTCIs69SoTheCapabilityArrived() async throws {
        let i = try await Install(capability: true)
        for args in [["+1h", "-D", "null", "--inhibit", "off"], ["daemon", "--inhibit", "off"]] {
            let r = try await i.run(args + ["--wake-system"], rtc: false)
            #expect(r.exitCode == 69 && r.stderrIsOneLine && r.stderr.contains("real-time clock"), "\(args): \(r)")
        }
        // Without the flag: armed anyway, on the ordinary clock, and the armed line's note says why.
        let dry = try await i.run(["07:00", "-D", "null", "--inhibit", "off", "--dry-run"], rtc: false)
        #expect(dry.exitCode == 0 && dry.stdout.contains("wake system: no: a closed lid or a suspend will delay this alarm: this machine has no real-time clock"), "\(dry)")
    }

    @Test func withoutTheCapabilityWakeSystemIs77AndNoFlagWarns() async throws {
        for helper in [true, false] {
            let i = try await Install(capability: false, helper: helper)
            let r = try await i.run(["+1h", "-D", "null", "--inhibit", "off", "--wake-system"])
            #expect(r.exitCode == 77 && r.stderrIsOneLine && r.stderr.contains("CAP_WAKE_ALARM") && r.stderr.contains("setcap"),
                    "helper present: \(helper): \(r)")
            let daemon = try await i.run(["daemon", "--inhibit", "off", "--wake-system"])
            #expect(daemon.exitCode == 77 && daemon.stderr.contains("CAP_WAKE_ALARM"), "\(daemon)")
            let dry = try await i.run(["07:00", "-D", "null", "--inhibit", "off", "--dry-run"])
            #expect(dry.exitCode == 0 && dry.stdout.contains("wake system: no: a closed lid or a suspend will delay this alarm"), "\(dry)")

            let wake = try i.start(["+1h", "-D", "null", "--inhibit", "off", "--events", i.events])
            let armed = try await i.waitForEvent("armed", wake)
            #expect(armed["wakes_system"] as? Bool == false)
            try await Self.waitFor("the note", wake) { wake.currentStdout.contains("note: a closed lid or a suspend will delay this alarm") }
            #expect(!Self.timerClocks(wake.pid).contains(9))
            wake.send(SIGTERM)
            _ = await wake.wait()

            let add = try await i.run(["add", "06:30", "-D", "null"])
            #expect(add.exitCode == 0 && add.stderr.contains("warning: a closed lid or a suspend will delay this alarm"), "\(add)")
            let list = try await i.run(["list", "--json"])
            #expect(list.stdout.contains("\"wakes_system\":false"), "\(list)")
        }
    }

    /// Issue 37: the helper makes no timer for a system account (nobody) or for a user with no
    /// session on a seat; wake arms on the ordinary clock and its line says why and what to do,
    /// as for a missing helper; `--wake-system` is then 77, for the one-off and the daemon.
    @Test func aUserTheHelpersPolicyRefusesIsArmedOnTheOrdinaryClockWithTheLine() async throws {
        for (user, says) in [(uid_t(65534), "uid 65534 is a system account"),
                             (HelperFixture.seatless, "uid \(HelperFixture.seatless) has no session on a seat")] {
            let i = try await Install(capability: true, user: user)
            let dry = try await i.run(["07:00", "-D", "null", "--inhibit", "off", "--dry-run"])
            #expect(dry.exitCode == 0 && dry.stdout.contains("wake system: no: a closed lid or a suspend will delay this alarm: ")
                    && dry.stdout.contains("wakes the machine only for a user logged in at its seat, and \(says)"), "\(dry)")

            let wake = try i.start(["+1h", "-D", "null", "--inhibit", "off", "--events", i.events])
            let armed = try await i.waitForEvent("armed", wake)
            #expect(armed["wakes_system"] as? Bool == false, "\(armed)")
            try await Self.waitFor("the note", wake) { wake.currentStdout.contains(says) }
            let note = wake.currentStdout.split(separator: "\n").first { $0.contains(says) } ?? ""
            #expect(note.hasPrefix("note: a closed lid or a suspend will delay this alarm: "), "\(wake.currentStdout)")
            let clocks = Self.timerClocks(wake.pid)
            #expect(!clocks.contains(8) && !clocks.contains(9) && clocks.contains(7), "\(clocks)")
            wake.send(SIGTERM)
            _ = await wake.wait()

            for args in [["+1h", "-D", "null", "--inhibit", "off"], ["daemon", "--inhibit", "off"]] {
                let r = try await i.run(args + ["--wake-system"])
                #expect(r.exitCode == 77 && r.stderrIsOneLine && r.stderr.contains(says), "\(args): \(r)")
            }
            let daemon = try i.start(["daemon", "--inhibit", "off"])
            defer { daemon.send(SIGKILL) }
            try await Self.waitFor("the daemon's warning", daemon) { daemon.currentStderr.contains(says) }
            #expect(daemon.currentStderr.contains("warning: a closed lid or a suspend will delay this alarm: "), "\(daemon.currentStderr)")
        }
    }

    // MARK: wake daemon

    @Test func theDaemonArmsOnTheAlarmClockWithNoInhibitorAndNotWithNoWakeSystem() async throws {
        let i = try await Install(capability: true)
        let add = try await i.run(["add", "23:59:59", "-D", "null", "--name", "late"])
        #expect(add.exitCode == 0 && !add.stderr.contains("warning"), "\(add)")

        let daemon = try i.start(["daemon", "--events", i.events])
        defer { daemon.send(SIGKILL) }
        try await Self.waitFor("the daemon's alarm timer", daemon) { Self.timerClocks(daemon.pid).contains(8) }
        #expect(daemon.currentStdout.contains("wakes a suspended machine"), "\(daemon.currentStdout)")
        #expect(Self.atSecure(daemon.pid) == 0)
        let list = try await i.run(["list", "--json"])
        let entry = (try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])?.first
        #expect(entry?["id"] as? String == "late" && entry?["wakes_system"] as? Bool == true, "\(list)")
        let armed = try await i.waitForEvent("armed", daemon)
        #expect(armed["wakes_system"] as? Bool == true, "\(armed)")
        daemon.send(SIGTERM)
        _ = await daemon.wait()

        let plain = try i.start(["daemon", "--no-wake-system", "--inhibit", "off"])
        defer { plain.send(SIGKILL) }
        try await Self.waitFor("the daemon's ordinary timer", plain) { Self.timerClocks(plain.pid).contains(0) }
        #expect(!Self.timerClocks(plain.pid).contains(8))
        // The timer is armed a moment before the daemon answers on its control socket; until it
        // does, wake list can only say what a daemon would do now. Asked until it answers.
        var table = try await i.run(["list"])
        let answered = ContinuousClock.now + .seconds(15)
        while !table.stderr.contains("marked no under WAKES") && ContinuousClock.now < answered {
            try await Task.sleep(for: .milliseconds(200))
            table = try await i.run(["list"])
        }
        #expect(table.stdout.contains("WAKES") && table.stderr.contains("marked no under WAKES"), "\(table)")
        plain.send(SIGTERM)
        _ = await plain.wait()
    }
}
