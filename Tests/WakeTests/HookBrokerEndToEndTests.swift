import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 53's examples against the real components they talk to: the daemon runs the shipped
/// examples/hooks/50-mqtt-next-alarm and 50-home-assistant from a hooks folder, a real Mosquitto
/// broker (its own config, a private port on 127.0.0.1) and a local HTTP listener standing in for
/// Home Assistant's webhook receive a standing alarm's arming, ring, snooze and stop in order, and
/// the retained "next alarm" is today's ring from the daemon's start and tomorrow's after the stop.
/// The one-off's hooks (order, the clean environment, refusals, the time limit) are
/// HookEndToEndTests'; the other examples run alone in HookExampleTests.
@Suite("Hooks: the examples with a real broker and webhook", .serialized,
       .enabled(if: Mosquitto.isAvailable, "needs mosquitto and mosquitto-clients (make deps-test)"))
struct HookBrokerEndToEndTests {
    @Test("a standing alarm rings, is snoozed, rings again, is stopped: MQTT and the webhook get each event in order; next_alarm: tomorrow")
    func ringSnoozeStop() async throws {
        let dir = try TestDirectory("wake-hooks-mqtt")
        let web = try await HTTPRecorder.start(in: dir)
        defer { web.stop() }
        let broker = try await Mosquitto.start(in: dir)
        defer { broker.stop() }
        let received = try await broker.subscribe("#")

        // The user's settings, as the examples document them: ~/.config/wake/hooks.env and mosquitto_pub's own file.
        let home = HookHome(dir)
        try home.installExamples(["50-mqtt-next-alarm", "50-home-assistant"])
        try home.write(".config/wake/hooks.env", "HA_WEBHOOK_URL=http://127.0.0.1:\(web.port)/api/webhook/wake-morning\n")
        try home.write(".config/mosquitto_pub", "-h 127.0.0.1\n-p \(broker.port)\n")

        let at = AlarmHome.soon(5)
        var tomorrowAt = time(nil) + 5 + 86_400
        let add = try await WakeProcess.run(["add", at, "--name", "morning", "--days", "daily", "-D", "null", "--ring-for", "10m",
                                             "--snooze", "2s"], environment: home.environment)
        #expect(add.exitCode == 0, "\(add)")
        let daemon = try DetachedWake(["daemon", "--inhibit", "off", "--notify", "off"], environment: home.environment, directory: dir)
        defer { daemon.send(SIGKILL) }
        try await daemon.waitForEvent("ringing", timeout: .seconds(60))
        let snooze = try await WakeProcess.run(["snooze"], environment: home.environment)
        #expect(snooze.exitCode == 0, "\(snooze)")
        try await daemon.waitForEvent("ringing", occurrence: 2, timeout: .seconds(60))
        let stop = try await WakeProcess.run(["stop"], environment: home.environment)
        #expect(stop.exitCode == 0, "\(stop)")
        try await daemon.waitForEvent("stopped", timeout: .seconds(30))

        // The hooks run beside the ring: wait (generously) for the arming after the stop to reach both.
        let expected = ["armed", "ringing", "snoozed", "ringing", "stopped", "armed"]
        func published() -> [String] { received.messages.filter { $0.topic == "wake/morning/event" }.map(\.payload) }
        func posted() -> [String] { web.requests.map { $0.body.trimmingCharacters(in: .newlines) } }
        func names(_ lines: [String]) -> [String] { lines.compactMap { HookHome.object($0)?["event"] as? String } }
        func report() -> String {
            "mqtt:\n\(received.text)\nweb:\n\(web.requests)\ndaemon:\n\(daemon.child.currentStderr)\n\(daemon.eventLogText)"
        }
        func nextAlarms() -> [String] { received.messages.filter { $0.topic == "wake/next_alarm" }.map(\.payload) }
        // Each run of the MQTT example publishes the event, then the next alarm.
        try await eventually(report()) { nextAlarms().count >= expected.count && names(posted()).count >= expected.count }
        #expect(names(published()) == expected && names(posted()) == expected, "\(report())")
        #expect(web.requests.allSatisfy { $0.path == "/api/webhook/wake-morning" && $0.type == "application/json" }, "\(report())")

        // Each message is the event's line of the daemon's event log as it is: the alarm, the times, who snoozed and stopped it.
        let logged = daemon.events.filter { expected.contains($0.name) }
        try #require(logged.map(\.name) == expected, "\(daemon.eventLogText)")
        #expect(logged.allSatisfy { $0["alarm"] == "morning" }, "\(daemon.eventLogText)")
        /// An ISO 8601 time of any day at the alarm's time.
        func isAt(_ time: String?) -> Bool { time?.dropFirst(10).hasPrefix("T\(at)") == true }
        #expect(isAt(logged[0]["deadline"]) && isAt(logged[5]["deadline"]), "\(daemon.eventLogText)")
        #expect(logged[2]["until"] != nil && logged[2]["by"] == "control" && logged[4]["by"] == "control", "\(daemon.eventLogText)")
        #expect(published() == logged.map(\.line) && posted() == logged.map(\.line), "\(report())")

        // The retained next alarm: today's ring once the daemon has armed it (Home Assistant's sensor after a restart of
        // either), tomorrow's after the stop, also for a client that connects only now.
        var parts = tm()
        gmtime_r(&tomorrowAt, &parts)
        let tomorrow = String(format: "%04d-%02d-%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday)
        let next = nextAlarms()
        #expect(isAt(next.first) && next.first?.hasPrefix(tomorrow) == false, "\(report())")
        #expect(next.last?.hasPrefix("\(tomorrow)T\(at)") == true, "\(report())")
        let retained = try await broker.retained("wake/next_alarm")
        #expect(retained.hasPrefix("\(tomorrow)T\(at)"), "next_alarm after the stop: '\(retained)'\n\(report())")
        #expect(!daemon.child.currentStderr.contains("hook"), "no hook failed or was refused: \(daemon.child.currentStderr)")

        daemon.send(SIGTERM)
        #expect(await daemon.wait(timeout: .seconds(30)).exitCode == 0)
    }
}

// MARK: - Fixtures the example tests share

/// A private home for hooks: HOME is the test's directory, so what the examples read from
/// ~/.config (hooks.env, mosquitto_pub's file) is the test's, and XDG_CONFIG_HOME agrees with it.
struct HookHome {
    let dir: TestDirectory
    init(_ dir: TestDirectory) {
        self.dir = dir
        mkdir(dir.file("run"), 0o700)
    }

    var environment: [String: String] {
        ["HOME": dir.path, "XDG_CONFIG_HOME": dir.file(".config"), "XDG_STATE_HOME": dir.file("state"), "XDG_RUNTIME_DIR": dir.file("run"),
         "TZ": "UTC"]
    }
    var hooksFolder: String { dir.file(".config/wake/hooks.d") }

    static let examples = packageRoot + "/examples/hooks"

    /// Copies the shipped examples into the hooks folder as the comments in them say (chmod 755),
    /// through `TestDirectory.write`'s close-on-exec descriptor (no child of another test keeps it
    /// open for writing, which would make running it fail with ETXTBSY).
    func installExamples(_ names: [String]) throws {
        try FileManager.default.createDirectory(atPath: hooksFolder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        for name in names {
            let bytes = try #require(FileManager.default.contents(atPath: Self.examples + "/" + name), "examples/hooks/\(name)")
            _ = try dir.write(".config/wake/hooks.d/" + name, bytes, mode: 0o755)
        }
    }

    func write(_ relative: String, _ text: String) throws {
        let folder = (dir.file(relative) as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = try dir.write(relative, Array(text.utf8), mode: 0o600)
    }

    static func object(_ text: String) -> [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    }
}

/// Polls `done` every 50 ms for up to `timeout`.
func eventually(_ what: @autoclosure () -> String, timeout: Duration = .seconds(30), _ done: () -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while !done() {
        if ContinuousClock.now >= deadline { throw WakeTestError("not within \(timeout): \(what())") }
        try await Task.sleep(for: .milliseconds(50))
    }
}

/// A port on 127.0.0.1 nothing listens on now (the kernel's pick; a server that then finds it
/// taken is started again on another).
func freeLocalPort() throws -> UInt16 {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { throw WakeTestError("socket: \(errno)") }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound else { throw WakeTestError("bind 127.0.0.1:0: \(errno)") }
    return UInt16(bigEndian: address.sin_port)
}

/// An HTTP server on 127.0.0.1 (python3's http.server, one request at a time, so in the order
/// they came) recording each request's method, path, content type and body, one JSON a line:
/// Home Assistant's webhook, or a WLED lamp's JSON API.
final class HTTPRecorder {
    struct Request: CustomStringConvertible {
        var method: String, path: String, type: String, body: String
        var description: String { "\(method) \(path) (\(type)) \(body)" }
    }

    static let script = """
        import http.server, json, sys
        log = sys.argv[1]
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get('Content-Length') or 0)).decode('utf-8', 'replace')
                with open(log, 'a') as f:
                    f.write(json.dumps({'method': self.command, 'path': self.path,
                                        'type': self.headers.get('Content-Type') or '', 'body': body}) + '\\n')
                self.send_response(200)
                self.send_header('Content-Length', '0')
                self.end_headers()
            def log_message(self, *args):
                pass
        server = http.server.HTTPServer(('127.0.0.1', 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    let process: ChildProcess
    let port: Int
    let logPath: String

    private init(process: ChildProcess, port: Int, logPath: String) {
        self.process = process; self.port = port; self.logPath = logPath
    }

    static func start(in dir: TestDirectory) async throws -> HTTPRecorder {
        let script = try dir.write("http-recorder-\(UUID().uuidString.prefix(8)).py", Array(Self.script.utf8))
        let log = script + ".log"
        let p = try ChildProcess(DBusMockBus.python, [script, log], directory: dir)
        var port: Int?
        try await TestServerProcesses.waitUntil(deadline: .now + .seconds(30), every: .milliseconds(20), watching: [("http.server", p)],
                                                onTimeout: { "http.server did not start: \(p.currentStderr)" }) {
            port = Int(p.currentStdout.trimmingCharacters(in: .whitespacesAndNewlines))
            return port != nil
        }
        return HTTPRecorder(process: p, port: port ?? 0, logPath: log)
    }

    var requests: [Request] {
        ChildProcess.read(logPath).split(separator: "\n").compactMap { line in
            guard let o = HookHome.object(String(line)) else { return nil }
            return Request(method: o["method"] as? String ?? "", path: o["path"] as? String ?? "", type: o["type"] as? String ?? "",
                           body: o["body"] as? String ?? "")
        }
    }

    func stop() { process.send(SIGKILL) }
}

/// A Mosquitto broker of the test's own: its config (a listener on a private port of 127.0.0.1,
/// anonymous clients, nothing persisted), its log on stderr.
final class Mosquitto {
    static let broker = "/usr/sbin/mosquitto"
    static let sub = "/usr/bin/mosquitto_sub"
    static let pub = "/usr/bin/mosquitto_pub"
    /// Always under CI: `make test` installs them, so a missing one must fail loudly.
    static var isAvailable: Bool {
        ProcessInfo.processInfo.environment["CI"] != nil || [broker, sub, pub].allSatisfy { (path: String) in access(path, X_OK) == 0 }
    }

    let process: ChildProcess
    let port: UInt16
    let dir: TestDirectory
    private var subscribers: [ChildProcess] = []

    private init(process: ChildProcess, port: UInt16, dir: TestDirectory) {
        self.process = process; self.port = port; self.dir = dir
    }

    static func start(in dir: TestDirectory, attempts: Int = 3) async throws -> Mosquitto {
        var failure: Error = WakeTestError("mosquitto was never started")
        for _ in 0..<attempts {
            let port = try freeLocalPort()
            // As root it would switch to the user mosquitto; it stays whoever runs the test.
            let user = getpwuid(geteuid()).map { String(cString: $0.pointee.pw_name) } ?? "root"
            let config = try dir.write("mosquitto-\(port).conf", Array("""
                listener \(port) 127.0.0.1
                allow_anonymous true
                persistence false
                log_dest stderr
                user \(user)

                """.utf8))
            let p = try ChildProcess(broker, ["-c", config], directory: dir)
            do {
                try await TestServerProcesses.waitUntil(deadline: .now + .seconds(30), every: .milliseconds(20),
                                                        watching: [("mosquitto", p)],
                                                        onTimeout: { "mosquitto did not start: \(p.currentStderr)" }) {
                    p.currentStderr.contains(" running")
                }
                return Mosquitto(process: p, port: port, dir: dir)
            } catch {
                p.send(SIGKILL)
                failure = error
            }
        }
        throw failure
    }

    /// What a `mosquitto_sub -v` has received: each message's topic and payload.
    final class Subscription {
        let process: ChildProcess
        init(_ process: ChildProcess) { self.process = process }
        var text: String { process.currentStdout }
        var messages: [(topic: String, payload: String)] {
            text.split(separator: "\n").map { line in
                let parts = line.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }
        }
    }

    /// `mosquitto_sub -v -t TOPIC`, recording, once it is subscribed (a probe message it receives).
    func subscribe(_ topic: String) async throws -> Subscription {
        let p = try ChildProcess(Self.sub, ["-h", "127.0.0.1", "-p", "\(port)", "-v", "-q", "1", "-t", topic], directory: dir)
        subscribers.append(p)
        let s = Subscription(p)
        try await TestServerProcesses.waitUntil(deadline: .now + .seconds(30), every: .milliseconds(100), watching: [("mosquitto_sub", p)],
                                                onTimeout: { "mosquitto_sub never subscribed: \(p.currentStderr)" }) {
            let probe = try ChildProcess(Self.pub, ["-h", "127.0.0.1", "-p", "\(port)", "-t", "test/probe", "-m", "probe"], directory: dir)
            await probe.wait(timeout: .seconds(10))
            return s.text.contains("test/probe probe")
        }
        return s
    }

    /// The retained message of `topic`, as a client connecting now receives it.
    func retained(_ topic: String) async throws -> String {
        let r = try await ChildProcess(Self.sub, ["-h", "127.0.0.1", "-p", "\(port)", "-t", topic, "-C", "1", "-W", "20"], directory: dir)
            .wait(timeout: .seconds(30))
        guard r.exitCode == 0 else { throw WakeTestError("no retained message on \(topic): \(r)") }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func stop() {
        for s in subscribers { s.send(SIGKILL) }
        process.send(SIGKILL)
    }
}
