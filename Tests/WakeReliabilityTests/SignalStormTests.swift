import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// R3. Signals and the terminal: storms, signals at awkward moments, Ctrl-Z / fg. After each,
/// the exit code is the documented one and, on a pseudo-terminal, the terminal's settings are
/// exactly as before (the pty driver compares tcgetattr before and after, and while stopped).

/// Sends `count` signals spread over about `seconds`, in batches (the test thread never blocks long).
func signalStorm(_ pid: pid_t, _ signal: Int32, count: Int, seconds: Double) async {
    let batches = 20
    let perBatch = max(1, count / batches)
    var sent = 0
    while sent < count {
        for _ in 0..<min(perBatch, count - sent) {
            kill(pid, signal)
            sent += 1
        }
        try? await Task.sleep(for: .milliseconds(Int64(seconds * 1000) / Int64(batches)))
    }
}

@Suite("R3. Signals and the terminal")
struct SignalStormTests {
    // MARK: storms

    @Test("1000 SIGUSR1 in a second while ringing (on a pty): one snooze, it stays snoozed; SIGTERM → 0, terminal restored")
    func usr1StormOnPty() async throws {
        let (o, events) = try await runOnPty(
            ["now", "-D", "null", "--ring-for", "0", "--inhibit", "off"],
            steps: ["wait:ringing", "storm:USR1:1000:1.0", "sleep:0.5", "snapshot:after-storm", "signal:TERM"])
        #expect(o.error == nil, "\(o)")
        #expect(o.sent == 1001, "\(o)")
        #expect(o.exit == 0, "\(o)")
        #expect(o.restored, "\(o)")
        #expect(o.snapshots["after-storm"]?.cbreak == true, "still waiting for keys while snoozed: \(o)")
        #expect(events.filter { $0.name == "snoozed" }.count == 1, "\(o)")
        #expect(events.filter { $0.name == "ringing" }.count == 1, "\(o)")
        #expect(events.last?.name == "stopped" && events.last?["signal"] == "SIGTERM", "\(o)")
    }

    @Test("1000 SIGUSR1 in a second while ringing (no terminal): one snooze; SIGTERM → 0")
    func usr1Storm() async throws {
        let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "0", "--inhibit", "off"])
        try await wake.waitForEvent("ringing")
        await signalStorm(wake.pid, SIGUSR1, count: 1000, seconds: 1)
        try await wake.waitForEvent("snoozed")
        try await Task.sleep(for: .milliseconds(300))
        #expect(!wake.hasExited, "a storm of snoozes must not end the alarm: \(wake.eventLogText)")
        wake.send(SIGTERM)
        let r = await wake.wait()
        #expect(r.exitCode == 0, "\(wake.report(r))")
        #expect(wake.count("snoozed") == 1, "\(wake.report(r))")
        #expect(wake.count("ringing") == 1, "\(wake.report(r))")
        #expect(wake.events.last?.name == "stopped", "\(wake.report(r))")
    }

    @Test("1000 SIGUSR1 while waiting are ignored; SIGTERM → 143")
    func usr1StormWhileWaiting() async throws {
        let wake = try DetachedWake(["+1h", "-D", "null", "--inhibit", "off"])
        try await wake.waitForEvent("armed")
        await signalStorm(wake.pid, SIGUSR1, count: 1000, seconds: 1)
        try await Task.sleep(for: .milliseconds(200))
        #expect(!wake.hasExited)
        wake.send(SIGTERM)
        let r = await wake.wait()
        #expect(r.exitCode == 143, "\(wake.report(r))")
        #expect(wake.events.map(\.name) == ["armed", "cancelled"], "\(wake.report(r))")
    }

    @Test("a storm of stop signals while waiting cancels once", arguments: [(SIGHUP, Int32(129)), (SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func stopStorm(signal: Int32, expected: Int32) async throws {
        let wake = try DetachedWake(["+1h", "-D", "null", "--inhibit", "off"])
        try await wake.waitForEvent("armed")
        for _ in 0..<200 { kill(wake.pid, signal) }
        let r = await wake.wait()
        #expect(r.exitCode == expected, "\(wake.report(r))")
        #expect(wake.count("cancelled") == 1, "\(wake.report(r))")
    }

    // MARK: a signal at an awkward moment

    @Test("SIGTERM while snoozed (on a pty): exit 0, terminal restored")
    func termDuringSnooze() async throws {
        let (o, events) = try await runOnPty(
            ["now", "-D", "null", "--inhibit", "off"],
            steps: ["wait:ringing", "signal:USR1", "wait:snoozed", "signal:TERM"])
        #expect(o.error == nil, "\(o)")
        #expect(o.exit == 0, "\(o)")
        #expect(o.restored, "\(o)")
        #expect(events.last?.name == "stopped" && events.last?["signal"] == "SIGTERM", "\(o)")
    }

    @Test("SIGTERM right after a fallback (the failed device reopened): exit 0, stopped")
    func termDuringFallback() async throws {
        // --ring-for far beyond the test's own pace: a starved test process (the suite under
        // ASan on two cores) must still get its SIGTERM in before the alarm ends by itself.
        let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "10m", "--inhibit", "off"],
                                    environment: faults("pcm.write:null=ENODEV@20"))
        try await wake.waitForEvent("fallback", timeout: .seconds(15))
        wake.send(SIGTERM)
        let r = await wake.wait()
        #expect(r.exitCode == 0, "\(wake.report(r))")
        #expect(wake.events.last?.name == "stopped", "\(wake.report(r))")
    }

    @Test("SIGTERM while the bell rings (pty): exit 0, terminal restored")
    func termDuringBell() async throws {
        let (o, events) = try await runOnPty(
            ["now", "-D", "null", "--inhibit", "off"],
            steps: ["wait:ringing", "sleep:1.2", "signal:TERM"], environment: faults("pcm.open=EIO@1x0"))
        #expect(o.error == nil, "\(o)")
        #expect(o.exit == 0, "\(o)")
        #expect(o.restored, "\(o)")
        #expect(o.bells >= 1, "\(o)")
        #expect(events.last?.name == "stopped", "\(o)")
    }

    /// Starts wake with `arguments` and sends SIGTERM once it has the 10-minute FLAC open, while
    /// `decoding` still holds (nothing armed yet, say); up to five tries. Returns that wake and how
    /// it ended, or nil when every try missed the window.
    func termWhileDecoding(_ arguments: [String], environment: [String: String] = [:], events: Bool = true, dir: TestDirectory,
                           within: Duration = .seconds(10),
                           decoding: (DetachedWake) -> Bool = { _ in true },
                           beforeRetry: () -> Void = {}) async throws -> (DetachedWake, ProcessResult)? {
        for attempt in 0..<5 {
            // An attempt not caught in time may have finished its work (on a loaded machine):
            // what it left must not count against the next.
            if attempt > 0 { beforeRetry() }
            let wake = try DetachedWake(arguments, environment: environment, events: events, directory: dir)
            let deadline = ContinuousClock.now + within
            while ContinuousClock.now < deadline, !wake.hasExited {
                if openDescriptors("\(wake.pid)").values.contains(where: { $0.hasSuffix("/ten-minutes.flac") }) {
                    let before = decoding(wake)
                    kill(wake.pid, SIGTERM)
                    let r = await wake.wait()
                    if before { return (wake, r) }
                    break
                }
                try await Task.sleep(for: .milliseconds(1))
            }
            if !wake.hasExited { wake.send(SIGTERM); _ = await wake.wait() }
        }
        return nil
    }

    /// A user's own config, state and runtime directories in `dir`, in UTC.
    static func home(in dir: TestDirectory) -> [String: String] {
        mkdir(dir.file("run"), 0o700)
        return ["XDG_CONFIG_HOME": dir.file("config"), "XDG_STATE_HOME": dir.file("state"), "XDG_RUNTIME_DIR": dir.file("run"), "TZ": "UTC"]
    }

    static func makeTenMinuteFLAC(_ dir: TestDirectory) async throws -> String {
        let flac = dir.file("ten-minutes.flac")
        try await runTool(soxPath, ["-q", "-n", "-r", "44100", "-b", "16", "-c", "2", flac, "synth", "600", "sine", "440", "sine", "660", "vol", "0.5"],
                          directory: dir, timeout: .seconds(300))  // sox alone took over 60 s under ASan's load
        return flac
    }

    @Test("SIGTERM during the arm-time checks (decoding a 10-minute FLAC): cancelled before ringing, 143", arguments: ["+1h", "now"])
    func termDuringChecks(when: String) async throws {
        let dir = try TestDirectory()
        let flac = try await Self.makeTenMinuteFLAC(dir)
        let outcome = try await termWhileDecoding([when, "-s", flac, "-D", "null", "--inhibit", "off", "--ring-for", "5s"], dir: dir) {
            $0.events.isEmpty
        }
        let (wake, r) = try #require(outcome, "never caught wake while it was decoding the FLAC")
        // Before ringing, SIGTERM cancels: 143 and a cancelled event; `now` must not start ringing.
        #expect(r.exitCode == 143, "\(wake.report(r))")
        #expect(wake.count("ringing") == 0, "\(wake.report(r))")
        #expect(wake.events.last?.name == "cancelled", "\(wake.report(r))")
    }

    @Test("SIGTERM while `wake add` decodes a 10-minute FLAC: said in one line, 143, nothing added")
    func termDuringAdd() async throws {
        let dir = try TestDirectory()
        let flac = try await Self.makeTenMinuteFLAC(dir)
        let alarms = dir.file("config") + "/wake/alarms.toml"
        let caught = try await termWhileDecoding(["add", "07:00", "--name", "long", "-s", flac, "-D", "null"],
                                                 environment: Self.home(in: dir), events: false, dir: dir,
                                                 beforeRetry: { unlink(alarms) })
        let (wake, r) = try #require(caught, "never caught wake add while it was decoding the FLAC")
        #expect(r.exitCode == 143, "\(wake.report(r))")
        // Caught while decoding or just after (checking the device): either way one line, and nothing written.
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines[0].hasPrefix("wake: interrupted by SIGTERM while ") && lines[0].hasSuffix("; nothing was added"),
                "\(wake.report(r))")
        #expect(!FileManager.default.fileExists(atPath: alarms), "\(wake.report(r))")
    }

    @Test("SIGTERM while the daemon decodes an alarm's 10-minute FLAC: it ends at once, that alarm not armed, no fallback said")
    func termDuringDaemonLoad() async throws {
        let dir = try TestDirectory()
        let flac = try await Self.makeTenMinuteFLAC(dir)
        let home = Self.home(in: dir)
        let add = try await WakeProcess.run(["add", "07:00", "--name", "long", "-s", flac, "-D", "null"], environment: home)
        #expect(add.exitCode == 0, "\(add)")
        let caught = try await termWhileDecoding(["daemon", "--inhibit", "off"], environment: home, dir: dir, within: .seconds(20)) {
            $0.count("armed") == 0
        }
        let (daemon, r) = try #require(caught, "never caught the daemon while it was decoding the FLAC")
        // It ended as SIGTERM ends it; the alarm it was decoding for was never armed (the decoding
        // was given up), and nothing said it would ring the built-in sound instead.
        #expect(r.exitCode == 0, "\(daemon.report(r))")
        #expect(daemon.count("armed") == 0, "\(daemon.report(r))")
        #expect(!r.stderr.contains("built-in"), "\(daemon.report(r))")
    }

    // MARK: Ctrl-Z and fg

    @Test("Ctrl-Z while ringing (no challenge): a snooze, never a stopped and silent process; a key while snoozed stops it (0), restored")
    func ctrlZWhileRinging() async throws {
        let (o, events) = try await runOnPty(
            ["now", "-D", "null", "--ring-for", "0", "--inhibit", "off"],
            steps: ["wait:ringing", "cbreak", "snapshot:ringing", "ctrl:Z", "wait:snoozed", "snapshot:snoozed", "sleep:0.5", "key:x"])
        #expect(o.error == nil, "\(o)")
        #expect(o.exit == 0, "\(o)")
        #expect(o.restored, "\(o)")
        #expect(o.snapshots["ringing"]?.cbreak == true, "\(o)")
        #expect(o.snapshots["snoozed"]?.state != "T" && o.snapshots["snoozed"]?.cbreak == true, "\(o)")
        #expect(o.output.contains("Ctrl-Z does not pause a ringing alarm: it snoozes it, as s does"), "\(o)")
        #expect(events.first { $0.name == "ctrl_z" }?["result"] == "snoozed", "\(o)")
        #expect(events.last?.name == "stopped" && events.last?["key"] == "x", "\(o)")
    }

    /// A stopped process is not a stalled device: a stop (SIGSTOP: Ctrl-Z no longer stops a
    /// ring) longer than the 3 s stall limit must not make wake fall back when it is continued.
    @Test("SIGSTOP for 5 s while ringing, then SIGCONT: no fallback, rings on; a key stops it (0)")
    func longStopWhileRinging() async throws {
        let (o, events) = try await runOnPty(
            ["now", "-D", "null", "--ring-for", "0", "--inhibit", "off"],
            steps: ["wait:ringing", "cbreak", "signal:STOP", "state:T", "sleep:5", "signal:CONT", "cbreak", "sleep:2", "key:x"])
        #expect(o.error == nil, "\(o)")
        #expect(o.exit == 0, "\(o)")
        #expect(o.restored, "\(o)")
        #expect(!events.contains { $0.name == "fallback" }, "a stop and continue was taken for a stalled device: \(o)")
        #expect(!o.output.contains("failed"), "\(o)")
        #expect(events.last?.name == "stopped" && events.last?["key"] == "x", "\(o)")
    }

    @Test("Ctrl-Z while waiting: stopped with the terminal as before; SIGCONT; q cancels (130), restored")
    func ctrlZWhileWaiting() async throws {
        let (o, events) = try await runOnPty(
            ["+1h", "-D", "null", "--inhibit", "off"],
            steps: ["wait:armed", "cbreak", "ctrl:Z", "state:T", "snapshot:stopped", "signal:CONT", "cbreak", "key:q"])
        #expect(o.error == nil, "\(o)")
        #expect(o.exit == 130, "\(o)")
        #expect(o.restored, "\(o)")
        #expect(o.snapshots["stopped"]?.equals_before == true, "\(o)")
        #expect(events.last?.name == "cancelled", "\(o)")
    }

    @Test("Ctrl-Z twice while snoozed, then a key ends it (0), restored")
    func ctrlZWhileSnoozed() async throws {
        let (o, events) = try await runOnPty(
            ["now", "-D", "null", "--inhibit", "off"],
            steps: ["wait:ringing", "cbreak", "key:s", "wait:snoozed", "ctrl:Z", "state:T", "snapshot:stop1", "signal:CONT",
                    "cbreak", "ctrl:Z", "state:T", "snapshot:stop2", "signal:CONT", "cbreak", "key:x"])
        #expect(o.error == nil, "\(o)")
        #expect(o.exit == 0, "\(o)")
        #expect(o.restored, "\(o)")
        #expect(o.snapshots["stop1"]?.equals_before == true && o.snapshots["stop2"]?.equals_before == true, "\(o)")
        #expect(events.last?.name == "stopped", "\(o)")
    }

    @Test("Ctrl-C on the terminal: while ringing stops (0), while waiting cancels (130); restored", arguments: [
        ("now", "ringing", 0), ("+1h", "armed", 130),
    ])
    func ctrlC(when: String, event: String, expected: Int) async throws {
        let (o, _) = try await runOnPty([when, "-D", "null", "--inhibit", "off"], steps: ["wait:\(event)", "cbreak", "ctrl:C"])
        #expect(o.error == nil, "\(o)")
        #expect(o.exit == expected, "\(o)")
        #expect(o.restored, "\(o)")
    }

    // MARK: SIGPIPE

    @Test("SIGPIPE sent while ringing on a pty changes nothing; a key stops it (0), restored")
    func sigpipeSignal() async throws {
        let (o, events) = try await runOnPty(
            ["now", "-D", "null", "--inhibit", "off"],
            steps: ["wait:ringing", "cbreak", "storm:PIPE:100:0.2", "sleep:0.3", "key:x"])
        #expect(o.error == nil, "\(o)")
        #expect(o.signal == nil, "killed by signal \(o.signal ?? 0): \(o)")
        #expect(o.exit == 0, "\(o)")
        #expect(o.restored, "\(o)")
        #expect(events.last?.name == "stopped", "\(o)")
    }

    @Test("stdout a broken pipe while ringing and snoozing: no SIGPIPE death; SIGTERM → 0")
    func brokenPipeWhileRinging() async throws {
        let wake = try DetachedWake(["now", "-D", "null", "--inhibit", "off"], stdout: .brokenPipe)
        try await wake.waitForEvent("ringing")
        wake.send(SIGUSR1)  // "snoozed until" goes to the broken stdout
        try await wake.waitForEvent("snoozed")
        wake.send(SIGTERM)
        let r = await wake.wait()
        #expect(r.terminatingSignal == nil, "\(wake.report(r))")
        #expect(r.exitCode == 0, "\(wake.report(r))")
    }
}
