import Foundation
import Glibc

/// Issue 23: wake-alarm-timer, the helper that holds CAP_WAKE_ALARM and arms alarm timers for
/// an ordinary user, and wake's client of it. The helper is compiled here with cc from its one
/// source file (as the Makefile does) into a directory of the test's own, and given the
/// capability with setcap. Its policy (issue 37) makes timers only for a person logged in at a
/// seat, by logind's records: this build reads records of the test's own (`logind/users/UID`,
/// WAKE_LOGIND_USERS_DIR, which the Makefile never sets), where `person` (uid 4242, no passwd
/// entry needed) has a session on seat0. An ordinary user is `setpriv --reuid=4242`; nobody
/// (a system account) and `seatless` (uid 4343, a session without a seat) are refused.
enum HelperFixture {
    static let cc = "/usr/bin/cc"
    static let setcap = "/usr/sbin/setcap"
    static let getcap = "/usr/sbin/getcap"
    static let setpriv = "/usr/bin/setpriv"
    static let python = "/usr/bin/python3"
    static let source = packageRoot + "/Sources/wake-alarm-timer/main.c"
    static let client = packageRoot + "/Tests/WakeSystemTests/alarm_timer_client.py"
    static let asNobody = [setpriv, "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    static let person: uid_t = 4242
    static let seatless: uid_t = 4343
    static func asUser(_ uid: uid_t) -> [String] { [setpriv, "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"] }
    static let asPerson = asUser(person)

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
        mkdir(dir.file("logind"), 0o755)
        mkdir(dir.file("logind/users"), 0o755)
        let records = "-DWAKE_LOGIND_USERS_DIR=\"\(dir.file("logind/users"))\""
        let build = try await ChildProcess(cc, ["-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", records, "-o", helper, source],
                                           directory: dir).wait(timeout: .seconds(60))
        guard build.exitCode == 0 else { throw WakeTestError("cc \(source): \(build)") }
        try record(person, onlineSeats: "seat0", in: dir)
        try record(seatless, onlineSeats: "", in: dir)
        if capability {
            let r = try await ChildProcess(setcap, ["cap_wake_alarm+ep", helper], directory: dir).wait()
            guard r.exitCode == 0 else { throw WakeTestError("setcap: \(r)") }
        }
        let client = dir.file("alarm_timer_client.py")
        try FileManager.default.copyItem(atPath: Self.client, toPath: client)
        chmod(client, 0o644)
        return (dir, helper, client)
    }

    /// Writes logind's record of `uid` (as systemd-logind 252 does, root's, 0644): its sessions
    /// and the seats of those online (`ONLINE_SEATS=`, empty for an ssh login).
    static func record(_ uid: uid_t, onlineSeats: String, in dir: TestDirectory) throws {
        let text = "NAME=u\(uid)\nSTATE=active\nRUNTIME=/run/user/\(uid)\nSESSIONS=7\nSEATS=\(onlineSeats)\n"
            + "ACTIVE_SESSIONS=7\nONLINE_SESSIONS=7\nACTIVE_SEATS=\(onlineSeats)\nONLINE_SEATS=\(onlineSeats)\n"
        _ = try dir.write("logind/users/\(uid)", text.utf8, mode: 0o644)
    }

    /// Runs the client as `user` (the person at the seat, by default) and decodes its one JSON line.
    static func runClient(_ arguments: [String], directory: TestDirectory, as user: [String] = asPerson) async throws -> [String: Any] {
        let r = try await ChildProcess(user[0], Array(user.dropFirst()) + ["env", "-i", python] + arguments,
                                       directory: directory).wait(timeout: .seconds(30))
        guard r.exitCode == 0, let line = r.stdoutLines.last,
              let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw WakeTestError("client \(arguments): \(r)")
        }
        return object
    }

    /// A launcher that runs `helper` as `user` (the person at the seat, by default; fd 0, the
    /// socket, passes through), so wake's client, in this root process, talks to the helper as
    /// an ordinary user's wake would.
    static func launcher(for helper: String, in dir: TestDirectory, as user: [String] = asPerson) throws -> String {
        let script = "#!/bin/sh\nexec \(user.joined(separator: " ")) \(helper)\n"
        return try dir.write("as-\(user[1].dropFirst("--reuid=".count))", script.utf8, mode: 0o755)
    }
}
