import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// End-to-end tests of the "never sleep" lock (`--inhibit`), of logind's PrepareForSleep signal,
/// and of `--wake-system`'s checks, run against the real `wake` binary and a fake logind
/// (python-dbusmock) on a private system bus (see WakeTestSupport/LogindMock.swift).
///
/// Every test that needs the bus starts its own; the suite is serialized only to keep the load
/// (a python process per test) down on small machines.
@Suite(.serialized)
struct InhibitorTests {
    // MARK: the lock, taken and released

    @Test(.enabled(if: LogindMock.isAvailable, "needs python3-dbusmock, dbus-daemon and busctl"))
    func waitingAlarmHoldsLogindLockUntilCancelled() async throws {
        try await LogindMock.with { mock in
            let wake = try WakeProcess(["+1h", "-D", "null"], environment: mock.environment.merging(["TZ": "UTC"]) { $1 })
            let armed = try await wake.waitForEvent("armed")
            let inhibited = try await wake.waitForEvent("inhibited")
            #expect(inhibited["what"] == "sleep:idle")
            #expect(inhibited["mode"] == "block")

            // logind was asked once, for exactly this, and the why names the alarm's time.
            let calls = mock.inhibitCalls
            #expect(calls.count == 1, "Inhibit calls in the mock log:\n\(mock.log)")
            let call = try #require(calls.first, "no Inhibit call in the mock log:\n\(mock.log)")
            #expect(call.what == "sleep:idle")
            #expect(call.who == "wake")
            #expect(call.mode == "block")
            let deadline = try #require(armed["deadline"])
            #expect(InhibitTime.why(call.why, names: deadline),
                    "the why '\(call.why)' does not name the armed deadline \(deadline) as 'alarm at HH:MM'")

            // While waiting the lock is held: logind lists it, and wake has the lock's pipe open.
            let held = try await mock.inhibitors()
            #expect(held == [LogindMock.Inhibitor(what: "sleep:idle", who: "wake", why: call.why, mode: "block")])
            let lockFDs = mock.sharedPipes(withProcess: wake.pid)
            #expect(lockFDs.count == 1, "wake's descriptors shared with the mock: \(lockFDs); wake's pipes: \(LogindMock.pipes(ofProcess: wake.pid))")

            wake.send(SIGTERM)
            let r = await wake.wait()
            #expect(r.exitCode == 143, "\(r)")
            let cancelled = wake.events.first { $0.name == "cancelled" }
            #expect(cancelled != nil, "no 'cancelled' event:\n\(wake.eventLogText)")
            #expect(access("/proc/\(wake.pid)", F_OK) != 0, "the wake process is still there")
            // Gone, and the lock with it.
            try await mock.waitForInhibitors(count: 0)
        }
    }

    @Test(.enabled(if: LogindMock.isAvailable, "needs python3-dbusmock, dbus-daemon and busctl"))
    func ringingAlarmTakesTheLockToo() async throws {
        try await LogindMock.with { mock in
            let wake = try WakeProcess(["now", "-D", "null", "--ring-for", "2s"],
                                       environment: mock.environment.merging(["TZ": "UTC"]) { $1 })
            let r = await wake.wait()
            #expect(r.exitCode == 4, "\(r)")
            let calls = mock.inhibitCalls
            #expect(calls.count == 1, "Inhibit calls in the mock log:\n\(mock.log)")
            #expect(calls.first.map { $0.what == "sleep:idle" && $0.who == "wake" && $0.mode == "block" } == true, "\(calls)")
            if let call = calls.first, let deadline = wake.events.first(where: { $0.name == "armed" })?["deadline"] {
                #expect(InhibitTime.why(call.why, names: deadline), "the why '\(call.why)' does not name the deadline \(deadline)")
            }
            let names = wake.events.map(\.name)
            #expect(names.contains("inhibited"), "events:\n\(wake.eventLogText)")
            #expect(names.contains("ringing"), "events:\n\(wake.eventLogText)")
            #expect(names.contains("timed_out"), "events:\n\(wake.eventLogText)")
            try await mock.waitForInhibitors(count: 0)
        }
    }

    /// The lock is released by wake itself, not only by the kernel at exit: watched with strace,
    /// the lock's pipe descriptor (the one shared with the mock) is closed before `exit_group`.
    /// From outside, without ptrace, a release an instant before exit cannot be told from the exit.
    @Test(.enabled(if: LogindMock.isAvailable, "needs python3-dbusmock, dbus-daemon and busctl"),
          .enabled(if: InhibitStrace.works, "needs a working /usr/bin/strace (ptrace)"),
          arguments: [InhibitEnding.cancelled, .timedOut])
    func lockIsClosedBeforeExit(_ ending: InhibitEnding) async throws {
        try await LogindMock.with { mock in
            let dir = mock.directory
            let trace = dir.file("strace-\(ending).txt")
            let events = dir.file("events-\(ending).jsonl")
            let args = ending == .cancelled ? ["+1h", "-D", "null"] : ["now", "-D", "null", "--ring-for", "3s"]
            let strace = try ChildProcess(InhibitStrace.path, ["-f", "-y", "-e", "trace=close,exit_group", "-o", trace,
                                                               WakeBinary.path] + args + ["--events", events],
                                          environment: mock.environment.merging(["TZ": "UTC"]) { $1 }, directory: dir)
            _ = try await InhibitEvents.wait(for: "inhibited", in: events, process: strace)
            let wakePID = try #require(InhibitProcTable.children(of: strace.pid).first, "no wake process under strace")
            let lock = mock.sharedPipes(withProcess: wakePID)
            #expect(lock.count == 1, "wake's pipes shared with the mock: \(lock)")
            let (fd, pipe) = try #require(lock.first)
            if ending == .cancelled { kill(wakePID, SIGTERM) }
            let r = await strace.wait()
            #expect(r.exitCode == (ending == .cancelled ? 143 : 4), "\(r)")
            let lines = ChildProcess.read(trace).split(separator: "\n").map(String.init)
            // No closing parenthesis: with another thread's call in between, strace splits the line
            // ("close(21<pipe:[...]> <unfinished ...>", then "<... close resumed>) = 0").
            let closeAt = lines.firstIndex { $0.contains("close(\(fd)<\(pipe)>") }
            let exitAt = lines.firstIndex { $0.contains("exit_group(") }
            let c = try #require(closeAt, "the lock fd \(fd) (\(pipe)) was never closed; trace:\n\(lines.suffix(30).joined(separator: "\n"))")
            let e = try #require(exitAt, "no exit_group in the trace:\n\(lines.suffix(30).joined(separator: "\n"))")
            #expect(c < e, "the lock was closed only after exit_group")
            try await mock.waitForInhibitors(count: 0)
        }
    }

    // MARK: no bus

    static let noBus = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent/socket"]

    @Test func autoWithoutBusWarnsOnceAndStillRings() async throws {
        let wake = try WakeProcess(["now", "-D", "null", "--ring-for", "1s"], environment: Self.noBus)
        let r = await wake.wait()
        #expect(r.exitCode == 4, "\(r)")
        #expect(r.stderrIsOneLine, "stderr should be one warning line: \(r)")
        let warnings = r.stderrLines.filter { $0.contains("cannot keep the machine awake") }
        #expect(warnings.count == 1, "\(r)")
        #expect(warnings.first?.contains("suspend") == true, "the warning should say a suspend delays the alarm: \(r)")
        let names = wake.events.map(\.name)
        #expect(names.contains("inhibit_failed"), "events:\n\(wake.eventLogText)")
        #expect(wake.events.first { $0.name == "inhibit_failed" }?["reason"]?.isEmpty == false)
        #expect(!names.contains("inhibited"), "events:\n\(wake.eventLogText)")
        #expect(names.contains("ringing"), "events:\n\(wake.eventLogText)")
    }

    @Test func requireWithoutBusRefusesToArm() async throws {
        let wake = try WakeProcess(["now", "-D", "null", "--ring-for", "1s", "--inhibit", "require"], environment: Self.noBus)
        let r = await wake.wait()
        #expect(r.exitCode == 69, "\(r)")
        #expect(r.stderrIsOneLine, "\(r)")
        #expect(r.stderr.contains("cannot keep the machine awake"), "\(r)")
        #expect(!wake.events.map(\.name).contains("ringing"), "events:\n\(wake.eventLogText)")
    }

    // MARK: off

    @Test(.enabled(if: LogindMock.isAvailable, "needs python3-dbusmock, dbus-daemon and busctl"))
    func offTakesNoLock() async throws {
        try await LogindMock.with { mock in
            let wake = try WakeProcess(["+1h", "-D", "null", "--inhibit", "off"], environment: mock.environment)
            try await wake.waitForEvent("armed")
            #expect(mock.sharedPipes(withProcess: wake.pid).isEmpty)
            #expect(try await mock.inhibitors().isEmpty)
            wake.send(SIGTERM)
            let r = await wake.wait()
            #expect(r.exitCode == 143, "\(r)")
            #expect(mock.inhibitCalls.isEmpty, "mock log:\n\(mock.log)")
            #expect(!mock.log.contains(" Inhibit "), "mock log:\n\(mock.log)")
            let names = wake.events.map(\.name)
            #expect(!names.contains("inhibited"), "events:\n\(wake.eventLogText)")
            #expect(!names.contains("inhibit_failed"), "events:\n\(wake.eventLogText)")
        }
    }

    // MARK: PrepareForSleep

    @Test(.enabled(if: LogindMock.isAvailable, "needs python3-dbusmock, dbus-daemon and busctl"))
    func prepareForSleepIsReportedAsSuspendAndResume() async throws {
        try await LogindMock.with { mock in
            let wake = try WakeProcess(["+1h", "-D", "null"], environment: mock.environment)
            try await wake.waitForEvent("inhibited")
            try await mock.emitPrepareForSleep(true)
            try await wake.waitForEvent("suspended")
            try await mock.emitPrepareForSleep(false)
            let resumed = try await wake.waitForEvent("resumed")
            #expect(resumed["slept_s"] != nil, "\(resumed)")
            let names = wake.events.map(\.name)
            let s = try #require(names.firstIndex(of: "suspended"))
            let res = try #require(names.firstIndex(of: "resumed"))
            #expect(s < res, "events:\n\(wake.eventLogText)")
            #expect(!names.contains("ringing"), "a resume one hour early must not ring:\n\(wake.eventLogText)")
            wake.send(SIGTERM)
            let r = await wake.wait()
            #expect(r.exitCode == 143, "\(r)")
        }
    }

    // MARK: --wake-system

    /// Unprivileged: as nobody (with setpriv when the tests run as root), or as the test's own
    /// user when that is not root and has no CAP_WAKE_ALARM.
    @Test(.enabled(if: getuid() == 0 ? access(InhibitTool.setpriv, X_OK) == 0 : !InhibitCaps.hasWakeAlarm,
                   "needs root and setpriv, or an unprivileged user"))
    func wakeSystemWithoutCapabilityIsRefused() async throws {
        let dir = try TestDirectory("wake-nocap")
        let args = ["+1h", "-D", "null", "--wake-system", "--inhibit", "off"]
        let child: ChildProcess
        if getuid() == 0 {
            let binary = try InhibitTool.binaryUsableByOthers(in: dir)
            child = try ChildProcess(InhibitTool.setpriv, ["--reuid", "65534", "--regid", "65534", "--clear-groups", binary] + args,
                                     environment: Self.noBus, directory: dir)
        } else {
            child = try ChildProcess(WakeBinary.path, args, environment: Self.noBus, directory: dir)
        }
        let r = await child.wait()
        #expect(r.exitCode == 77, "\(r)")
        #expect(r.stderrIsOneLine, "\(r)")
        #expect(r.stderr.contains("CAP_WAKE_ALARM"), "\(r)")
        #expect(r.stderr.contains("setcap"), "\(r)")
    }

    @Test(.enabled(if: getuid() == 0 && InhibitCaps.hasWakeAlarm, "needs root with CAP_WAKE_ALARM"),
          .enabled(if: !InhibitTool.machineHasRTC, "this machine has a real-time clock"))
    func wakeSystemWithoutRealTimeClockIsRefused() async throws {
        let r = try await WakeProcess.run(["+1h", "-D", "null", "--wake-system", "--inhibit", "off"], environment: Self.noBus)
        #expect(r.exitCode == 69, "\(r)")
        #expect(r.stderrIsOneLine, "\(r)")
        #expect(r.stderr.contains("real-time clock"), "\(r)")
    }

    #if DEBUG
    /// `WAKE_TEST_RTC_DIR` (debug builds only) stands in for /sys/class/rtc.
    @Test(.enabled(if: getuid() == 0 && InhibitCaps.hasWakeAlarm, "needs root with CAP_WAKE_ALARM"))
    func wakeSystemWithAnEmptyRTCListIsRefused() async throws {
        let dir = try TestDirectory("wake-rtc")
        let r = try await WakeProcess.run(["+1h", "-D", "null", "--wake-system", "--inhibit", "off"],
                                          environment: Self.noBus.merging(["WAKE_TEST_RTC_DIR": dir.path]) { $1 })
        #expect(r.exitCode == 69, "\(r)")
        #expect(r.stderrIsOneLine, "\(r)")
        #expect(r.stderr.contains("real-time clock"), "\(r)")
    }

    @Test(.enabled(if: getuid() == 0 && InhibitCaps.hasWakeAlarm, "needs root with CAP_WAKE_ALARM"))
    func wakeSystemArmsWhenThereIsAnRTC() async throws {
        let dir = try TestDirectory("wake-rtc")
        _ = try dir.write("rtc0", [])
        let wake = try WakeProcess(["+1h", "-D", "null", "--wake-system", "--inhibit", "off"],
                                   environment: Self.noBus.merging(["WAKE_TEST_RTC_DIR": dir.path, "TZ": "UTC"]) { $1 })
        let armed = try await wake.waitForEvent("armed")
        let wakeSystem = try await wake.waitForEvent("wake_system")
        #expect(wakeSystem["at"] != nil && wakeSystem["at"] == armed["deadline"], "\(wakeSystem) vs \(armed)")
        wake.send(SIGTERM)
        let r = await wake.wait()
        #expect(r.exitCode == 143, "\(r)")
        #expect(r.stdout.contains("RTC will wake it"), "\(r)")
        #expect(wake.events.contains { $0.name == "cancelled" }, "events:\n\(wake.eventLogText)")
    }
    #endif
}

// MARK: helpers

enum InhibitEnding: String, CustomStringConvertible, Sendable {
    case cancelled, timedOut
    var description: String { rawValue }
}

enum InhibitTime {
    /// Seconds since local midnight of `HH:MM[:SS]`.
    static func seconds(_ text: Substring) -> Int? {
        let parts = text.split(separator: ":").map { Int($0) }
        guard parts.count == 2 || parts.count == 3, !parts.contains(where: { $0 == nil }) else { return nil }
        return parts[0]! * 3600 + parts[1]! * 60 + (parts.count == 3 ? parts[2]! : 0)
    }

    /// True when `why` is `alarm at HH:MM` (or `HH:MM:SS`) and names, within a second, the local
    /// time of day of `deadline` (an ISO 8601 time such as `2026-11-22T01:12:51+00:00`).
    static func why(_ why: String, names deadline: String) -> Bool {
        guard why.hasPrefix("alarm at "), let w = seconds(why.dropFirst("alarm at ".count)),
              let t = deadline.firstIndex(of: "T") else { return false }
        let clock = deadline[deadline.index(after: t)...].prefix(8)
        guard let d = seconds(clock) else { return false }
        let diff = abs(w - d) % 86400
        return min(diff, 86400 - diff) <= 1
    }
}

enum InhibitCaps {
    /// Whether this (test) process has CAP_WAKE_ALARM (35) in its effective set.
    static let hasWakeAlarm: Bool = {
        let status = ChildProcess.read("/proc/self/status")
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("CapEff:") }),
              let caps = UInt64(line.dropFirst("CapEff:".count).trimmingCharacters(in: .whitespaces), radix: 16) else { return false }
        return caps & (1 << 35) != 0
    }()
}

enum InhibitTool {
    static let setpriv = "/usr/bin/setpriv"

    static var machineHasRTC: Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/rtc")) ?? []
        return names.contains { $0.hasPrefix("rtc") }
    }

    /// The wake binary, at a path another user can execute: where it is, if every directory above
    /// it is searchable and the file readable and executable by others; else a copy, mode 0755,
    /// in `dir` (made 0755).
    static func binaryUsableByOthers(in dir: TestDirectory) throws -> String {
        let original = URL(fileURLWithPath: WakeBinary.path).resolvingSymlinksInPath().path
        var ok = mode(original).map { $0 & 0o005 == 0o005 } ?? false
        var d = URL(fileURLWithPath: original).deletingLastPathComponent()
        while ok && d.path != "/" {
            ok = mode(d.path).map { $0 & 0o001 != 0 } ?? false
            d = d.deletingLastPathComponent()
        }
        if ok { return original }
        let copy = try dir.write("wake", try Data(contentsOf: URL(fileURLWithPath: original)), mode: 0o755)
        guard chmod(dir.path, 0o755) == 0 else { throw WakeTestError("chmod failed: errno \(errno)") }
        return copy
    }

    private static func mode(_ path: String) -> mode_t? {
        var st = stat()
        return stat(path, &st) == 0 ? st.st_mode : nil
    }
}

enum InhibitStrace {
    static let path = "/usr/bin/strace"

    /// True when strace is installed and may trace a child here (ptrace can be forbidden in containers).
    static let works: Bool = {
        guard access(path, X_OK) == 0, let p = try? ChildProcess(path, ["-o", "/dev/null", "/bin/true"]) else { return false }
        for _ in 0..<500 {
            if p.poll() { return p.result?.exitCode == 0 }
            usleep(20_000)
        }
        return false  // the ChildProcess deinit kills it
    }()
}

enum InhibitProcTable {
    /// The pids whose parent is `pid`, from /proc/*/stat.
    static func children(of pid: pid_t) -> [pid_t] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { name -> pid_t? in
            guard let p = pid_t(name) else { return nil }
            let stat = ChildProcess.read("/proc/\(p)/stat")
            // pid (comm) state ppid ...; comm may hold spaces and parentheses: split after the last ')'.
            guard let close = stat.lastIndex(of: ")") else { return nil }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, pid_t(fields[1]) == pid else { return nil }
            return p
        }
    }
}

enum InhibitEvents {
    /// Polls an events file (20 ms steps) until an event called `name` is in it.
    static func wait(for name: String, in path: String, process: ChildProcess,
                     timeout: Duration = .seconds(15)) async throws -> WakeEvent {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let e = WakeEvent.read(path).first(where: { $0.name == name }) { return e }
            if process.hasExited {
                if let e = WakeEvent.read(path).first(where: { $0.name == name }) { return e }
                throw WakeTestError("\(process.executable) exited before event '\(name)': \(process.result!)\nevents:\n\(ChildProcess.read(path))")
            }
            if ContinuousClock.now >= deadline {
                throw WakeTestError("no event '\(name)' within \(timeout)\nevents:\n\(ChildProcess.read(path))\nstderr:\n\(process.currentStderr)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
