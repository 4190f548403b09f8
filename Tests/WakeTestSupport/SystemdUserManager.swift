import Foundation
import Glibc

/// A real systemd user manager (`systemd --user`) on a machine whose PID 1 is not systemd, for
/// the tests of wake's user unit. Needs root (mount and PID namespaces, cgroups).
///
/// `start()` runs, with a clean environment (`env -i`: `HOME`, `XDG_CONFIG_HOME` and a private
/// 0700 `XDG_RUNTIME_DIR` in a fresh temporary directory, `PATH`, `LANG=C.UTF-8`,
/// `SYSTEMD_LOG_TARGET=console`):
///
///     sh -c '(watch the test process) & echo $$ > CGROUP/cgroup.procs ...;
///            exec unshare --mount --propagation private --pid --fork --kill-child=SIGKILL --mount-proc \
///              sh -c "mount -t tmpfs -o mode=0755 tmpfs /run/systemd && mkdir /run/systemd/system &&
///                     /usr/lib/systemd/systemd --user --default-standard-output=inherit ..."'
///
/// and waits until `systemctl --user show -p SystemState --value` says `running` (or
/// `degraded`). What each piece is for, found out on this machine (systemd 252, hybrid cgroups,
/// PID 1 not systemd):
/// - The tmpfs on `/run/systemd` with a `system` directory in it, in a private mount namespace:
///   the manager believes it runs on a systemd machine, and nothing of the host's /run changes.
/// - A cgroup of its own (`<test's cgroup>/wake-user-manager-…`, in the `name=systemd` and the
///   unified hierarchy): a user manager takes the cgroup it starts in as its root and moves
///   *every* process in that cgroup into `init.scope` under it. Started in the test runner's
///   cgroup it would take the runner and every other process of the container along (a bare
///   `unshare -m sh -c '… systemd --user'` here moved the whole container into `/init.scope`).
///   The cgroups are removed by `stop()`.
/// - A PID namespace whose init is `sh`, killed with `unshare` (`--kill-child`): when the
///   namespace's init dies the kernel kills the manager and every service it started, so
///   `stop()`, or a test that dies half-way and lets `ChildProcess`'s deinit kill `unshare`,
///   leaves nothing behind. If the test process itself dies, a watcher `sh` loop (polling it
///   once a second) kills `unshare`; only the empty cgroups are then left. `sh` stays the namespace's init (systemd as PID 1 would think it
///   is the system manager).
/// - `systemctl` must run *inside* the namespaces (`nsenter --target <init> --mount --pid`):
///   from outside the PID namespace the manager drops the connection to its private socket
///   (`$XDG_RUNTIME_DIR/systemd/private`) during authentication ("Transport endpoint is not
///   connected"). So PIDs that `systemctl show` reports (`mainPID(of:)`) are the namespace's;
///   `hostPID(ofNamespacePID:)` translates one for `kill(2)` from the test.
/// - `systemctl --user is-system-running` says `offline` here whatever the state (it cannot
///   stat `/proc/1/root` and assumes a chroot), hence `show -p SystemState`.
/// - No journald: the manager's `--default-standard-output=inherit` sends every service's
///   stdout and stderr to the manager's stderr, which `log` returns along with the manager's own.
/// - The distribution's user units (dbus.socket, the gpg-agent sockets) start too; harmless.
///
/// Units go in `$XDG_CONFIG_HOME/systemd/user` (`installUnit`, `installDropIn`, each followed by
/// `daemon-reload`); a service inherits the manager's environment plus `setEnvironment`'s.
/// Use `SystemdUserManager.with { ... }` so `stop()` runs on failure too.
final class SystemdUserManager: TestServer {
    static let systemdPath = "/usr/lib/systemd/systemd"
    static let unsharePath = "/usr/bin/unshare"
    static let nsenterPath = "/usr/bin/nsenter"
    static let envPath = "/usr/bin/env"
    static let systemctlPath: String = ["/usr/bin/systemctl", "/bin/systemctl"].first { access($0, X_OK) == 0 } ?? "/usr/bin/systemctl"

    /// True when running as root with systemd, unshare and nsenter installed.
    static var isAvailable: Bool {
        getuid() == 0 && [systemdPath, unsharePath, nsenterPath, systemctlPath].allSatisfy { (p: String) in access(p, X_OK) == 0 }
    }

    let directory: TestDirectory
    /// The private `XDG_RUNTIME_DIR` (0700).
    let runtimeDirectory: String
    let home: String
    /// `HOME/.config`: the manager's `XDG_CONFIG_HOME`.
    let configHome: String
    /// Where user units go: `XDG_CONFIG_HOME/systemd/user`.
    var unitDirectory: String { configHome + "/systemd/user" }
    private let launcher: ChildProcess
    /// The cgroup directories made for the manager (one per hierarchy it is moved in).
    private let cgroups: [String]
    /// The manager's cgroup path relative to a hierarchy's root, for clean-up in every hierarchy.
    private let cgroupRelativePath: String?
    /// The host PID of the namespace's init (`sh`), once known.
    private(set) var namespaceInit: pid_t = 0
    private var stopped = false

    /// What the manager, and through it every service, wrote (stderr and stdout).
    var log: String { launcher.currentStderr + launcher.currentStdout }

    /// The manager's own environment, the one `systemctl` runs with too.
    var environment: [String: String] {
        ["HOME": home, "XDG_CONFIG_HOME": configHome, "XDG_RUNTIME_DIR": runtimeDirectory,
         "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8"]
    }

    private init(directory: TestDirectory, launcher: ChildProcess, runtime: String, home: String,
                 cgroups: [String], relative: String?) {
        self.directory = directory
        self.launcher = launcher
        runtimeDirectory = runtime
        self.home = home
        configHome = home + "/.config"
        self.cgroups = cgroups
        cgroupRelativePath = relative
    }

    deinit {
        if !stopped {
            launcher.send(SIGKILL)
            SystemdUserManager.removeCgroups(relative: cgroupRelativePath, waitFor: .seconds(5))
        }
    }

    /// Runs `body` with a fresh manager and stops it afterwards whether or not `body` threw.
    static func with<T>(_ body: (SystemdUserManager) async throws -> T) async throws -> T {
        try await using({ try await start() }, body)
    }

    static func start(timeout: Duration = .seconds(60)) async throws -> SystemdUserManager {
        guard isAvailable else {
            throw WakeTestError("a systemd user manager needs root, \(systemdPath), \(unsharePath) and \(nsenterPath) (apt-get install systemd util-linux)")
        }
        let dir = try TestDirectory("wake-systemd")
        let runtime = dir.file("run")
        let home = dir.file("home")
        for d in [runtime, home, home + "/.config", home + "/.config/systemd", home + "/.config/systemd/user"] {
            guard mkdir(d, 0o700) == 0 else { throw WakeTestError("mkdir \(d): errno \(errno)") }
        }
        guard chmod(runtime, 0o700) == 0 else { throw WakeTestError("chmod \(runtime): errno \(errno)") }

        let (cgroups, relative) = try makeCgroups(name: "wake-user-manager-\(getpid())-\(UUID().uuidString.prefix(8))")
        let inner = "mount -t tmpfs -o mode=0755 tmpfs /run/systemd && mkdir /run/systemd/system && "
            + "\(systemdPath) --user --default-standard-output=inherit --default-standard-error=inherit; "
            + "echo \"systemd --user exited: $?\" >&2"
        // The watcher (left in the test's cgroup) kills unshare, and so the namespace, if the
        // test process dies without stopping the manager; it ends when unshare does.
        let outer = "t=$PPID; u=$$; (while kill -0 $t && kill -0 $u; do sleep 1; done 2>/dev/null; kill -KILL $u 2>/dev/null) & "
            + "for d in \"$@\"; do echo $$ > \"$d/cgroup.procs\" || exit 90; done; "
            + "exec \(unsharePath) --mount --propagation private --pid --fork --kill-child=SIGKILL --mount-proc /bin/sh -c '\(inner)'"
        let env = ["HOME": home, "XDG_CONFIG_HOME": home + "/.config", "XDG_RUNTIME_DIR": runtime,
                   "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG": "C.UTF-8",
                   "SYSTEMD_LOG_TARGET": "console", "SYSTEMD_LOG_COLOR": "0"]
        let launcher: ChildProcess
        do {
            launcher = try ChildProcess(envPath, ["-i"] + env.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                                        + ["/bin/sh", "-c", outer, "sh"] + cgroups, directory: dir)
        } catch {
            removeCgroups(relative: relative, waitFor: .zero)
            throw error
        }
        let m = SystemdUserManager(directory: dir, launcher: launcher, runtime: runtime, home: home, cgroups: cgroups, relative: relative)
        return try await m.ready { m in
            let last = TestServerProcesses.Note()
            try await TestServerProcesses.waitUntil(
                deadline: ContinuousClock.now + timeout, every: .milliseconds(100), watching: [("the user manager (at start)", launcher)],
                onTimeout: { "the user manager was not running within \(timeout)\nlast systemctl: \(last.text)\nlog:\n\(m.log)" }
            ) {
                if m.namespaceInit == 0, let child = namespaceChild(of: launcher.pid) { m.namespaceInit = child }
                guard m.namespaceInit != 0, FileManager.default.fileExists(atPath: runtime + "/systemd/private") else { return false }
                let r = try await m.systemctl(["show", "-p", "SystemState", "--value"], timeout: .seconds(20))
                last.text = "\(r)"
                let state = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                return r.exitCode == 0 && (state == "running" || state == "degraded")
            }
        }
    }

    /// Runs `systemctl --user --no-pager ARGS` against this manager, inside its namespaces.
    @discardableResult
    func systemctl(_ arguments: [String], timeout: Duration = .seconds(30)) async throws -> ProcessResult {
        guard namespaceInit != 0 else { throw WakeTestError("the user manager's namespace is not known yet") }
        var env = environment
        env["SYSTEMD_PAGER"] = "cat"
        env["SYSTEMD_COLORS"] = "0"
        let args = ["-i"] + env.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            + [SystemdUserManager.nsenterPath, "--target", "\(namespaceInit)", "--mount", "--pid", "--",
               SystemdUserManager.systemctlPath, "--user", "--no-pager"] + arguments
        let p = try ChildProcess(SystemdUserManager.envPath, args, directory: directory)
        let r = await p.wait(timeout: timeout)
        if r.timedOut { throw WakeTestError("systemctl --user \(arguments.joined(separator: " ")) hung: \(r)") }
        return r
    }

    /// Runs systemctl and throws unless it exits 0; returns its stdout.
    @discardableResult
    func systemctlChecked(_ arguments: [String], timeout: Duration = .seconds(30)) async throws -> String {
        let r = try await systemctl(arguments, timeout: timeout)
        guard r.exitCode == 0 else {
            throw WakeTestError("systemctl --user \(arguments.joined(separator: " ")) failed: \(r)\nmanager log:\n\(log)")
        }
        return r.stdout
    }

    /// Writes `text` as `$XDG_CONFIG_HOME/systemd/user/NAME` and reloads the manager.
    func installUnit(_ name: String, text: String) async throws {
        try write(unitDirectory + "/" + name, text)
        try await systemctlChecked(["daemon-reload"])
    }

    /// Writes a drop-in `UNIT.d/NAME.conf` (it overrides or adds to the unit's settings, the
    /// way `systemctl edit` does) and reloads the manager.
    func installDropIn(for unit: String, name: String = "test", text: String) async throws {
        let d = unitDirectory + "/" + unit + ".d"
        if !FileManager.default.fileExists(atPath: d) {
            guard mkdir(d, 0o755) == 0 else { throw WakeTestError("mkdir \(d): errno \(errno)") }
        }
        try write(d + "/" + name + ".conf", text)
        try await systemctlChecked(["daemon-reload"])
    }

    /// `systemctl --user set-environment K=V ...`: the environment of units started from now on.
    func setEnvironment(_ variables: [String: String]) async throws {
        try await systemctlChecked(["set-environment"] + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })
    }

    /// One property of a unit (`systemctl --user show -p NAME --value UNIT`).
    func property(_ name: String, of unit: String) async throws -> String {
        try await systemctlChecked(["show", "-p", name, "--value", unit]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The unit's main PID as the manager sees it (in its PID namespace); 0 when none.
    func mainPID(of unit: String) async throws -> pid_t {
        let text = try await property("MainPID", of: unit)
        guard let pid = pid_t(text) else { throw WakeTestError("MainPID of \(unit) is '\(text)'") }
        return pid
    }

    /// `ActiveState` of a unit: active, activating, deactivating, inactive, failed.
    func activeState(of unit: String) async throws -> String { try await property("ActiveState", of: unit) }

    /// The host PID of the manager's namespace PID `pid` (nil when no such process): the one
    /// whose `NSpid` ends in `pid` and whose PID namespace is the manager's.
    func hostPID(ofNamespacePID pid: pid_t) -> pid_t? {
        guard namespaceInit != 0, let ns = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(namespaceInit)/ns/pid"),
              let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return nil }
        for e in entries {
            guard let host = pid_t(e) else { continue }
            guard let status = try? String(contentsOfFile: "/proc/\(host)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("NSpid:") }),
                  line.split(whereSeparator: { $0 == " " || $0 == "\t" }).last.flatMap({ pid_t($0) }) == pid,
                  (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(host)/ns/pid")) == ns else { continue }
            return host
        }
        return nil
    }

    /// Sends `signal` to the unit's main process straight from the test (`kill(2)`, as a crash
    /// or an OOM kill would come: not through the manager). Returns the namespace PID it hit.
    @discardableResult
    func signalMainProcess(of unit: String, _ signal: Int32) async throws -> pid_t {
        let pid = try await mainPID(of: unit)
        guard pid > 0 else { throw WakeTestError("\(unit) has no main process") }
        guard let host = hostPID(ofNamespacePID: pid) else { throw WakeTestError("no host PID for \(unit)'s main PID \(pid)") }
        guard kill(host, signal) == 0 else { throw WakeTestError("kill(\(host), \(signal)): errno \(errno)") }
        return pid
    }

    /// Kills the manager's PID namespace (the manager and everything it started die with its
    /// init), waits for it, and removes its cgroups and directory. Idempotent.
    func stop() async {
        if stopped { return }
        stopped = true
        launcher.send(SIGKILL)
        await launcher.wait(timeout: .seconds(10))
        // The namespace's init (no longer our child) and the processes it takes along exit
        // asynchronously; the cgroups can go once they are empty.
        let deadline = ContinuousClock.now + .seconds(10)
        while namespaceInit != 0, kill(namespaceInit, 0) == 0, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        SystemdUserManager.removeCgroups(relative: cgroupRelativePath, waitFor: .seconds(10))
    }

    // MARK: - Helpers

    private func write(_ path: String, _ text: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8)) else { throw WakeTestError("cannot write \(path)") }
    }

    /// The child of `parent` (unshare) that is in another PID namespace: the namespace's init.
    /// (unshare's other child is the watcher, in ours.)
    private static func namespaceChild(of parent: pid_t) -> pid_t? {
        let fm = FileManager.default
        guard let ours = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/ns/pid") else { return nil }
        var children: [pid_t] = []
        if let text = try? String(contentsOfFile: "/proc/\(parent)/task/\(parent)/children", encoding: .utf8) {
            children = text.split(separator: " ").compactMap { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        } else if let entries = try? fm.contentsOfDirectory(atPath: "/proc") {
            for e in entries {
                guard let pid = pid_t(e), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                      let close = stat.lastIndex(of: ")") else { continue }
                let fields = stat[stat.index(after: close)...].split(separator: " ")
                if fields.count > 1, pid_t(fields[1]) == parent { children.append(pid) }
            }
        }
        return children.first { child in
            guard let ns = try? fm.destinationOfSymbolicLink(atPath: "/proc/\(child)/ns/pid") else { return false }
            return ns != ours
        }
    }

    /// The cgroup hierarchies the manager places itself by: `name=systemd` (legacy and hybrid
    /// layouts) and the unified one (`0::`, at /sys/fs/cgroup/unified in the hybrid layout, at
    /// /sys/fs/cgroup in the unified one). Makes `<current cgroup>/<name>` in each and returns
    /// the directories and the path relative to a hierarchy's root. Empty when there is no
    /// writable cgroup file system (the manager then runs without cgroups).
    private static func makeCgroups(name: String) throws -> ([String], String?) {
        guard let text = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else { return ([], nil) }
        var mounts: [(String, String)] = []  // (hierarchy mount point, current path)
        var relative: String?
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3 else { continue }
            let path = String(parts[2])
            if parts[1] == "name=systemd" {
                mounts.append(("/sys/fs/cgroup/systemd", path))
            } else if parts[0] == "0" && parts[1].isEmpty {
                let root = access("/sys/fs/cgroup/unified/cgroup.procs", F_OK) == 0 ? "/sys/fs/cgroup/unified" : "/sys/fs/cgroup"
                mounts.append((root, path))
            }
        }
        var made: [String] = []
        for (root, path) in mounts {
            let base = root + (path == "/" ? "" : path)
            guard access(base + "/cgroup.procs", W_OK) == 0 else { continue }
            sweepStaleCgroups(in: base)
            let dir = base + "/" + name
            guard mkdir(dir, 0o755) == 0 else {
                removeCgroups(relative: relative, waitFor: .zero)
                throw WakeTestError("mkdir \(dir): errno \(errno)")
            }
            made.append(dir)
            relative = (path == "/" ? "" : path) + "/" + name
        }
        return (made, relative)
    }

    /// Removes the (empty) cgroups a test process that died without `stop()` left behind:
    /// `wake-user-manager-PID-…` whose PID is gone.
    private static func sweepStaleCgroups(in base: String) {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: base) else { return }
        for e in entries where e.hasPrefix("wake-user-manager-") {
            let parts = e.split(separator: "-")
            guard parts.count >= 4, let pid = pid_t(parts[3]), kill(pid, 0) != 0, errno == ESRCH else { continue }
            _ = removeTree(base + "/" + e)
        }
    }

    /// Removes `relative` (depth first) from every cgroup hierarchy that has it, retrying while
    /// its last processes are still exiting.
    private static func removeCgroups(relative: String?, waitFor limit: Duration) {
        guard let relative else { return }
        var roots = ["/sys/fs/cgroup"]
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: "/sys/fs/cgroup") {
            roots += entries.sorted().map { "/sys/fs/cgroup/" + $0 }
        }
        let deadline = ContinuousClock.now + limit
        for root in roots {
            let top = root + relative
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: top, isDirectory: &isDir), isDir.boolValue else { continue }
            while true {
                if removeTree(top) { break }
                if ContinuousClock.now >= deadline { break }
                usleep(20_000)
            }
        }
    }

    /// rmdir of a cgroup directory's subdirectories, then of itself (cgroup files cannot and
    /// need not be removed). True when it is gone.
    private static func removeTree(_ path: String) -> Bool {
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: path) {
            for e in entries {
                var isDir: ObjCBool = false
                let p = path + "/" + e
                if FileManager.default.fileExists(atPath: p, isDirectory: &isDir), isDir.boolValue { _ = removeTree(p) }
            }
        }
        return rmdir(path) == 0 || errno == ENOENT
    }
}
