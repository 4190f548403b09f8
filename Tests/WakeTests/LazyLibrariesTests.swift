import Foundation
import Testing
@testable import WakeTestSupport

/// Issue 28: a command loads only what it uses. libsndfile (with its codecs) is loaded when a
/// sound is first opened and libsystemd (with its compression and crypto libraries) when wake
/// first talks to a bus; the commands that do neither (`--version`, `list`, `stop`, `next`)
/// start without them. Seen through the dynamic linker's own account (`LD_DEBUG=files`).
@Suite("Libraries loaded on demand")
struct LazyLibrariesTests {
    /// The shared objects the dynamic linker loaded for `arguments`, by file name.
    static func loaded(_ arguments: [String], home: AlarmHome) async throws -> (ProcessResult, Set<String>) {
        var env = home.environment
        env["LD_DEBUG"] = "files"
        let r = try await WakeProcess.run(arguments, environment: env)
        let names = r.stderrLines.compactMap { line -> String? in
            guard let range = line.range(of: "file=") else { return nil }
            return String(line[range.upperBound...].prefix { $0 != " " && $0 != "\t" && $0 != ";" })
        }
        return (r, Set(names.map { URL(fileURLWithPath: $0).lastPathComponent }))
    }

    @Test("--version, list, next and stop load neither libsndfile nor libsystemd")
    func commandsThatPlayNothing() async throws {
        let home = try AlarmHome()
        let add = try await home.run(["add", "06:30", "--days", "weekdays", "-D", "null"])
        #expect(add.exitCode == 0, "\(add)")
        for args in [["--version"], ["list"], ["next"], ["stop"]] {
            let (r, libs) = try await Self.loaded(args, home: home)
            #expect(libs.contains("libasound.so.2") || libs.contains("libc.so.6"), "LD_DEBUG gave no account: \(r)")
            #expect(!libs.contains("libsndfile.so.1") && !libs.contains("libsystemd.so.0"), "\(args): \(libs.sorted())")
        }
    }

    /// (Whether libsystemd comes too is not wake's to say here: ALSA's configuration loads the
    /// pulse plugin's hooks, and libpulse links libsystemd.)
    @Test("a dry run loads libsndfile to check the sound")
    func loadedWhenUsed() async throws {
        let home = try AlarmHome()
        let (r, libs) = try await Self.loaded(["--dry-run", "+1m", "-D", "null", "--inhibit", "off", "--notify", "off"], home: home)
        #expect(r.exitCode == 0, "\(r)")
        #expect(libs.contains("libsndfile.so.1"), "\(libs.sorted())")
    }
}
