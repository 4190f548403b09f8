import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// The user unit `Resources/wake.service` under a real systemd user manager
/// (WakeTestSupport/SystemdUserManager.swift): the service starts, an alarm added a few seconds ahead
/// rings on a file PCM, a SIGKILL of the daemon while it rings is followed by a restart that
/// rings nothing twice, and a new alarm still rings.
///
/// The unit is installed as shipped; a drop-in (the way `systemctl --user edit wake` would)
/// points ExecStart at the binary under test and adds `--events`. The manager's environment
/// (`set-environment`) gives the service the test's `XDG_CONFIG_HOME`, `XDG_STATE_HOME` and
/// `TZ=UTC`; `wake add` runs with the same three.

// MARK: - Assumptions about `wake add` and `wake daemon`, all in one place

enum DaemonUnitAssumptions {
    /// Options given to `wake add` besides WHEN, `--name`, `-D` and `--ring-for` (its ring
    /// options are those of `wake WHEN` that belong to the alarm: sound, device, volume, fade-in,
    /// snooze, ring-for, late-limit).
    /// The ring times out as it always did (a standing alarm's default snoozes and rings again).
    static let addOptions: [String] = ["--unattended", "stop"]
    /// How long the first alarm rings: long enough that the SIGKILL lands while it rings, even
    /// on a busy machine (the daemon is killed as soon as audio reaches the capture file).
    static let firstRingFor = "30s"
    static let secondRingFor = "2s"
    /// The daemon's command line after the binary. `--inhibit` is the daemon's, not `wake
    /// add`'s (main's wip DaemonCommand); off: these tests want no logind on the system bus.
    static func daemonArguments(events: String) -> [String] { ["daemon", "--events", events, "--inhibit", "off"] }
    /// The event the daemon logs when an alarm starts ringing, and its field naming the alarm.
    static let ringingEvent = "ringing"
    static let alarmField = "alarm"
    static let timedOutEvent = "timed_out"
    /// How soon the daemon notices an alarm added, removed or skipped (the requirement: within
    /// a second).
    static let pickUp: Int = 1
}

/// The unit file in the source tree.
enum WakeUnitFile {
    static let path: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()  // Tests/WakeTests
            .deletingLastPathComponent().deletingLastPathComponent()  // the package
            .appendingPathComponent("Resources/wake.service").path
    }()

    static func text() throws -> String {
        guard let d = FileManager.default.contents(atPath: path) else { throw WakeTestError("cannot read \(path)") }
        return String(decoding: d, as: UTF8.self)
    }
}

@Suite(.serialized)
struct DaemonUnitTests {
    static let systemdAnalyze = "/usr/bin/systemd-analyze"

    // MARK: The unit file itself

    @Test func unitFileSaysWhatTheIssueAsks() throws {
        let lines = try WakeUnitFile.text().split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        func section(_ name: String) -> [String] {
            guard let start = lines.firstIndex(of: "[\(name)]") else { return [] }
            return Array(lines[(start + 1)...].prefix { !$0.hasPrefix("[") })
        }
        #expect(section("Unit").contains { $0.hasPrefix("Description=") })
        #expect(section("Unit").contains("Documentation=man:wake(1)"))
        #expect(section("Service").contains { $0.hasPrefix("ExecStart=") && $0.hasSuffix("/wake daemon") })
        #expect(section("Service").contains("Restart=on-failure"))
        #expect(section("Install").contains("WantedBy=default.target"))
    }

    /// `systemd-analyze verify --user` on the unit, its ExecStart pointed at a binary that
    /// exists (verify checks that it is executable). `--man=no`: the man page is not installed
    /// in the source tree.
    @Test(.enabled(if: access(systemdAnalyze, X_OK) == 0, "needs systemd-analyze (apt-get install systemd)"))
    func unitFileVerifies() async throws {
        let dir = try TestDirectory("wake-unit-verify")
        let runtime = dir.file("run")
        guard mkdir(runtime, 0o700) == 0 else { throw WakeTestError("mkdir \(runtime): errno \(errno)") }
        let text = try WakeUnitFile.text().replacingOccurrences(of: "/usr/local/bin/wake", with: WakeBinary.path)
        let unit = try dir.write("wake.service", Array(text.utf8))
        let p = try ChildProcess(Self.systemdAnalyze, ["verify", "--user", "--man=no", unit],
                                 environment: ["XDG_RUNTIME_DIR": runtime, "SYSTEMD_LOG_COLOR": "0"], directory: dir)
        let r = await p.wait(timeout: .seconds(60))
        // Exit 0 even with warnings such as an unknown key ("ignoring"), which name the unit.
        #expect(r.exitCode == 0 && !r.stderr.contains("wake.service"), "\(r)")
    }

    // MARK: The harness, with a trivial unit

    /// What the end-to-end test relies on, without wake: the manager starts a unit, and a
    /// SIGKILL of its main process is followed by a restart (`Restart=on-failure`).
    @Test(.enabled(if: SystemdUserManager.isAvailable, "needs root, systemd, unshare and nsenter"))
    func userManagerRestartsAKilledService() async throws {
        try await SystemdUserManager.with { m in
            try await m.installUnit("sleeper.service", text: """
                [Service]
                Type=exec
                ExecStart=/bin/sleep 1000
                Restart=on-failure
                RestartSec=1s

                """)
            try await m.systemctlChecked(["start", "sleeper"])
            #expect(try await m.activeState(of: "sleeper") == "active")
            let first = try await m.signalMainProcess(of: "sleeper", SIGKILL)
            let second = try await waitForRestart(m, "sleeper", after: first)
            #expect(second != first)
            #expect(try await m.property("NRestarts", of: "sleeper") == "1")
        }
    }

    // MARK: wake daemon as the user service

    @Test(.enabled(if: SystemdUserManager.isAvailable, "needs root, systemd, unshare and nsenter"),
          .timeLimit(.minutes(4)))
    func serviceRingsRestartsAfterSIGKILLAndRingsTheKilledRingOnceMore() async throws {
        typealias A = DaemonUnitAssumptions
        let dir = try TestDirectory("wake-daemon-unit")
        let events = dir.file("events.jsonl")
        let stateHome = dir.file("state")
        guard mkdir(stateHome, 0o700) == 0 else { throw WakeTestError("mkdir \(stateHome): errno \(errno)") }

        try await SystemdUserManager.with { m in
            // The same alarm store for the service and for `wake add`: the manager's own config home.
            let wakeEnv = ["XDG_CONFIG_HOME": m.configHome, "XDG_STATE_HOME": stateHome, "TZ": "UTC"]
            func report() -> String {
                "events:\n\(ChildProcess.read(events))\nmanager and service log:\n\(m.log)"
            }
            func ringings(_ alarm: String) -> [WakeEvent] {
                WakeEvent.read(events).filter { $0.name == A.ringingEvent && $0[A.alarmField] == alarm }
            }

            try await m.installUnit("wake.service", text: try WakeUnitFile.text())
            let command = ([WakeBinary.path] + A.daemonArguments(events: events)).map(Self.unitQuoted).joined(separator: " ")
            try await m.installDropIn(for: "wake.service", text: "[Service]\nExecStart=\nExecStart=\(command)\n")
            try await m.setEnvironment(wakeEnv)

            // The service starts the way users are told to start it (which also needs the
            // [Install] section: WantedBy=default.target).
            try await m.systemctlChecked(["enable", "--now", "wake"])
            #expect(try await m.systemctl(["is-enabled", "wake"]).stdout == "enabled\n")
            #expect(FileManager.default.fileExists(atPath: m.unitDirectory + "/default.target.wants/wake.service"))
            #expect(try await m.activeState(of: "wake") == "active", "\(report())")
            let firstPID = try await m.mainPID(of: "wake")
            #expect(firstPID > 0)

            // An alarm a few seconds ahead rings, on its file PCM.
            let capture1 = dir.file("soon.raw")
            let due1 = try await addSoon("soon", capture: capture1, ringFor: A.firstRingFor, env: wakeEnv, dir: dir)
            try await waitUntil("alarm 'soon' rings (due \(due1))", timeout: .seconds(Int64(due1 - time(nil)) + 60), report) {
                !ringings("soon").isEmpty
            }
            try await waitUntil("audio of 'soon' in \(capture1)", timeout: .seconds(30), report) { hasAudio(capture1) }

            // SIGKILL the daemon while it rings: the manager restarts it.
            #expect(WakeEvent.read(events).filter { $0.name == A.timedOutEvent && $0[A.alarmField] == "soon" }.isEmpty,
                    "the kill came after the ring ended: \(report())")
            let killed = try await m.signalMainProcess(of: "wake", SIGKILL)
            #expect(killed == firstPID, "the daemon had restarted before it rang: \(report())")
            let restartedPID = try await waitForRestart(m, "wake", after: killed)
            #expect(restartedPID != killed)

            // The ring the kill ended is rung again once by the restarted daemon (issue 25), and
            // after it times out, never a third time.
            try await waitUntil("alarm 'soon' rung again after the restart", timeout: .seconds(30), report) {
                ringings("soon").count >= 2
            }
            try await waitUntil("the resumed ring of 'soon' times out", timeout: .seconds(60), report) {
                !WakeEvent.read(events).filter { $0.name == A.timedOutEvent && $0[A.alarmField] == "soon" }.isEmpty
            }
            try await Task.sleep(for: .seconds(3))
            #expect(ringings("soon").count == 2, "'soon' rang more than once after the restart: \(report())")
            #expect(try await m.activeState(of: "wake") == "active", "\(report())")
            #expect(try await m.mainPID(of: "wake") == restartedPID, "the daemon restarted again: \(report())")

            // A new alarm rings: the restarted daemon works.
            let capture2 = dir.file("later.raw")
            let due2 = try await addSoon("later", capture: capture2, ringFor: A.secondRingFor, env: wakeEnv, dir: dir)
            try await waitUntil("alarm 'later' rings (due \(due2))", timeout: .seconds(Int64(due2 - time(nil)) + 60), report) {
                !ringings("later").isEmpty
            }
            try await waitUntil("audio of 'later' in \(capture2)", timeout: .seconds(30), report) { hasAudio(capture2) }
            #expect(ringings("soon").count == 2, "\(report())")
            #expect(try await m.mainPID(of: "wake") == restartedPID, "\(report())")
        }
    }

    // MARK: - Helpers

    /// `wake add HH:MM:SS --name NAME -D file:'CAPTURE',raw --ring-for ...` (UTC), a few seconds
    /// ahead: far enough that the daemon (which notices within a second) arms it before it is
    /// due. When the machine was too slow and `wake add` returned too close to the time, the
    /// alarm is removed and added again further ahead. Returns when it is due (epoch seconds).
    func addSoon(_ name: String, capture: String, ringFor: String, env: [String: String], dir: TestDirectory) async throws -> time_t {
        typealias A = DaemonUnitAssumptions
        var lead: time_t = 6
        for _ in 0..<3 {
            var due = time(nil) + lead
            var parts = tm()
            gmtime_r(&due, &parts)
            let when = String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
            let add = try ChildProcess(WakeBinary.path, ["add", when, "--name", name, "-D", "file:'\(capture)',raw",
                                                         "--ring-for", ringFor] + A.addOptions,
                                       environment: env, directory: dir)
            let r = await add.wait(timeout: .seconds(30))
            guard r.exitCode == 0 else { throw WakeTestError("wake add \(when) --name \(name) failed: \(r)") }
            if time(nil) + time_t(A.pickUp) + 1 < due { return due }
            let rm = try ChildProcess(WakeBinary.path, ["remove", name], environment: env, directory: dir)
            let rr = await rm.wait(timeout: .seconds(30))
            guard rr.exitCode == 0 else { throw WakeTestError("wake remove \(name) failed: \(rr)") }
            lead *= 2
        }
        throw WakeTestError("the machine was too busy to add an alarm a few seconds ahead, three times")
    }

    /// Waits until the unit runs again under a main PID other than `old`; returns the new one.
    func waitForRestart(_ m: SystemdUserManager, _ unit: String, after old: pid_t,
                        timeout: Duration = .seconds(60)) async throws -> pid_t {
        let deadline = ContinuousClock.now + timeout
        while true {
            let pid = try await m.mainPID(of: unit)
            let state = try await m.activeState(of: unit)
            if pid > 0, pid != old, state == "active" { return pid }
            if ContinuousClock.now >= deadline {
                throw WakeTestError("\(unit) was not restarted within \(timeout) (state \(state), MainPID \(pid))\n"
                                    + "status:\n\(try await m.systemctl(["status", unit]).stdout)\nlog:\n\(m.log)")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    func waitUntil(_ what: String, timeout: Duration, _ report: () -> String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now >= deadline { throw WakeTestError("not within \(timeout): \(what)\n\(report())") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// True when the capture file holds some sound: at least 0.1 s of 16-bit stereo at 48 kHz
    /// worth of bytes, not all zero.
    func hasAudio(_ path: String) -> Bool {
        guard let d = FileManager.default.contents(atPath: path), d.count >= 19_200 else { return false }
        return d.contains { $0 != 0 }
    }

    /// A word for a unit's command line: quoted when it has anything a unit file would split
    /// or expand.
    static func unitQuoted(_ word: String) -> String {
        if word.allSatisfy({ $0.isLetter || $0.isNumber || "/._-+:=,".contains($0) }) { return word }
        return "\"" + word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "%", with: "%%").replacingOccurrences(of: "$", with: "$$") + "\""
    }
}
