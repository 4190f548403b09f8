import Foundation
import Testing
import WakeCommandLine
import WakeRuntime
@testable import WakeTestSupport

/// Every command line the benchmark gives wake, as `python3 Benchmarks/run.py --list-wake-commands`
/// lists them (issue 51, target 0: `make bench` stopped at figure 3 once `--ring-for` got its floor
/// of a second, and nothing said so until the benchmark ran). Each is checked in process, in a
/// world of its own, the way its entry says (Benchmarks/wakebench/commands.py documents the format):
/// - `dry-run`: run with `--dry-run` appended; it must answer 0.
/// - `run`: run as it is (`wake list`, `wake add` against the world's alarms); it must answer 0.
/// - `start`: a command that runs until it is stopped (the daemon, `wake next --follow`, a control
///   command aimed at a ringing alarm): run up to its start, which this world refuses with a line of
///   its own; anything said before that line (a refusal of an option or of the config file) fails.
/// Placeholders: `{sound:NAME}` is a short sound made here (WAV or FLAC by its extension),
/// `{path:NAME}` a path in the world's directory. An entry's `alarms_toml` is written as the world's
/// alarms.toml first, and must list as `alarms` alarms, with nothing said on stderr. An entry that
/// `needs` a peer the benchmark starts first (a sound server, logind) may also answer 69, the peer
/// missing here: wake says that only once it has accepted every option.
@Suite("The benchmark's command lines: each accepted by today's wake")
struct BenchmarkCommandLineTests {
    struct Entry: Decodable, CustomStringConvertible {
        let figure: String
        let argv: [String]
        let check: String
        let alarms_toml: String?
        let alarms: Int?
        let needs: String?
        var description: String { "figure \(figure): \(argv.joined(separator: " "))" }
    }

    static let unavailable: Int32 = 69  // EX_UNAVAILABLE
    static let refusedStart = "the benchmark's check stops the command at its start"

    /// The listing, from the benchmark itself (standard library only: no wake binary, no build).
    static func listing() async throws -> [Entry] {
        let script = packageRoot + "/Benchmarks/run.py"
        let r = try await runTool("/usr/bin/python3", [script, "--list-wake-commands"])
        return try JSONDecoder().decode([Entry].self, from: Data(r.stdout.utf8))
    }

    @Test("every command line of `make bench` is accepted (a dry run, a run in a private world, or up to its start)")
    func everyCommandLine() async throws {
        let entries = try await Self.listing()
        #expect(entries.count > 20, "the listing is nearly empty: \(entries)")
        #expect(Set(entries.map(\.check)).isSubset(of: ["dry-run", "run", "start"]), "\(entries.map(\.check))")
        let sounds = try TestDirectory("wake-bench-sounds")
        var made: [String: String] = [:]
        for entry in entries {
            let world = try TestWorld()
            func substitute(_ text: String) async throws -> String {
                var text = text
                while let open = text.range(of: "{sound:"), let close = text[open.upperBound...].firstIndex(of: "}") {
                    let name = String(text[open.upperBound..<close])
                    if made[name] == nil {
                        made[name] = try await makeSound(in: sounds, name: name, rate: 44_100, channels: 2, seconds: "1")
                    }
                    text.replaceSubrange(open.lowerBound...close, with: made[name]!)
                }
                while let open = text.range(of: "{path:"), let close = text[open.upperBound...].firstIndex(of: "}") {
                    text.replaceSubrange(open.lowerBound...close, with: world.dir.file(String(text[open.upperBound..<close])))
                }
                return text
            }
            if let toml = entry.alarms_toml {
                try FileManager.default.createDirectory(atPath: world.configDirectory, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
                try await substitute(toml).write(toFile: world.alarmsFile, atomically: true, encoding: .utf8)
                let list = world.run(["list", "--json"])
                let count = (try? JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [Any])?.count
                #expect(list.code == 0 && list.err.isEmpty && count == entry.alarms,
                        "\(entry): the benchmark's alarms.toml is not read as \(entry.alarms ?? -1) alarms: \(list)")
            }
            var argv: [String] = []
            for word in entry.argv.dropFirst() { argv.append(try await substitute(word)) }  // argv[0] is "wake"
            switch entry.check {
            case "dry-run":
                let r = world.run(argv + ["--dry-run"])
                let accepted = r.code == 0 || (entry.needs != nil && r.code == Self.unavailable)
                #expect(accepted, "wake refused the benchmark's command line \(entry) (with --dry-run): \(r)")
            case "run":
                let r = world.run(argv)
                #expect(r.code == 0, "wake refused the benchmark's command line \(entry): \(r)")
            default:
                let r = Self.upToStart(argv, in: world)
                #expect(r.err.count == 1 && r.err.first?.hasSuffix(Self.refusedStart) == true,
                        "wake refused the benchmark's command line \(entry) before its start: \(r)")
            }
        }
    }

    /// `wake ARGS` in `world`, whose start (`CommandWorld.start`, after the command line and the
    /// config file are read) refuses with `refusedStart`: nothing waits, rings or signals.
    static func upToStart(_ arguments: [String], in world: TestWorld) -> WakeRun {
        let out = Console.LineCapture(), err = Console.LineCapture()
        var stopping = world.commandWorld(out: out, err: err)
        stopping.start = { _ throws(WakeFailure) in throw WakeFailure(.resource, Self.refusedStart) }
        let code = WakeMain.run(arguments, world: stopping)
        return WakeRun(code: code, out: TestWorld.lines(out.lines), err: TestWorld.lines(err.lines))
    }
}
