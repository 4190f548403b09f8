import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 39: "a history.toml that cannot be read" as it happens to a user: a file they cannot
/// read (root reads any file, so wake runs as nobody through setpriv, in nobody's own
/// directories). `wake doctor` names the file and says what to do about a permission, not
/// about a line; the same for alarms.toml.
@Suite("wake doctor as an ordinary user", .enabled(if: ControlSecurityTests.canSwitchUser, "needs root and setpriv"))
struct DoctorUserEndToEndTests {
    @Test("history.toml, then alarms.toml, that nobody can read (chmod 000): files.history and files.alarms FAIL naming the file, the fix a chmod; exit 2")
    func unreadableFiles() async throws {
        let dir = try TestDirectory("wake-doctor-user")
        chmod(dir.path, 0o755)
        for d in ["config", "state", "run"] {
            mkdir(dir.file(d), 0o700)
            chown(dir.file(d), 65534, 65534)
        }
        let binary = try InhibitTool.binaryUsableByOthers(in: dir)
        let env = ["PATH=/usr/bin:/bin", "HOME=/nonexistent", "XDG_CONFIG_HOME=\(dir.file("config"))", "XDG_STATE_HOME=\(dir.file("state"))",
                   "XDG_RUNTIME_DIR=\(dir.file("run"))"]
        func wake(_ args: [String]) async throws -> ProcessResult {
            let p = try ChildProcess(InhibitTool.setpriv, ControlSecurityTests.nobody + ["env", "-i"] + env + [binary] + args, directory: dir)
            return await p.wait(timeout: .seconds(60))
        }
        let add = try await wake(["add", "06:30", "--days", DoctorBench.farDay, "--name", "work", "-D", "null"])
        #expect(add.exitCode == 0, "\(add)")
        let history = dir.file("config") + "/wake/history.toml"
        _ = try dir.write("config/wake/history.toml", Array("[work]\n".utf8), mode: 0o600)
        chown(history, 65534, 65534)
        var r = try await wake(["doctor"])
        #expect(r.stdout.contains("PASS  files         history.toml is readable and well formed"), "\(r)")

        chmod(history, 0)
        r = try await wake(["doctor"])
        var lines = r.stdoutLines
        var i = lines.firstIndex { $0.hasPrefix("FAIL  files         history file '\(history)': Permission denied") }
        #expect(i.map { lines[$0 + 1].contains("fix: make it a file only you can read and write ('chmod 600 \(history)'") } == true, "\(r)")
        #expect(!r.stdout.contains("correct that line"), "there is no line to correct: \(r)")
        #expect(r.exitCode == 2, "\(r)")

        let alarms = dir.file("config") + "/wake/alarms.toml"
        chmod(history, 0o600)
        chmod(alarms, 0)
        r = try await wake(["doctor"])
        lines = r.stdoutLines
        i = lines.firstIndex { $0.hasPrefix("FAIL  files         alarms file '\(alarms)': Permission denied") }
        #expect(i.map { lines[$0 + 1].contains("fix: make it a file only you can read and write ('chmod 600 \(alarms)'") } == true, "\(r)")
        #expect(r.exitCode == 2, "\(r)")
    }
}
