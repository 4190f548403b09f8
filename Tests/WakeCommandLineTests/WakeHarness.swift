import Foundation
import Glibc
import WakeCommandLine
import WakeCore
import WakeRuntime
import WakeSystem
@testable import WakeTestSupport

/// What one command line gave back in process: the exit code and the lines stdout and stderr
/// would have had (errors with their "wake: ").
struct WakeRun: CustomStringConvertible {
    let code: Int32
    let out: [String]
    let err: [String]

    var stdout: String { out.map { $0 + "\n" }.joined() }
    var stderr: String { err.map { $0 + "\n" }.joined() }
    /// A refusal's shape: exactly one line on stderr.
    var stderrIsOneLine: Bool { err.count == 1 }
    var description: String { "exit \(code)\n--- stdout\n\(stdout)--- stderr\n\(stderr)" }
}

/// A user's world in a temporary directory: config.toml, the alarms and their history under
/// `config/wake`, as `XDGPaths` puts them, a fixed "now" and zone, no running wake, no daemon, and nothing
/// done to the process (no libraries silenced, no mixer restored, no environment adopted).
struct TestWorld {
    /// Monday 2027-03-01 05:00:00 UTC (06:00 in Berlin).
    static let monday = Instant(seconds: 1_803_877_200)

    let dir: TestDirectory
    var now: Instant
    var zone: TimeZoneRules

    init(now: Instant = TestWorld.monday, zone: TimeZoneRules = .utc) throws {
        dir = try TestDirectory("wake-cli")
        self.now = now
        self.zone = zone
    }

    var configDirectory: String { dir.file("config") + "/wake" }
    var configFile: String { configDirectory + "/config.toml" }
    var alarmsFile: String { configDirectory + "/alarms.toml" }

    /// Writes config.toml (its directory made 0700 first, as wake makes it).
    func writeConfig(_ text: String) throws {
        try FileManager.default.createDirectory(atPath: configDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        try text.write(toFile: configFile, atomically: true, encoding: .utf8)
    }

    var historyFile: String { configDirectory + "/history.toml" }
    var store: AlarmStore { AlarmStore(alarmsFile: alarmsFile, historyFile: historyFile) }

    /// The locale's LC_TIME formats the world reads (`T_FMT`, `D_FMT`): nil for C's, whatever the test process's locale.
    var localeClock: (time: String, date: String)?
    /// The reader's language: nil for English, whatever the test process's LANGUAGE.
    var messages: MessageCatalogue?

    /// The world `WakeMain.run` gets, writing into `out` and `err`.
    func commandWorld(out: Console.LineCapture, err: Console.LineCapture) -> CommandWorld {
        let (now, zone, configFile) = (self.now, self.zone, self.configFile)
        let standing = StandingContext(store: store, config: { ConfigDefaults.loadTolerant(path: configFile) }, now: { now }, zone: zone)
        var world = CommandWorld(console: { Console(capturing: out, errors: err, quiet: $0, stdoutIsEventStream: $1) },
                                 configPath: configFile,
                            standing: standing, clock: { ClockReading(realtime: now, boottime: Instant(seconds: 1000)) }, zone: zone,
                            start: { _ throws(WakeFailure) in
                                do { return try SignalChannel() } catch { throw WakeFailure(.resource, "signalfd: \(error)") }
                            },
                            daemonEnvironment: { .shell })
        let formats = localeClock, catalogue = messages
        world.localeClock = { formats }
        world.messages = { catalogue }
        world.desktopClock = { nil }
        return world
    }

    /// Runs `wake ARGS` in process.
    func run(_ arguments: [String]) -> WakeRun {
        let out = Console.LineCapture(), err = Console.LineCapture()
        let code = WakeMain.run(arguments, world: commandWorld(out: out, err: err))
        return WakeRun(code: code, out: Self.lines(out.lines), err: Self.lines(err.lines))
    }

    /// A captured entry may hold several lines (a help text, a file); each is one line here.
    static func lines(_ entries: [String]) -> [String] {
        entries.flatMap { entry in
            var parts = entry.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if entry.hasSuffix("\n") { parts.removeLast() }
            return parts
        }
    }

    /// `wake list --json`'s array.
    func listJSON() throws -> [[String: Any]] {
        let r = run(["list", "--json"])
        guard r.code == 0, let array = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]] else {
            throw WakeTestError("wake list --json: \(r)")
        }
        return array
    }
}

/// `wake ARGS` in `world` (a fresh one by default): the exit code and the lines.
func runWake(_ arguments: [String], world: TestWorld? = nil) throws -> WakeRun {
    try (world ?? TestWorld()).run(arguments)
}
