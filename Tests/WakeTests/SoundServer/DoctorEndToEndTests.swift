import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 39's done-when for `wake doctor`, end to end: the real binary, with `wake daemon`
/// running in the test's HOME, a private sound server (PulseAudio, then PipeWire) with a null
/// sink `speaker` as its default, python-dbusmock's notification server (with buttons) on a
/// private session bus, and its logind and timedated (NTPSynchronized true) on a private system
/// bus. Each case is named by `wake doctor` with its fix and the right exit status, as a user
/// reads it (the status word, the found line naming the sink or the file, the fix line under it)
/// and as a script does (`--json`, one object per check).
///
/// What this container cannot give, and how the tests stand in for it:
/// - no real-time clock and no logind records of linger: the debug build's seams
///   `WAKE_TEST_RTC_DIR` (a directory holding `rtc0`) and `WAKE_TEST_LINGER_DIR` (holding the
///   user's linger flag) stand in, so waking.rtc, waking.lid and daemon.linger can pass;
/// - no systemd user manager answering `systemctl --user` from outside its namespace: here
///   daemon.unit is a WARN ("systemd's user manager does not answer") for a daemon started by
///   hand, the one check a healthy setup does not pass, so a healthy run exits 1, not 0. The
///   unit's own test below (`DoctorUnitEndToEndTests`) runs the daemon as the user unit under a
///   real user manager and the doctor inside its namespace: there a healthy setup exits 0.
/// - `TZ` is left unset, so the daemon and the doctor ring by the machine's own /etc/localtime.
enum DoctorBench {
    /// The checks a healthy setup on a sound server shows, every one of them.
    static let healthyChecks: Set<String> = [
        "files.config", "files.alarms", "files.history", "files.alarms-directory", "files.state-directory",
        "daemon.running", "daemon.unit", "daemon.linger", "time.zone", "time.sync", "time.next",
        "sound.file", "sound.device", "sound.sink", "sound.stream", "waking.rtc", "waking.inhibitor", "waking.lid",
        "notifications.server",
    ]
    /// The one check this container cannot pass with a daemon started by hand (see above).
    static let environmentChecks: Set<String> = ["daemon.unit"]

    /// The words after `wake` that `WakeMain.run` dispatches (and `now`, a one-off's WHEN):
    /// a fix line may tell a user to run only these.
    static let commands: Set<String> = ["add", "list", "next", "skip", "pause", "resume", "remove", "stop", "snooze", "cancel",
                                        "daemon", "doctor", "test", "help", "now"]

    /// A weekday three days from now (in UTC): whatever the machine's zone, the alarms are two to
    /// four days away, so none rings (and moves a mixer) while a test runs.
    static let farDay: String = {
        var t = time(nil) + 3 * 86_400
        var parts = tm()
        gmtime_r(&t, &parts)
        return ["sun", "mon", "tue", "wed", "thu", "fri", "sat"][Int(parts.tm_wday)]
    }()

    static var enabled: Bool { PulseAudioServer.isAvailable && NotificationMock.isAvailable && LogindMock.isAvailable }
}

/// One `wake doctor` run, as text and as `--json`.
struct DoctorRun: CustomStringConvertible {
    let text: ProcessResult
    let json: ProcessResult
    /// `--json`'s objects, in order.
    let objects: [[String: Any]]

    var exitCode: Int32? { text.exitCode }
    var lines: [String] { text.stdoutLines }
    var description: String { "\(text)\n--- json ---\n\(json.stdout)" }

    /// The objects of `check` (for `alarm`, when given).
    func objects(_ check: String, alarm: String? = nil) -> [[String: Any]] {
        objects.filter { o in o["check"] as? String == check && (alarm.map { (o["alarms"] as? [String])?.contains($0) == true } ?? true) }
    }

    /// The status word of `check` for `alarm`, when there is exactly one such object.
    func status(_ check: String, alarm: String? = nil) -> String? {
        let o = objects(check, alarm: alarm)
        return o.count == 1 ? o[0]["status"] as? String : nil
    }

    func found(_ check: String, alarm: String? = nil) -> String? {
        let o = objects(check, alarm: alarm)
        return o.count == 1 ? o[0]["found"] as? String : nil
    }

    /// The text line `STATUS  AREA  [ALARM: ]...` holding every one of `found` (a finding several
    /// alarms share names them together, `quiet, work: `), and the fix line under it (nil when the
    /// next line is another check's).
    func shown(_ status: String, _ area: String, alarm: String? = nil, _ found: [String]) -> (line: String, fix: String?)? {
        let head = status + "  " + area.padding(toLength: 13, withPad: " ", startingAt: 0) + " "
        func names(_ line: String) -> [Substring] {
            line.dropFirst(head.count).prefix { $0 != ":" }.split(separator: ",").map { $0.drop { $0 == " " } }
        }
        guard let i = lines.firstIndex(where: { line in
            line.hasPrefix(head) && found.allSatisfy(line.contains) && (alarm.map { names(line).contains(Substring($0)) } ?? true)
        }) else { return nil }
        let next = i + 1 < lines.count ? lines[i + 1] : ""
        let fix = next.hasPrefix(String(repeating: " ", count: 20) + "fix: ") ? String(next.dropFirst(25)) : nil
        return (lines[i], fix)
    }

    /// Every fix line of the run.
    var fixes: [String] { objects.compactMap { $0["fix"] as? String } }
}

/// A user's machine for the doctor: an alarm home, a sound server, a notification server,
/// logind and timedated, and the daemon, started by the test.
final class DoctorBed {
    let home: AlarmHome
    let sound: any SoundServerFixture
    let notifications: NotificationMock
    let system: LogindMock
    private let timedated: ChildProcess
    /// The debug seams standing in for an RTC and a linger flag.
    let seams: TestDirectory
    private(set) var daemon: DetachedWake?
    /// When set, the daemon runs as this user manager's unit and the doctor inside its
    /// namespaces, where `systemctl --user` reaches it.
    var manager: SystemdUserManager?
    /// Every fix line the doctor printed in this bed (checked at the end: each names commands wake has).
    private(set) var fixes: [String] = []

    /// The session's environment: what the daemon gets, and a shell at the desktop.
    var environment: [String: String] {
        var env = sound.environment  // PULSE_SERVER, XDG_RUNTIME_DIR, PULSE_CLIENTCONFIG, XDG_STATE_HOME
        env["XDG_CONFIG_HOME"] = home.dir.file("config")
        for (k, v) in notifications.environment { env[k] = v }  // DBUS_SESSION_BUS_ADDRESS
        for (k, v) in system.environment { env[k] = v }  // DBUS_SYSTEM_BUS_ADDRESS
        return env
    }

    /// The developer's session and zone, never inherited.
    static let unset = PulseAudioServer.sessionVariables + ["TZ", "XDG_RUNTIME_DIR", "XDG_STATE_HOME", "XDG_CONFIG_HOME",
                                                            "DBUS_SYSTEM_BUS_ADDRESS", "WAKE_TEST_RTC_DIR", "WAKE_TEST_LINGER_DIR"]

    private init(home: AlarmHome, sound: any SoundServerFixture, notifications: NotificationMock, system: LogindMock,
                 timedated: ChildProcess, seams: TestDirectory) {
        self.home = home
        self.sound = sound
        self.notifications = notifications
        self.system = system
        self.timedated = timedated
        self.seams = seams
    }

    /// Runs `body` in a fresh bed on `sound`; stops the daemon and the buses however it ends.
    static func with<T>(_ sound: any SoundServerFixture, _ body: (DoctorBed) async throws -> T) async throws -> T {
        try await NotificationMock.with { notifications in
            try await LogindMock.with { system in
                let timedated = try await system.startTimedated()
                let seams = try TestDirectory("wake-doctor-seams")
                for d in ["rtc", "linger"] { mkdir(seams.file(d), 0o755) }
                _ = try seams.write("rtc/rtc0", [], mode: 0o644)
                _ = try seams.write("linger/" + (userName ?? "root"), [], mode: 0o644)
                let bed = DoctorBed(home: try AlarmHome(), sound: sound, notifications: notifications, system: system,
                                    timedated: timedated, seams: seams)
                do {
                    let r = try await body(bed)
                    await bed.tearDown()
                    return r
                } catch {
                    await bed.tearDown()
                    throw error
                }
            }
        }
    }

    static var userName: String? { getpwuid(getuid()).flatMap { $0.pointee.pw_name.map { String(cString: $0) } } }

    private func tearDown() async {
        await stopDaemon()
        await TestServerProcesses.terminate([timedated])
        // Every fix the doctor gave tells the user to run only what exists.
        for fix in fixes {
            for word in fix.matches(of: /'wake ([a-z][a-z-]*)/).map({ String($0.1) }) {  // a subcommand, not an option
                #expect(DoctorBench.commands.contains(word), "a fix names 'wake \(word)', which wake does not have: \(fix)")
            }
        }
    }

    /// `wake ARGS` in the session's environment.
    func wake(_ args: [String]) async throws -> ProcessResult {
        try await WakeProcess.run(args, environment: environment, unset: Self.unset, timeout: .seconds(60))
    }

    /// `wake add WHEN --days FARDAY --name NAME -D default EXTRA`, which must succeed.
    func add(_ name: String, at time: String = "06:30", _ extra: [String] = []) async throws {
        let r = try await wake(["add", time, "--days", DoctorBench.farDay, "--name", name, "-D", "default"] + extra)
        guard r.exitCode == 0 else { throw WakeTestError("wake add \(name): \(r)") }
    }

    /// `wake daemon` in the session's environment, until it says it runs.
    func startDaemon() async throws {
        let d = try DetachedWake(["daemon"], environment: environment, unset: Self.unset, directory: home.dir)
        daemon = d
        try await d.waitForOutput(containing: "wake daemon running", timeout: .seconds(60))
    }

    func stopDaemon() async {
        guard let d = daemon else { return }
        d.send(SIGTERM)
        let r = await d.wait(timeout: .seconds(30))
        #expect(r.exitCode == 0, "the daemon ended badly: \(d.report(r))")
        daemon = nil
    }

    /// `wake doctor ARGS` and `wake doctor --json ARGS`, in the session's environment (with the
    /// RTC and linger seams) less `without`; both must exit alike and the JSON must parse.
    func doctor(_ args: [String] = [], without: [String] = [], sourceLocation: SourceLocation = #_sourceLocation) async throws -> DoctorRun {
        var env = environment.filter { !without.contains($0.key) }
        env["WAKE_TEST_RTC_DIR"] = seams.file("rtc")
        env["WAKE_TEST_LINGER_DIR"] = seams.file("linger")
        let unset = Self.unset + without
        func run(_ args: [String]) async throws -> ProcessResult {
            guard let m = manager else { return try await WakeProcess.run(args, environment: env, unset: unset, timeout: .seconds(60)) }
            // As the unit's user would: in the manager's namespaces, with its runtime directory and PATH.
            var inside = env
            for (k, v) in m.environment { inside[k] = v }
            inside["XDG_CONFIG_HOME"] = env["XDG_CONFIG_HOME"]
            let p = try ChildProcess(SystemdUserManager.envPath, ["-i"] + inside.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                                     + [SystemdUserManager.nsenterPath, "--target", "\(m.namespaceInit)", "--mount", "--pid", "--", WakeBinary.path] + args,
                                     directory: home.dir)
            return await p.wait(timeout: .seconds(60))
        }
        let text = try await run(["doctor"] + args)
        let json = try await run(["doctor", "--json"] + args)
        guard let objects = try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]] else {
            throw WakeTestError("wake doctor --json did not print a JSON array: \(json)")
        }
        let run = DoctorRun(text: text, json: json, objects: objects)
        #expect(text.exitCode == json.exitCode && text.stderr.isEmpty && json.stderr.isEmpty, "\(run)", sourceLocation: sourceLocation)
        #expect(objects.count == text.stdoutLines.filter { ["PASS  ", "WARN  ", "FAIL  "].contains(String($0.prefix(6))) }.count,
                "one object per check line: \(run)", sourceLocation: sourceLocation)
        fixes += run.fixes
        return run
    }
}

extension LogindMock {
    /// python-dbusmock's timedated on this system bus (NTP on and synchronised), until its name
    /// has an owner.
    func startTimedated() async throws -> ChildProcess {
        let p = try ChildProcess(DBusMockBus.python, ["-m", "dbusmock", "--system", "--template", "timedated"],
                                 environment: environment, directory: directory)
        try await TestServerProcesses.waitUntil(deadline: ContinuousClock.now + .seconds(60), every: .milliseconds(50),
                                                watching: [("the dbusmock timedated template", p)],
                                                onTimeout: { "timedated did not appear: \(p.currentStderr)" }) {
            try await self.nameHasOwner("org.freedesktop.timedate1")
        }
        return p
    }
}

extension NotificationMock {
    /// The server loses its buttons: GetCapabilities answers without `actions`, as a minimal
    /// notification server (or one configured without actions) does.
    func dropActions() async throws {
        let r = try await busctl(["call", "org.freedesktop.Notifications", "/org/freedesktop/Notifications", "org.freedesktop.DBus.Mock",
                                  "AddMethod", "sssss", "org.freedesktop.Notifications", "GetCapabilities", "", "as", "ret = ['body']"])
        guard r.exitCode == 0 else { throw WakeTestError("AddMethod GetCapabilities failed: \(r)") }
    }
}

/// What every healthy run must show: every check of `DoctorBench.healthyChecks` there, each PASS
/// but the environment's, and the exit status that follows.
func expectHealthy(_ run: DoctorRun, alarms: [String], environment: Set<String> = DoctorBench.environmentChecks,
                   sourceLocation: SourceLocation = #_sourceLocation) {
    let checks = Set(run.objects.compactMap { $0["check"] as? String })
    #expect(checks == DoctorBench.healthyChecks, "missing: \(DoctorBench.healthyChecks.subtracting(checks)), more: \(checks.subtracting(DoctorBench.healthyChecks))\n\(run)",
            sourceLocation: sourceLocation)
    for o in run.objects {
        let check = o["check"] as? String ?? "?"
        if environment.contains(check) {
            #expect(o["status"] as? String == "WARN" && (o["found"] as? String)?.contains("systemd's user manager does not answer") == true,
                    "\(check) in this container: \(o)", sourceLocation: sourceLocation)
        } else {
            #expect(o["status"] as? String == "PASS", "\(check): \(o)\n\(run)", sourceLocation: sourceLocation)
        }
    }
    for alarm in alarms {
        for check in ["time.next", "sound.file", "sound.device", "sound.sink", "sound.stream"] {
            #expect(run.status(check, alarm: alarm) == "PASS", "\(check) of \(alarm): \(run)", sourceLocation: sourceLocation)
        }
        #expect(run.found("sound.sink", alarm: alarm)?.contains("(speaker) is unmuted") == true, "\(run)", sourceLocation: sourceLocation)
    }
    #expect(run.exitCode == (environment.isEmpty ? 0 : 1), "\(run)", sourceLocation: sourceLocation)
    #expect(run.lines.last?.hasSuffix(environment.isEmpty ? "the alarms will be heard as far as wake can tell" : "the alarms ring, but see the warnings") == true,
            "\(run)", sourceLocation: sourceLocation)
}

/// The default sink muted: `work` (the mixer guard on) is a WARN, the guard's doing said; `quiet`
/// (`--mixer off`) a FAIL, since nothing will unmute it; exit 2, and 1 for `work` alone.
func expectMutedSink(_ bed: DoctorBed, sourceLocation: SourceLocation = #_sourceLocation) async throws {
    let mute = try await bed.sound.pactl(["set-sink-mute", "speaker", "1"], timeout: .seconds(10))
    #expect(mute.exitCode == 0, "\(mute)", sourceLocation: sourceLocation)
    let run = try await bed.doctor()
    let work = run.shown("WARN", "sound", alarm: "work", ["the default sink", "(speaker) is muted", "the mixer guard unmutes it while ringing"])
    #expect(work?.fix == "nothing is needed for the alarm; unmute it ('pactl set-sink-mute @DEFAULT_SINK@ 0') if the mute is not meant", "\(run)",
            sourceLocation: sourceLocation)
    let quiet = run.shown("FAIL", "sound", alarm: "quiet", ["(speaker) is muted", "--mixer off leaves it so: the alarm will not be heard"])
    #expect(quiet?.fix == "unmute it ('pactl set-sink-mute @DEFAULT_SINK@ 0'), or let wake guard it (--mixer auto)", "\(run)",
            sourceLocation: sourceLocation)
    #expect(run.status("sound.sink", alarm: "work") == "WARN" && run.status("sound.sink", alarm: "quiet") == "FAIL", "\(run)",
            sourceLocation: sourceLocation)
    #expect(run.exitCode == 2, "a FAIL: \(run)", sourceLocation: sourceLocation)
    let workOnly = try await bed.doctor(["work"])
    #expect(workOnly.status("sound.sink", alarm: "work") == "WARN" && workOnly.objects("sound.sink", alarm: "quiet").isEmpty, "\(workOnly)",
            sourceLocation: sourceLocation)
    #expect(workOnly.exitCode == 1, "a WARN at worst: \(workOnly)", sourceLocation: sourceLocation)
    let unmute = try await bed.sound.pactl(["set-sink-mute", "speaker", "0"], timeout: .seconds(10))
    #expect(unmute.exitCode == 0, "\(unmute)", sourceLocation: sourceLocation)
}

@Suite("wake doctor on PulseAudio", .serialized,
       .enabled(if: DoctorBench.enabled, "needs pulseaudio, pulseaudio-utils, libasound2-plugins, python3-dbusmock, dbus-daemon and busctl"))
struct DoctorEndToEndTests {
    @Test("healthy: every check PASS but the environment's; a muted default sink: WARN with the mixer guard, FAIL with --mixer off; a dummy output only: sound.device FAIL, exit 2")
    func soundServerStates() async throws {
        try await PulseAudioServer.with(desktop: true) { pa in
            try await DoctorBed.with(pa) { bed in
                try await bed.add("work")
                try await bed.add("quiet", at: "07:00", ["--mixer", "off"])
                try await bed.startDaemon()
                let healthy = try await bed.doctor()
                expectHealthy(healthy, alarms: ["work", "quiet"])
                #expect(healthy.shown("PASS", "daemon", ["a wake daemon is running (PID \(bed.daemon?.pid ?? -1))"]) != nil, "\(healthy)")
                #expect(healthy.shown("PASS", "time", ["the clock is synchronised (timedated says so)"]) != nil, "\(healthy)")
                #expect(healthy.shown("PASS", "notifications", ["'mock-notify'", "with Stop and Snooze buttons"]) != nil, "\(healthy)")
                #expect(healthy.shown("PASS", "sound", alarm: "work", ["device 'default' opens"]) != nil, "\(healthy)")

                try await expectMutedSink(bed)

                // No device but the server's dummy output: the null sinks go, module-always-sink offers auto_null.
                for args in [["load-module", "module-always-sink"], ["unload-module", "module-null-sink"]] {
                    let r = try await pa.pactl(args)
                    #expect(r.exitCode == 0, "pactl \(args): \(r)")
                }
                let info = try await pa.pactl(["info"])
                #expect(info.stdout.contains("Default Sink: auto_null"), "\(info)")
                let dummy = try await bed.doctor()
                // The same device for both: said once, naming them.
                let line = dummy.shown("FAIL", "sound", alarm: "work", ["quiet, work: ", "the sound server has no output device",
                                                                        "'Dummy Output' (auto_null)"])
                #expect(line?.fix == "connect or enable an output ('pactl list sinks' shows what the server has)", "\(dummy)")
                for alarm in ["work", "quiet"] { #expect(dummy.status("sound.device", alarm: alarm) == "FAIL", "\(dummy)") }
                #expect(dummy.exitCode == 2, "\(dummy)")
            }
        }
    }

    @Test("a sound file deleted after wake add, a sound made silent by a later volume, a config.toml typo, a history.toml with a bad line, a notification server without buttons")
    func filesAndNotifications() async throws {
        try await PulseAudioServer.with(desktop: true) { pa in
            try await DoctorBed.with(pa) { bed in
                let birds = try await makeSound(in: bed.home.dir, name: "birds.wav", rate: 44100, channels: 1, seconds: "1")
                let quiet = try await makeSound(in: bed.home.dir, name: "quiet.wav", rate: 44100, channels: 1, seconds: "1",
                                                synth: ["sine", "440", "vol", "-50dB"])
                try await bed.add("work")
                try await bed.add("birds", at: "07:00", ["-s", birds])
                try await bed.add("soft", at: "07:30", ["-s", quiet])
                try await bed.startDaemon()
                expectHealthy(try await bed.doctor(), alarms: ["work", "birds", "soft"])

                // The file deleted after `wake add`: the daemon rings wake's own sound instead.
                unlink(birds)
                var run = try await bed.doctor(["birds"])
                var line = run.shown("WARN", "sound", alarm: "birds", ["cannot use sound file '\(birds)'", "No such file or directory",
                                                                       "it will ring wake's built-in sound"])
                #expect(line?.fix == "put the file back, or choose another ('wake remove birds', then 'wake add ... -s FILE'); then 'wake test birds' plays what it will ring", "\(run)")
                #expect(run.status("sound.file", alarm: "birds") == "WARN" && run.status("sound.device", alarm: "birds") == "PASS", "\(run)")
                #expect(run.exitCode == 1, "\(run)")

                // A later volume in config.toml makes the quiet file silent: the level and the volume said once.
                try bed.home.writeConfigFile("volume = 20\n", name: "config.toml")
                run = try await bed.doctor(["soft", "work"])
                line = run.shown("WARN", "sound", alarm: "soft", ["cannot use sound file '\(quiet)'", "the sound is silent", "dBFS at --volume 20;"])
                #expect(line?.fix?.hasPrefix("raise volume in config.toml (20 now), or choose a louder file") == true, "\(run)")
                #expect(run.status("sound.file", alarm: "work") == "PASS", "wake's own sound is heard at 20 %: \(run)")
                #expect(run.exitCode == 1, "\(run)")

                // A typo in config.toml: the daemon sets the line aside; a one-off would refuse to start.
                try bed.home.writeConfigFile("volume = 80\nvolumme = 70\n", name: "config.toml")
                run = try await bed.doctor()
                let configPath = bed.home.dir.file("config") + "/wake/config.toml"
                line = run.shown("FAIL", "files", ["config file '\(configPath)' line 2", "volumme"])
                #expect(line?.fix?.hasPrefix("correct that line") == true, "\(run)")
                #expect(run.status("files.config") == "FAIL" && run.exitCode == 2, "\(run)")
                unlink(configPath)

                // A history.toml that cannot be read (a bad line; root reads any file, so not chmod 000).
                try bed.home.writeConfigFile("[work]\nfired = \"not a date\"\n", name: "history.toml")
                run = try await bed.doctor()
                let historyPath = bed.home.dir.file("config") + "/wake/history.toml"
                line = run.shown("FAIL", "files", ["history file '\(historyPath)'", "line 2"])
                #expect(line?.fix?.hasPrefix("correct that line or move the file away") == true, "\(run)")
                #expect(run.status("files.history") == "FAIL" && run.exitCode == 2, "\(run)")
                unlink(historyPath)

                // The notification server loses its buttons.
                try await bed.notifications.dropActions()
                run = try await bed.doctor(["work"])
                line = run.shown("WARN", "notifications", ["the notification server 'mock-notify'", "shows no buttons (no 'actions' capability)"])
                #expect(line?.fix?.hasPrefix("stop and snooze with a key, 'wake stop' or 'wake snooze'") == true, "\(run)")
                #expect(run.status("notifications.server") == "WARN" && run.exitCode == 1, "\(run)")
                #expect(run.objects.filter { $0["status"] as? String != "PASS" }.compactMap { $0["check"] as? String }.sorted()
                        == ["daemon.unit", "notifications.server"], "\(run)")
            }
        }
    }

    @Test("from the daemon's point of view: a shell without XDG_RUNTIME_DIR, the session bus or PULSE_SERVER sees what the daemon reaches; no daemon: daemon.running FAIL, exit 2")
    func daemonsPointOfView() async throws {
        try await PulseAudioServer.with(desktop: true) { pa in
            try await DoctorBed.with(pa) { bed in
                try await bed.add("work")
                try await bed.add("quiet", at: "07:00", ["--mixer", "off"])
                try await bed.startDaemon()
                let pid = try #require(bed.daemon?.pid)
                let unknown = try await bed.wake(["doctor", "work", "gym"])
                #expect(unknown.exitCode == 64 && unknown.stdout.isEmpty && unknown.stderrIsOneLine
                        && unknown.stderr.contains("no standing alarm named 'gym'"), "an unknown NAME is a usage error: \(unknown)")
                let session = try await bed.doctor()
                // ssh, cron or `sudo -u`: the config home, but none of the desktop session's variables.
                let bare = ["XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS", "PULSE_SERVER", "XDG_STATE_HOME"]
                let shell = try await bed.doctor(without: bare)
                expectHealthy(shell, alarms: ["work", "quiet"])
                #expect(shell.shown("PASS", "daemon", ["a wake daemon is running (PID \(pid)); checked from the running daemon's environment (PID \(pid))"]) != nil,
                        "\(shell)")
                #expect(shell.shown("PASS", "notifications", ["'mock-notify'"]) != nil, "\(shell)")
                #expect(shell.shown("PASS", "sound", alarm: "work", ["(speaker) is unmuted"]) != nil, "\(shell)")
                let statuses = { (r: DoctorRun) in r.objects.map { "\($0["check"] ?? "") \($0["alarms"] ?? "") \($0["status"] ?? "")" } }
                #expect(statuses(shell) == statuses(session), "the same checks, the same statuses, from the shell as from the session")

                await bed.stopDaemon()
                let none = try await bed.doctor()
                let line = none.shown("FAIL", "daemon", ["no wake daemon is running: the 2 standing alarms will not ring"])
                #expect(line?.fix == "systemctl --user enable --now wake (or run 'wake daemon')", "\(none)")
                #expect(none.status("daemon.running") == "FAIL" && none.exitCode == 2, "\(none)")

                // Without a daemon to take them from, the bare shell's own environment is all there
                // is: no session bus, so no notification server. (It was the daemon's above.)
                let alone = try await bed.doctor(without: bare)
                #expect(alone.status("daemon.running") == "FAIL" && alone.exitCode == 2, "\(alone)")
                #expect(alone.shown("WARN", "notifications", ["no notification server answers on the daemon's session bus"]) != nil, "\(alone)")
            }
        }
    }
}

@Suite("wake doctor on PipeWire", .serialized,
       .enabled(if: DoctorBench.enabled && PipeWireServer.isAvailable, "needs pipewire, wireplumber, pipewire-pulse, python3-dbusmock"))
struct DoctorPipeWireEndToEndTests {
    @Test("healthy: every check PASS but the environment's; a muted default sink: WARN with the mixer guard, FAIL with --mixer off")
    func healthyThenMuted() async throws {
        try await PipeWireServer.with { pw in
            try await DoctorBed.with(pw) { bed in
                try await bed.add("work")
                try await bed.add("quiet", at: "07:00", ["--mixer", "off"])
                try await bed.startDaemon()
                let healthy = try await bed.doctor()
                expectHealthy(healthy, alarms: ["work", "quiet"])
                try await expectMutedSink(bed)
            }
        }
    }
}

/// The daemon as the user unit, `Resources/wake.service` as shipped with a drop-in pointing
/// ExecStart at the binary under test, under a real systemd user manager
/// (`SystemdUserManager`), and the doctor run inside the manager's namespaces, where `systemctl
/// --user` answers: the one place here where daemon.unit can pass, and so where a healthy setup
/// exits 0 (the RTC and linger are the debug seams, as above).
@Suite("wake doctor with the user unit", .serialized,
       .enabled(if: DoctorBench.enabled && SystemdUserManager.isAvailable, "needs root, systemd, unshare, nsenter, pulseaudio and python3-dbusmock"))
struct DoctorUnitEndToEndTests {
    @Test("wake.service enabled and active on a private PulseAudio: healthy exits 0; a muted default sink exits 1 for the guarded alarm, 2 with --mixer off",
          .timeLimit(.minutes(4)))
    func healthyUnderTheUserManager() async throws {
        try await PulseAudioServer.with(desktop: true) { pa in
            try await DoctorBed.with(pa) { bed in
                try await SystemdUserManager.with { m in
                    try await bed.add("work")
                    try await bed.add("quiet", at: "07:00", ["--mixer", "off"])
                    try await m.installUnit("wake.service", text: try WakeUnitFile.text())
                    let events = bed.home.dir.file("unit-events.jsonl")
                    let command = [WakeBinary.path, "daemon", "--events", events].map(DaemonUnitTests.unitQuoted).joined(separator: " ")
                    try await m.installDropIn(for: "wake.service", text: "[Service]\nExecStart=\nExecStart=\(command)\n")
                    // The session's sound server and buses; the runtime directory stays the manager's own.
                    var unitEnvironment = bed.environment
                    unitEnvironment.removeValue(forKey: "XDG_RUNTIME_DIR")
                    try await m.setEnvironment(unitEnvironment)
                    try await m.systemctlChecked(["enable", "--now", "wake"])
                    bed.manager = m
                    let deadline = ContinuousClock.now + .seconds(60)
                    while WakeEvent.read(events).filter({ $0.name == "armed" }).count < 2 {
                        if ContinuousClock.now >= deadline {
                            throw WakeTestError("the unit's daemon did not arm the alarms: \(ChildProcess.read(events))\n\(m.log)")
                        }
                        try await Task.sleep(for: .milliseconds(100))
                    }

                    let healthy = try await bed.doctor()
                    expectHealthy(healthy, alarms: ["work", "quiet"], environment: [])
                    let unit = healthy.shown("PASS", "daemon", ["wake.service (", "/home/.config/systemd/user/wake.service) is enabled and active (running)"])
                    #expect(unit != nil && unit?.fix == nil, "\(healthy)\nmanager log:\n\(m.log)")
                    #expect(healthy.shown("PASS", "daemon", ["a wake daemon is running", "checked from the running daemon's environment"]) != nil, "\(healthy)")

                    try await expectMutedSink(bed)
                    bed.manager = nil
                }
            }
        }
    }
}
