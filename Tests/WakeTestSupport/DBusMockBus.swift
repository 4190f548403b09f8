import Foundation
import Glibc

/// A mock that runs on a `DBusMockBus`: its directory, address and environment are the bus's.
protocol DBusMockFixture: TestServer {
    var bus: DBusMockBus { get }
}

extension DBusMockFixture {
    var directory: TestDirectory { bus.directory }
    var socketPath: String { bus.socketPath }
    var logPath: String { bus.logPath }
    /// `unix:path=<socket>`, for the environment and `--address`.
    var address: String { bus.address }
    /// The environment that puts a child on this bus.
    var environment: [String: String] { bus.environment }
    /// The pid of the python process that plays the service.
    var mockPID: pid_t { bus.mockPID }

    func stop() async { await bus.stop() }
}

/// What `LogindMock` and `NotificationMock` share: a private `dbus-daemon` listening on a socket
/// in a fresh temporary directory, and one python-dbusmock template on it, started and stopped
/// together. Each mock adds the calls of its own service.
final class DBusMockBus {
    static let python = "/usr/bin/python3"
    static let dbusDaemon = "/usr/bin/dbus-daemon"

    let directory: TestDirectory
    let socketPath: String
    let logPath: String
    /// `DBUS_SYSTEM_BUS_ADDRESS` or `DBUS_SESSION_BUS_ADDRESS`: where a client looks for this bus.
    let addressVariable: String
    let daemon: ChildProcess
    private(set) var mock: ChildProcess?

    /// `unix:path=<socket>`, for the environment and `--address`.
    var address: String { "unix:path=\(socketPath)" }
    /// The environment that puts a child on this bus.
    var environment: [String: String] { [addressVariable: address] }
    /// The pid of the python process that plays the service.
    var mockPID: pid_t { mock?.pid ?? -1 }

    /// Runs `dbus-daemon --config-file=CONFIG --nofork --print-address` on `directory/socketName`.
    init(directory: TestDirectory, config: String, socketName: String, logName: String, addressVariable: String) throws {
        self.directory = directory
        socketPath = directory.file(socketName)
        logPath = directory.file(logName)
        self.addressVariable = addressVariable
        daemon = try ChildProcess(Self.dbusDaemon, ["--config-file=\(config)", "--nofork", "--print-address",
                                                    "--address=unix:path=\(socketPath)"], directory: directory)
    }

    /// Returns once dbus-daemon has printed its address (it listens then).
    func waitForDaemon(deadline: ContinuousClock.Instant) async throws {
        let daemon = self.daemon
        try await TestServerProcesses.waitUntil(deadline: deadline, every: .milliseconds(20), watching: [("dbus-daemon", daemon)],
                                                onTimeout: { "dbus-daemon did not start: \(daemon.currentStderr)" }) {
            daemon.currentStdout.contains("unix:")
        }
    }

    /// Runs `python3 -m dbusmock ARGUMENTS -l LOG` on the bus and returns once `isReady` (its
    /// service has an owner), or throws when it exits or `deadline` passes.
    func startMock(_ arguments: [String], template: String, service: String, deadline: ContinuousClock.Instant,
                   isReady: () async throws -> Bool) async throws {
        let mock = try ChildProcess(Self.python, ["-m", "dbusmock"] + arguments + ["-l", logPath], environment: environment,
                                    directory: directory)
        self.mock = mock
        let daemon = self.daemon
        try await TestServerProcesses.waitUntil(
            deadline: deadline, every: .milliseconds(50), watching: [("the dbusmock \(template) template", mock)],
            onTimeout: { "\(service) did not appear on the test bus\nmock stderr: \(mock.currentStderr)\ndaemon stderr: \(daemon.currentStderr)" },
            isReady)
    }

    /// Stops the mock (thawed first, if frozen) and the bus, and reaps them.
    func stop() async {
        await TestServerProcesses.terminate([mock, daemon])
    }
}
