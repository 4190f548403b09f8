import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// The daemon's D-Bus API (issue 41) against a private session bus, with the clients a user
/// would use: busctl and gdbus call it, dbus-monitor watches its signals.
@Suite(.serialized, .enabled(if: NotificationMock.isAvailable, "needs dbus-daemon and busctl"))
struct BusAPIEndToEndTests {
    static let name = "io.github.wakeclock.Wake1"
    static let root = "/io/github/wakeclock/Wake1"
    static let manager = "io.github.wakeclock.Wake1.Manager"

    /// A daemon on the mock's bus, once its name is owned.
    private func daemon(_ mock: NotificationMock, _ home: AlarmHome) async throws -> (DetachedWake, [String: String]) {
        let env = home.environment.merging(mock.environment) { $1 }
        let daemon = try DetachedWake(["daemon", "--inhibit", "off", "--notify", "off"], environment: env, directory: home.dir)
        try await daemon.waitForOutput(containing: "wake daemon running")
        try await until("the daemon owns \(Self.name)") {
            let r = try await mock.busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner", "s", Self.name])
            return r.stdout.contains("b true")
        }
        return (daemon, env)
    }

    /// HH:MM this many seconds from now, on this machine's clock (the daemon's zone).
    private static func clock(in seconds: Int) -> String {
        var t = time(nil) + seconds
        var parts = tm()
        localtime_r(&t, &parts)
        return String(format: "%02d:%02d", parts.tm_hour, parts.tm_min)
    }

    private func until(_ what: String, timeout: Duration = .seconds(20), _ check: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !(try await check()) {
            if ContinuousClock.now >= deadline { throw WakeTestError("not within \(timeout): \(what)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// dbus-monitor on the bus, once it is watching (it announces itself with NameLost).
    private func monitor(_ mock: NotificationMock, _ rule: String) async throws -> ChildProcess {
        let m = try ChildProcess("/usr/bin/dbus-monitor", ["--address", mock.address, rule], environment: mock.environment, directory: mock.directory)
        try await until("dbus-monitor watching") { m.currentStdout.contains("NameLost") }
        return m
    }

    private func call(_ mock: NotificationMock, _ member: String, _ args: [String] = []) async throws -> ProcessResult {
        try await call(mock, at: Self.root, Self.manager, member, args)
    }

    private func call(_ mock: NotificationMock, at path: String, _ interface: String, _ member: String, _ args: [String]) async throws -> ProcessResult {
        try await mock.busctl(["call", Self.name, path, interface, member] + args)
    }

    @Test("introspected; Add is what wake list shows; errors by meaning with the CLI's line; PropertiesChanged soon after a wake add from a shell")
    func introspectAddListAndFollow() async throws {
        try await NotificationMock.with(server: false) { mock in
            let home = try AlarmHome()
            let (daemon, env) = try await daemon(mock, home)
            var r = try await mock.busctl(["introspect", Self.name, Self.root])
            #expect(r.exitCode == 0 && r.stdout.contains(".Add") && r.stdout.contains(".NextAlarmTime") && r.stdout.contains("GetManagedObjects"), "\(r)")

            r = try await call(mock, "Add", ["sa{sv}", Self.clock(in: 3 * 3600), "4", "days", "s", "weekdays", "name", "s", "work",
                                             "device", "s", "null", "snooze-volume", "s", "30"])
            #expect(r.exitCode == 0 && r.stdout.contains("o \"\(Self.root)/alarm/work\""), "\(r)\n\(daemon.child.currentStdout)")
            // A ring option the table added is an Add key with no edit in the API, stored as wake add stores it.
            let stored = try String(contentsOfFile: home.alarmsFile, encoding: .utf8)
            #expect(stored.contains("\nsnooze-volume = \"30\""), "\(stored)")
            let list = try await WakeProcess.run(["list"], environment: env)
            #expect(list.stdout.contains("work") && list.stdout.contains("weekdays"), "\(list)")
            r = try await mock.busctl(["get-property", Self.name, Self.root + "/alarm/work", "io.github.wakeclock.Wake1.Alarm", "Days", "State"])
            #expect(r.stdout.contains("s \"weekdays\"") && r.stdout.contains("s \"waiting\""), "\(r)")
            r = try await call(mock, "ListAlarms")
            #expect(r.stdout.contains("\(Self.root)/alarm/work"), "\(r)")

            // An error carries the command line's own line, under a name that says what it means.
            let g = try await ChildProcess("/usr/bin/gdbus", ["call", "--address", mock.address, "--dest", Self.name, "--object-path", Self.root,
                                                              "--method", Self.manager + ".Add", "07:00", "{'volume': <'0'>}"],
                                           environment: mock.environment, directory: mock.directory).wait(timeout: .seconds(30))
            #expect(g.exitCode != 0 && g.stderr.contains("io.github.wakeclock.Wake1.Error.InvalidArgument")
                    && g.stderr.contains("--volume 0: the sound is silent; give a volume from 1 to 100"), "\(g)")
            r = try await call(mock, "Add", ["sa{sv}", "07:00", "1", "volum", "s", "50"])
            #expect(r.exitCode != 0 && r.stderr.contains("unknown option 'volum'"), "\(r)")
            r = try await call(mock, "Stop", ["s", "work"])
            #expect(r.exitCode != 0 && r.stderr.contains("'work' is not ringing or snoozed"), "\(r)")
            r = try await call(mock, "Remove", ["s", "nope"])
            #expect(r.exitCode != 0 && r.stderr.contains("no standing alarm named 'nope'"), "\(r)")

            // From a shell, not the API: the daemon's reload changes the next alarm's properties.
            let watch = try await monitor(mock, "type='signal',interface='org.freedesktop.DBus.Properties',path='\(Self.root)'")
            // Ten minutes ahead, 'work' three hours: 'early' is the next alarm at any hour the test runs.
            let start = ContinuousClock.now
            let add = try await WakeProcess.run(["add", Self.clock(in: 600), "--name", "early", "-D", "null"], environment: env)
            let added = ContinuousClock.now
            #expect(add.exitCode == 0, "\(add)")
            // A generous bound: the daemon's reload is what is shown, not its speed (under ASan,
            // beside other tests, it took more than 5 s).
            try await until("PropertiesChanged of NextAlarmId 'early'", timeout: .seconds(30)) {
                watch.currentStdout.contains("NextAlarmTime") && watch.currentStdout.contains("string \"early\"")
            }
            let seen = ContinuousClock.now
            print("BusAPIEndToEndTests: PropertiesChanged \(seen - added) after wake add exited (\(seen - start) after it started)")

            r = try await call(mock, "Remove", ["s", "early"])
            #expect(r.exitCode == 0, "\(r)")
            let after = try await WakeProcess.run(["list"], environment: env)
            #expect(!after.stdout.contains("early") && after.stdout.contains("work"), "\(after)")
            daemon.send(SIGTERM)
            let end = await daemon.wait(timeout: .seconds(30))
            #expect(end.exitCode == 0, "\(daemon.report(end))")
        }
    }

    @Test("a ringing standing alarm: Ringing, then the alarm's own Snooze, then the manager's Stop, each signalled and logged by the caller")
    func snoozeAndStopARing() async throws {
        try await NotificationMock.with(server: false) { mock in
            let home = try AlarmHome()
            let (daemon, _) = try await daemon(mock, home)
            let watch = try await monitor(mock, "type='signal',interface='\(Self.manager)'")
            var r = try await call(mock, "Add", ["sa{sv}", AlarmHome.soon(3), "2", "name", "s", "soon", "device", "s", "null"])
            #expect(r.exitCode == 0, "\(r)")
            try await until("Ringing", timeout: .seconds(20)) { watch.currentStdout.contains("member=Ringing") }
            let path = Self.root + "/alarm/soon"
            r = try await mock.busctl(["get-property", Self.name, path, "io.github.wakeclock.Wake1.Alarm", "State"])
            #expect(r.stdout.contains("\"ringing\""), "\(r)")
            r = try await call(mock, at: path, "io.github.wakeclock.Wake1.Alarm", "Snooze", ["a{sv}", "1", "length", "s", "10m"])
            #expect(r.exitCode == 0, "\(r)")
            try await until("Snoozed") { watch.currentStdout.contains("member=Snoozed") }
            r = try await call(mock, "Stop", ["s", "soon"])
            #expect(r.exitCode == 0, "\(r)")
            try await until("Stopped") { watch.currentStdout.contains("member=Stopped") }
            #expect(watch.currentStdout.contains("the D-Bus API (busctl, pid "), "\(watch.currentStdout)")
            daemon.send(SIGTERM)
            let end = await daemon.wait(timeout: .seconds(30))
            #expect(end.exitCode == 0, "\(daemon.report(end))")
        }
    }

    @Test("Skip, Pause and Resume through the API do what wake skip, pause and resume do: the alarm's properties and wake list say so")
    func skipPauseResume() async throws {
        try await NotificationMock.with(server: false) { mock in
            let home = try AlarmHome()
            let (daemon, env) = try await daemon(mock, home)
            let path = Self.root + "/alarm/work"
            let alarm = "io.github.wakeclock.Wake1.Alarm"
            var r = try await call(mock, "Add", ["sa{sv}", "06:30", "3", "days", "s", "daily", "name", "s", "work", "device", "s", "null"])
            #expect(r.exitCode == 0, "\(r)")

            func property(_ name: String) async throws -> String {
                try await mock.busctl(["get-property", Self.name, path, alarm, name]).stdout
            }
            r = try await call(mock, "Skip", ["sa{sv}", "work", "1", "count", "s", "2"])
            #expect(r.exitCode == 0, "\(r)")
            try await until("two occurrences skipped") { try await property("Skipped").hasPrefix("at 2 ") }
            var list = try await WakeProcess.run(["list"], environment: env)
            #expect(list.stdout.contains("skipped"), "\(list)")

            r = try await call(mock, "Skip", ["sa{sv}", "work", "1", "undo", "b", "true"])
            #expect(r.exitCode == 0, "\(r)")
            try await until("the skips taken back") { try await property("Skipped").hasPrefix("at 0") }

            // The alarm's own Skip: its next occurrence only.
            r = try await call(mock, at: path, alarm, "Skip", [])
            #expect(r.exitCode == 0, "\(r)")
            try await until("one occurrence skipped") { try await property("Skipped").hasPrefix("at 1 ") }

            var t = time(nil) + 10 * 86_400
            var parts = tm()
            localtime_r(&t, &parts)
            let pauseEnd = String(format: "%04d-%02d-%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday)
            r = try await call(mock, "Pause", ["sa{sv}", "work", "1", "until", "s", pauseEnd])
            #expect(r.exitCode == 0, "\(r)")
            // A pause is no switch: Enabled stays true (issue 54).
            try await until("paused") { try await property("State").contains("paused") }
            #expect(try await property("Enabled").contains("true"))
            list = try await WakeProcess.run(["list"], environment: env)
            #expect(list.stdout.contains("paused"), "\(list)")
            r = try await call(mock, "Pause", ["sa{sv}", "work", "0"])
            #expect(r.exitCode != 0 && r.stderr.contains("until"), "Pause without until is refused: \(r)")

            r = try await call(mock, "Resume", ["s", "work"])
            #expect(r.exitCode == 0, "\(r)")
            try await until("resumed") { try await property("State").contains("waiting") }
            r = try await call(mock, "Skip", ["sa{sv}", "nope", "0"])
            #expect(r.exitCode != 0 && r.stderr.contains("nope"), "\(r)")

            daemon.send(SIGTERM)
            let end = await daemon.wait(timeout: .seconds(30))
            #expect(end.exitCode == 0, "\(daemon.report(end))")
        }
    }

    @Test("Update moves an alarm and Enabled=false switches it off, as wake change and wake off do: wake list --json says so")
    func updateAndSwitchOff() async throws {
        try await NotificationMock.with(server: false) { mock in
            let home = try AlarmHome()
            let (daemon, env) = try await daemon(mock, home)
            let path = Self.root + "/alarm/work"
            let alarm = "io.github.wakeclock.Wake1.Alarm"
            var r = try await call(mock, "Add", ["sa{sv}", "06:30", "3", "days", "s", "daily", "name", "s", "work", "device", "s", "null"])
            #expect(r.exitCode == 0, "\(r)")
            func work() async throws -> [String: Any]? {
                let list = try await WakeProcess.run(["list", "--json"], environment: env)
                let all = try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]]
                return all?.first { $0["name"] as? String == "work" }
            }
            r = try await call(mock, at: path, alarm, "Update", ["a{sv}", "1", "when", "s", "06:45"])
            #expect(r.exitCode == 0, "\(r)")
            #expect(try await work()?["time"] as? String == "06:45:00")
            try await until("Time follows") {
                try await mock.busctl(["get-property", Self.name, path, alarm, "Time"]).stdout.contains("06:45")
            }
            r = try await mock.busctl(["set-property", Self.name, path, alarm, "Enabled", "b", "false"])
            #expect(r.exitCode == 0, "\(r)")
            let off = try await work()
            #expect(off?["enabled"] as? Bool == false && off?["state"] as? String == "off", "\(String(describing: off))")
            try await until("Enabled follows") {
                try await mock.busctl(["get-property", Self.name, path, alarm, "Enabled"]).stdout.contains("false")
            }
            daemon.send(SIGTERM)
            let end = await daemon.wait(timeout: .seconds(30))
            #expect(end.exitCode == 0, "\(daemon.report(end))")
        }
    }
}
