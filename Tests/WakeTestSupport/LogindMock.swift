import Foundation
import Glibc

/// A private system bus with a fake logind on it, for the sleep-inhibitor tests.
///
/// `start()` runs `dbus-daemon --config-file=system-bus.conf --nofork --print-address` (beside this file)
/// listening on a socket in a fresh temporary directory, then python-dbusmock's logind template
/// (`/usr/bin/python3 -m dbusmock --system --template logind -l <log>`) on it, and waits until
/// `org.freedesktop.login1` has an owner. Point wake at it with `environment`
/// (`DBUS_SYSTEM_BUS_ADDRESS`). `stop()` kills both and removes the directory; use
/// `LogindMock.with { ... }` so that happens on failure too (and if a test is torn down
/// without either, the `ChildProcess` and `TestDirectory` deinits kill and remove them anyway).
///
/// What the template offers, and what the tests use:
/// - `Inhibit(what, who, why, mode)` is logged to the log file as
///   `1795306326.820 Inhibit "sleep:idle" "wake" "alarm at 00:12:06" "block"` (`inhibitCalls`);
///   it returns the write end of a pipe and keeps the read end, watching it for HUP.
/// - `ListInhibitors()` lists the locks whose pipe is still open somewhere; the entry goes away
///   when every copy of the write end is closed, i.e. when the lock is released (`inhibitors()`).
/// - `org.freedesktop.DBus.Mock.EmitSignal` sends PrepareForSleep (`emitPrepareForSleep`).
/// - The pipe itself: a `pipe:[inode]` that is open both in wake and in the mock process is the
///   lock descriptor (`sharedPipes(withProcess:)`).
final class LogindMock: DBusMockFixture {
    static let python = DBusMockBus.python
    static let dbusDaemon = DBusMockBus.dbusDaemon
    static let dbusSend = "/usr/bin/dbus-send"
    static let busctl = "/usr/bin/busctl"

    /// The bus configuration, next to this file in the source tree.
    static let configPath: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("system-bus.conf").path
    }()

    /// True when everything the fixture runs is installed (python3-dbusmock, dbus-daemon, busctl).
    /// Under CI (`CI` set) it is always true: `make test` installs them, so a missing one must
    /// fail the run loudly rather than skip the inhibitor tests.
    static var isAvailable: Bool {
        if ProcessInfo.processInfo.environment["CI"] != nil { return true }
        return [python, dbusDaemon, dbusSend, busctl].allSatisfy { (path: String) in access(path, X_OK) == 0 }
            && FileManager.default.fileExists(atPath: "/usr/lib/python3/dist-packages/dbusmock/templates/logind.py")
    }

    let bus: DBusMockBus

    private init(bus: DBusMockBus) { self.bus = bus }

    /// Runs `body` with a fresh mock, and stops the mock afterwards whether or not `body` threw.
    static func with<T>(_ body: (LogindMock) async throws -> T) async throws -> T {
        try await using({ try await start() }, body)
    }

    /// A fresh bus and mock; a start that does not come up in `timeout` is thrown away and tried
    /// again from scratch (`TestServer.retrying`).
    static func start(timeout: Duration = .seconds(60), attempts: Int = 3) async throws -> LogindMock {
        try await retrying("the logind mock", attempts: attempts) { try await startOnce(timeout: timeout) }
    }

    private static func startOnce(timeout: Duration) async throws -> LogindMock {
        guard FileManager.default.fileExists(atPath: configPath) else {
            throw WakeTestError("the bus configuration \(configPath) is missing")
        }
        let bus = try DBusMockBus(directory: TestDirectory("wake-logind"), config: configPath, socketName: "system_bus_socket",
                                  logName: "logind-mock.log", addressVariable: "DBUS_SYSTEM_BUS_ADDRESS")
        return try await LogindMock(bus: bus).ready { m in
            let deadline = ContinuousClock.now + timeout
            try await bus.waitForDaemon(deadline: deadline)
            try await bus.startMock(["--system", "--template", "logind"], template: "logind", service: "org.freedesktop.login1",
                                    deadline: deadline) { try await m.nameHasOwner("org.freedesktop.login1") }
        }
    }


    // MARK: talking to the bus

    /// Runs a bus client (dbus-send, busctl) to completion.
    func client(_ executable: String, _ arguments: [String]) async throws -> ProcessResult {
        let p = try ChildProcess(executable, arguments, environment: environment, directory: directory)
        let r = await p.wait(timeout: .seconds(60))
        if r.timedOut { throw WakeTestError("\(executable) \(arguments.joined(separator: " ")) hung: \(r)") }
        return r
    }

    func nameHasOwner(_ name: String) async throws -> Bool {
        let r = try await client(LogindMock.dbusSend, ["--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus",
                                                       "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner",
                                                       "string:\(name)"])
        return r.exitCode == 0 && r.stdout.contains("boolean true")
    }

    /// Makes the mock emit `org.freedesktop.login1.Manager.PrepareForSleep(start)`, as logind
    /// does before a suspend (true) and after the resume (false).
    func emitPrepareForSleep(_ start: Bool) async throws {
        let r = try await client(LogindMock.busctl, ["--address=\(address)", "call", "org.freedesktop.login1",
                                                     "/org/freedesktop/login1", "org.freedesktop.DBus.Mock", "EmitSignal",
                                                     "sssav", "org.freedesktop.login1.Manager", "PrepareForSleep", "b",
                                                     "1", "b", start ? "true" : "false"])
        guard r.exitCode == 0 else { throw WakeTestError("EmitSignal PrepareForSleep(\(start)) failed: \(r)") }
    }

    /// Adds a login session of `uid` on seat0 (the template's `AddSession`); its object path.
    @discardableResult
    func addSession(_ id: String, uid: uid_t = getuid(), active: Bool = true) async throws -> String {
        let r = try await client(LogindMock.busctl, ["--address=\(address)", "call", "org.freedesktop.login1", "/org/freedesktop/login1",
                                                     "org.freedesktop.DBus.Mock", "AddSession", "ssusb", id, "seat0", String(uid),
                                                     "user\(uid)", active ? "true" : "false"])
        guard r.exitCode == 0 else { throw WakeTestError("AddSession(\(id)) failed: \(r)") }
        return "/org/freedesktop/login1/session/\(id)"
    }

    /// Sets a session's `LockedHint` or `IdleHint` as its screen locker or idle monitor would.
    func setHint(_ hint: String, _ value: Bool, session id: String) async throws {
        let r = try await client(LogindMock.busctl, ["--address=\(address)", "call", "org.freedesktop.login1",
                                                     "/org/freedesktop/login1/session/\(id)", "org.freedesktop.DBus.Properties", "Set",
                                                     "ssv", "org.freedesktop.login1.Session", hint, "b", value ? "true" : "false"])
        guard r.exitCode == 0 else { throw WakeTestError("Set \(hint)=\(value) on session \(id) failed: \(r)") }
    }

    /// Gives session `id` logind's `SetBrightness(subsystem, name, value)`, which the template
    /// lacks: as logind does, it writes the value to the device's `brightness` under `sysfs`
    /// (a test's stand-in for /sys/class/backlight); each call is in the log (`brightnessCalls`).
    func addBrightnessControl(session id: String, sysfs: String) async throws {
        let code = "open(\(String(reflecting: sysfs)) + '/' + args[1] + '/brightness', 'w').write(str(args[2]))"
        let r = try await client(LogindMock.busctl, ["--address=\(address)", "call", "org.freedesktop.login1",
                                                     "/org/freedesktop/login1/session/\(id)", "org.freedesktop.DBus.Mock", "AddMethod",
                                                     "sssss", "org.freedesktop.login1.Session", "SetBrightness", "ssu", "", code])
        guard r.exitCode == 0 else { throw WakeTestError("AddMethod SetBrightness on session \(id) failed: \(r)") }
    }

    /// The `SetBrightness` calls in the mock's log, in order: (device, value).
    var brightnessCalls: [(device: String, value: Int)] {
        log.split(separator: "\n").compactMap { line in
            guard let m = line.wholeMatch(of: #/[0-9.]+ SetBrightness "backlight" "([^"]*)" ([0-9]+)/#), let v = Int(m.2) else {
                return nil
            }
            return (String(m.1), v)
        }
    }

    /// One entry of logind's `ListInhibitors()`: the locks still held.
    struct Inhibitor: Equatable, CustomStringConvertible {
        var what, who, why, mode: String
        var description: String { "(\(what), \(who), \(why), \(mode))" }
    }

    func inhibitors() async throws -> [Inhibitor] {
        let r = try await client(LogindMock.busctl, ["--address=\(address)", "--json=short", "call", "org.freedesktop.login1",
                                                     "/org/freedesktop/login1", "org.freedesktop.login1.Manager",
                                                     "ListInhibitors"])
        guard r.exitCode == 0,
              let obj = try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any],
              let data = obj["data"] as? [Any], let list = data.first as? [[Any]] else {
            throw WakeTestError("ListInhibitors failed or gave an unexpected answer: \(r)")
        }
        return list.map { row in
            let s = row.map { "\($0)" }
            return Inhibitor(what: s.count > 0 ? s[0] : "", who: s.count > 1 ? s[1] : "",
                             why: s.count > 2 ? s[2] : "", mode: s.count > 3 ? s[3] : "")
        }
    }

    /// Polls `ListInhibitors()` until it has `count` entries; returns the last answer.
    @discardableResult
    func waitForInhibitors(count: Int, timeout: Duration = .seconds(15)) async throws -> [Inhibitor] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let list = try await inhibitors()
            if list.count == count { return list }
            if ContinuousClock.now >= deadline {
                throw WakeTestError("logind lists \(list.count) inhibitor(s), not \(count), after \(timeout): \(list)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    // MARK: the call log

    var log: String { ChildProcess.read(logPath) }

    /// One logged `Inhibit` call.
    struct InhibitCall: CustomStringConvertible {
        var what, who, why, mode: String
        var line: String
        var description: String { line }
    }

    /// The `Inhibit` calls in the mock's log, in order.
    var inhibitCalls: [InhibitCall] {
        log.split(separator: "\n").compactMap { line in
            guard let m = line.wholeMatch(of: #/[0-9.]+ Inhibit "([^"]*)" "([^"]*)" "([^"]*)" "([^"]*)"/#) else { return nil }
            return InhibitCall(what: String(m.1), who: String(m.2), why: String(m.3), mode: String(m.4), line: String(line))
        }
    }

    // MARK: descriptors

    /// The pipes a process has open, by descriptor: fd -> `pipe:[inode]`.
    static func pipes(ofProcess pid: pid_t) -> [Int: String] {
        let dir = "/proc/\(pid)/fd"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [:] }
        var out: [Int: String] = [:]
        for name in names {
            guard let fd = Int(name), let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "\(dir)/\(name)"),
                  target.hasPrefix("pipe:") else { continue }
            out[fd] = target
        }
        return out
    }

    /// The pipes open both in `pid` and in the mock: the inhibitor locks `pid` holds. fd -> `pipe:[inode]`.
    /// Pipes the test process has open too are left out: both children may have inherited those.
    func sharedPipes(withProcess pid: pid_t) -> [Int: String] {
        let inherited = Set(LogindMock.pipes(ofProcess: getpid()).values)
        let mocks = Set(LogindMock.pipes(ofProcess: mockPID).values).subtracting(inherited)
        return LogindMock.pipes(ofProcess: pid).filter { mocks.contains($0.value) }
    }
}
