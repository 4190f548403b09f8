import Foundation
import Glibc

/// A private session bus with a fake desktop notification server on it, for the `--notify`
/// tests.
///
/// `start()` writes a session bus configuration into a fresh temporary directory (no service
/// directories: nothing on this machine can be activated on it, so "no server" stays true),
/// runs `dbus-daemon --config-file=... --nofork --print-address --address=unix:path=<dir>/bus`,
/// then python-dbusmock's notification_daemon template with the capabilities the tests need
/// (its defaults leave out `actions`: no buttons), and waits until `org.freedesktop.Notifications`
/// has an owner. Point wake at it with `environment` (`DBUS_SESSION_BUS_ADDRESS`). With
/// `server: false` only the bus runs. Use `NotificationMock.with { ... }` so both are stopped on
/// failure too (the `ChildProcess` deinits kill them anyway).
///
/// What the template does, and what the tests use:
/// - `Notify` returns `replaces_id` when it is not 0, else the next id (1, 2, ...);
///   `CloseNotification(id)` emits `NotificationClosed(id, 1)` for an id it gave out.
/// - `org.freedesktop.DBus.Mock.GetCalls` lists every call with its arguments (`calls()`).
/// - `org.freedesktop.DBus.Mock.EmitSignal` sends `ActionInvoked(id, key)`: a button pressed
///   (`press(_:on:)`).
/// - The python process can be frozen with SIGSTOP (`freeze()`): a hung server. The bus itself
///   keeps running; `GetCalls` must not be asked while frozen (it would wait for the mock).
final class NotificationMock: DBusMockFixture {
    static let python = LogindMock.python
    static let dbusDaemon = LogindMock.dbusDaemon
    static let busctlPath = LogindMock.busctl
    static let template = "/usr/lib/python3/dist-packages/dbusmock/templates/notification_daemon.py"

    /// True when everything the fixture runs is installed; always under CI (`make test`
    /// installs it all, so a missing piece must fail loudly rather than skip).
    static var isAvailable: Bool {
        if ProcessInfo.processInfo.environment["CI"] != nil { return true }
        return [python, dbusDaemon, busctlPath].allSatisfy { (path: String) in access(path, X_OK) == 0 } && FileManager.default.fileExists(atPath: template)
    }

    static let configuration = """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:tmpdir=/tmp</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """

    let bus: DBusMockBus

    private init(bus: DBusMockBus) { self.bus = bus }

    static func with<T>(server: Bool = true, _ body: (NotificationMock) async throws -> T) async throws -> T {
        try await using({ try await start(server: server) }, body)
    }

    /// A fresh bus (and server); a start that does not come up within `timeout` is thrown away
    /// and tried again from scratch, as the logind mock's is (`TestServer.retrying`).
    static func start(server: Bool = true, timeout: Duration = .seconds(60), attempts: Int = 3) async throws -> NotificationMock {
        try await retrying("the notification mock", attempts: attempts) { try await startOnce(server: server, timeout: timeout) }
    }

    private static func startOnce(server: Bool, timeout: Duration) async throws -> NotificationMock {
        let dir = try TestDirectory("wake-notify")
        let config = try dir.write("session-bus.conf", Array(configuration.utf8))
        let bus = try DBusMockBus(directory: dir, config: config, socketName: "bus", logName: "notification-mock.log",
                                  addressVariable: "DBUS_SESSION_BUS_ADDRESS")
        return try await NotificationMock(bus: bus).ready { m in
            let deadline = ContinuousClock.now + timeout
            try await bus.waitForDaemon(deadline: deadline)
            guard server else { return }
            try await bus.startMock(["--template", "notification_daemon", "-p", #"{"capabilities": "actions body persistence"}"#],
                                    template: "notification_daemon", service: "org.freedesktop.Notifications",
                                    deadline: deadline) { try await m.hasServer() }
        }
    }


    /// SIGSTOP: the server hangs, the bus goes on.
    func freeze() { kill(mockPID, SIGSTOP) }
    func thaw() { kill(mockPID, SIGCONT) }

    // MARK: talking to the bus

    func busctl(_ arguments: [String]) async throws -> ProcessResult {
        let p = try ChildProcess(Self.busctlPath, ["--address=\(address)"] + arguments, environment: environment, directory: directory)
        let r = await p.wait(timeout: .seconds(60))
        if r.timedOut { throw WakeTestError("busctl \(arguments.joined(separator: " ")) hung: \(r)") }
        return r
    }

    func hasServer() async throws -> Bool {
        let r = try await busctl(["call", "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                  "NameHasOwner", "s", "org.freedesktop.Notifications"])
        return r.exitCode == 0 && r.stdout.contains("b true")
    }

    /// Presses a button: the server's `ActionInvoked(id, key)`.
    func press(_ key: String, on id: UInt32) async throws {
        let r = try await busctl(["call", "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                  "org.freedesktop.DBus.Mock", "EmitSignal", "sssav", "org.freedesktop.Notifications",
                                  "ActionInvoked", "us", "2", "u", "\(id)", "s", key])
        guard r.exitCode == 0 else { throw WakeTestError("EmitSignal ActionInvoked(\(id), \(key)) failed: \(r)") }
    }

    // MARK: the calls the server received

    /// One `Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout)`.
    struct Notify: CustomStringConvertible {
        var appName: String
        var replacesID: UInt32
        var appIcon: String
        var summary: String
        var body: String
        /// key, label, key, label...
        var actions: [String]
        /// Each hint's value as text (`2`, `true`).
        var hints: [String: String]
        var expireTimeout: Int
        var description: String {
            "Notify(\(appName), replaces \(replacesID), \"\(summary)\", \"\(body)\", \(actions), \(hints.sorted { $0.key < $1.key }), \(expireTimeout))"
        }
    }

    enum Call: CustomStringConvertible {
        case notify(Notify)
        case close(UInt32)
        case other(String)
        var description: String {
            switch self {
            case .notify(let n): return n.description
            case .close(let id): return "CloseNotification(\(id))"
            case .other(let m): return m
            }
        }
    }

    /// Every call so far, in order (the mock's GetCalls). Not while frozen.
    func calls() async throws -> [Call] {
        let r = try await busctl(["--json=short", "call", "org.freedesktop.Notifications", "/org/freedesktop/Notifications",
                                  "org.freedesktop.DBus.Mock", "GetCalls"])
        guard r.exitCode == 0, let obj = try? JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any],
              let data = obj["data"] as? [Any], let list = data.first as? [[Any]] else {
            throw WakeTestError("GetCalls failed or gave an unexpected answer: \(r)")
        }
        return list.map { entry in
            let method = entry.count > 1 ? entry[1] as? String ?? "?" : "?"
            let args = (entry.count > 2 ? entry[2] as? [[String: Any]] : nil)?.map { $0["data"] as Any } ?? []
            switch method {
            case "Notify" where args.count == 8:
                var hints: [String: String] = [:]
                for (k, v) in args[6] as? [String: Any] ?? [:] {
                    let value = (v as? [String: Any])?["data"]
                    if let b = value as? Bool, (v as? [String: Any])?["type"] as? String == "b" { hints[k] = b ? "true" : "false" }
                    else { hints[k] = value.map { "\($0)" } ?? "?" }
                }
                return .notify(Notify(appName: args[0] as? String ?? "?", replacesID: Self.uint32(args[1]),
                                      appIcon: args[2] as? String ?? "?",
                                      summary: args[3] as? String ?? "?", body: args[4] as? String ?? "?",
                                      actions: args[5] as? [String] ?? [], hints: hints,
                                      expireTimeout: (args[7] as? NSNumber)?.intValue ?? -99))
            case "CloseNotification" where args.count == 1:
                return .close(Self.uint32(args[0]))
            default:
                return .other(method)
            }
        }
    }

    static func uint32(_ any: Any) -> UInt32 { (any as? NSNumber).map { UInt32(truncatingIfNeeded: $0.int64Value) } ?? UInt32.max }

    var notifies: [Notify] { get async throws { try await calls().compactMap { if case .notify(let n) = $0 { n } else { nil } } } }

    /// Polls the calls until `done` says so; returns them. Throws with the calls seen after `timeout`.
    @discardableResult
    func waitForCalls(timeout: Duration = .seconds(20), _ what: String, _ done: ([Call]) -> Bool) async throws -> [Call] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let calls = try await calls()
            if done(calls) { return calls }
            if ContinuousClock.now >= deadline {
                throw WakeTestError("the notification server never saw \(what) within \(timeout); its calls:\n"
                                    + calls.map(\.description).joined(separator: "\n"))
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Waits for the `n`-th Notify.
    func waitForNotify(_ n: Int = 1, timeout: Duration = .seconds(20)) async throws -> Notify {
        let calls = try await waitForCalls(timeout: timeout, "Notify #\(n)") { calls in
            calls.filter { if case .notify = $0 { true } else { false } }.count >= n
        }
        let notifies = calls.compactMap { if case .notify(let x) = $0 { x } else { nil } }
        return notifies[n - 1]
    }
}
