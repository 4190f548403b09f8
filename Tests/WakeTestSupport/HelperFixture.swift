import Foundation
import Glibc

/// Issue 23: wake-alarm-timer, the helper that holds CAP_WAKE_ALARM and arms alarm timers for
/// an ordinary user, and wake's client of it. The helper is compiled here with cc from its one
/// source file (as the Makefile does) into a directory of the test's own, and given the
/// capability with setcap; an ordinary user is `setpriv --reuid=nobody`.
enum HelperFixture {
    static let cc = "/usr/bin/cc"
    static let setcap = "/usr/sbin/setcap"
    static let getcap = "/usr/sbin/getcap"
    static let setpriv = "/usr/bin/setpriv"
    static let python = "/usr/bin/python3"
    static let source = packageRoot + "/Sources/wake-alarm-timer/main.c"
    static let client = packageRoot + "/Tests/WakeSystemTests/alarm_timer_client.py"
    static let asNobody = [setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups"]

    /// Root (setcap, setpriv), cc, setcap and python3 (libcap2-bin and python3 are in the Makefile's TEST_PACKAGES).
    static var enabled: Bool {
        let tools: [String] = [cc, setcap, getcap, setpriv, python]
        return geteuid() == 0 && tools.allSatisfy { access($0, X_OK) == 0 }
    }

    /// A directory nobody can read and enter, holding the helper (with the capability when
    /// `capability`) and a copy of the client.
    static func make(capability: Bool) async throws -> (directory: TestDirectory, helper: String, client: String) {
        let dir = try TestDirectory("wake-helper")
        chmod(dir.path, 0o755)
        let helper = dir.file("wake-alarm-timer")
        let build = try await ChildProcess(cc, ["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-o", helper, source], directory: dir).wait(timeout: .seconds(60))
        guard build.exitCode == 0 else { throw WakeTestError("cc \(source): \(build)") }
        if capability {
            let r = try await ChildProcess(setcap, ["cap_wake_alarm+ep", helper], directory: dir).wait()
            guard r.exitCode == 0 else { throw WakeTestError("setcap: \(r)") }
        }
        let client = dir.file("alarm_timer_client.py")
        try FileManager.default.copyItem(atPath: Self.client, toPath: client)
        chmod(client, 0o644)
        return (dir, helper, client)
    }

    /// Runs the client as nobody and decodes its one JSON line.
    static func runClient(_ arguments: [String], directory: TestDirectory) async throws -> [String: Any] {
        let r = try await ChildProcess(asNobody[0], Array(asNobody.dropFirst()) + ["env", "-i", python] + arguments,
                                       directory: directory).wait(timeout: .seconds(30))
        guard r.exitCode == 0, let line = r.stdoutLines.last,
              let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw WakeTestError("client \(arguments): \(r)")
        }
        return object
    }

    /// A launcher that runs `helper` as nobody (fd 0, the socket, passes through), so wake's
    /// client, in this root process, talks to the helper as an ordinary user's wake would.
    static func nobodyLauncher(for helper: String, in dir: TestDirectory) throws -> String {
        let script = "#!/bin/sh\nexec \(asNobody.joined(separator: " ")) \(helper)\n"
        return try dir.write("as-nobody", script.utf8, mode: 0o755)
    }
}
