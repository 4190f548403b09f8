import Foundation
import Glibc

/// Running the real `wake` binary (and helper tools such as sox and python3) as a child process.
///
/// Children are started with `posix_spawn`, an empty signal mask and every signal at its default
/// disposition, so the signals a test sends reach wake exactly as they would from a shell.
/// stdout and stderr go to files in a private temporary directory (never a terminal, never a
/// pipe that could fill up) unless a test asks for them closed or a broken pipe; waiting polls
/// `waitpid` from an async task with a hard timeout after which the child is killed, so a hung
/// binary fails its test instead of hanging the run. `DetachedWake` starts wake in a new session
/// (no controlling terminal); `runOnPty` runs it on a pseudo-terminal through pty_driver.py.

/// Where the binary under test is: `$WAKE_BINARY`, else `wake` next to the test bundle
/// (for `swift test`, `.build/<triple>/debug`).
enum WakeBinary {
    static let path: String = {
        if let p = ProcessInfo.processInfo.environment["WAKE_BINARY"], !p.isEmpty { return p }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return bundle.deletingLastPathComponent().appendingPathComponent("wake").path
    }()
}

struct WakeTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A private temporary directory, removed with everything in it when the value goes away.
final class TestDirectory: Sendable {
    let path: String

    init(_ label: String = "wake-e2e") throws {
        var template = Array((NSTemporaryDirectory() + "/\(label).XXXXXX").utf8CString)
        guard let p = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw WakeTestError("mkdtemp failed: errno \(errno)")
        }
        path = String(cString: p)
    }

    deinit {
        if ProcessInfo.processInfo.environment["WAKE_TEST_KEEP"] == nil {
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    func file(_ name: String) -> String { path + "/" + name }

    /// Writes `name` through a close-on-exec descriptor: a child that another test spawns
    /// meanwhile must not inherit it open for writing, or exec'ing the file (a script, a copy of
    /// a program) fails with ETXTBSY.
    func write(_ name: String, _ bytes: some Collection<UInt8>, mode: mode_t = 0o644) throws -> String {
        let p = file(name)
        let fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        guard fd >= 0 else { throw WakeTestError("open \(p): errno \(errno)") }
        defer { close(fd) }
        let data = Array(bytes)
        var done = 0
        while done < data.count {
            let n = data[done...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw WakeTestError("write \(p): errno \(errno) after \(done) of \(data.count) bytes") }
            done += n
        }
        fchmod(fd, mode)
        return p
    }
}

/// How a finished child ended, and what it wrote.
struct ProcessResult: Sendable, CustomStringConvertible {
    /// The exit code, or nil when a signal killed the process.
    var exitCode: Int32?
    /// The signal that killed the process, if one did.
    var terminatingSignal: Int32?
    /// True when the test's time limit ran out and the child was killed with SIGKILL.
    var timedOut: Bool
    var stdout: String
    var stderr: String
    var elapsed: Duration

    /// stderr split into lines (a final newline does not make an empty last line).
    var stderrLines: [String] { ProcessResult.lines(stderr) }
    var stdoutLines: [String] { ProcessResult.lines(stdout) }

    /// True when stderr is exactly one newline-terminated, non-empty line.
    var stderrIsOneLine: Bool {
        stderr.hasSuffix("\n") && stderr.filter { $0 == "\n" }.count == 1 && stderr.count > 1
    }

    static func lines(_ s: String) -> [String] {
        var parts = s.components(separatedBy: "\n")
        if parts.last == "" { parts.removeLast() }
        return parts
    }

    var description: String {
        let how = timedOut ? "TIMED OUT (killed)" : exitCode.map { "exit \($0)" } ?? "killed by signal \(terminatingSignal ?? -1)"
        return "\(how) after \(elapsed)\n--- stdout ---\n\(stdout)--- stderr ---\n\(stderr)--------------"
    }
}

/// Where a child's stdin comes from.
enum StandardInput: Sendable {
    case null
    case text(String)
    case path(String)
    /// Not open at all (`0<&-`).
    case closed
}

/// Where a child's stdout or stderr goes.
enum StandardOutput: Sendable {
    /// A file in the test directory, read into the result.
    case capture
    /// Not open at all (`>&-`).
    case closed
    /// The write end of a pipe whose read end is already closed: every write fails with EPIPE.
    case brokenPipe
}

/// A running child process. Killed (SIGKILL) and reaped on deinit if still running, so a test
/// that fails half-way never leaves a `wake +1h` behind.
final class ChildProcess {
    let pid: pid_t
    let executable: String
    let arguments: [String]
    let directory: TestDirectory
    private let stdoutPath: String
    private let stderrPath: String
    private let started = ContinuousClock.now
    private(set) var result: ProcessResult?
    private var rawStatus: Int32?

    /// Starts `executable` with `arguments`; `environment` is added to (and overrides) this
    /// process's environment, and `unset` names variables to remove. With `newSession` the child
    /// starts a session of its own (POSIX_SPAWN_SETSID), so it has no controlling terminal.
    init(_ executable: String, _ arguments: [String], environment: [String: String] = [:], unset: [String] = [],
         stdin: StandardInput = .null, stdout: StandardOutput = .capture, stderr: StandardOutput = .capture,
         newSession: Bool = false, directory: TestDirectory? = nil) throws {
        self.executable = executable
        self.arguments = arguments
        let dir = try directory ?? TestDirectory()
        self.directory = dir
        let tag = UUID().uuidString.prefix(8)
        stdoutPath = dir.file("stdout-\(tag)")
        stderrPath = dir.file("stderr-\(tag)")
        let stdinPath: String?
        switch stdin {
        case .null: stdinPath = "/dev/null"
        case .path(let p): stdinPath = p
        case .text(let t): stdinPath = try dir.write("stdin-\(tag)", Array(t.utf8))
        case .closed: stdinPath = nil
        }

        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "WAKE_TEST_FAULTS")
        // A 24-hour clock unless the test gives a locale: a developer's en_US must not change what the tests read.
        env.removeValue(forKey: "LC_ALL")
        env["LC_TIME"] = "C.UTF-8"
        // And in English, whatever the developer's LANGUAGE: a test that wants a language gives it.
        env.removeValue(forKey: "LANGUAGE")
        env["LC_MESSAGES"] = "C.UTF-8"
        for k in unset { env.removeValue(forKey: k) }
        for (k, v) in environment { env[k] = v }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEnds: [Int32] = []
        defer { parentEnds.forEach { close($0) } }

        if let stdinPath {
            posix_spawn_file_actions_addopen(&actions, 0, stdinPath, O_RDONLY, 0)
        } else {
            posix_spawn_file_actions_addclose(&actions, 0)
        }
        func setUp(_ fd: Int32, _ how: StandardOutput, path: String) throws {
            switch how {
            case .capture:
                posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            case .closed:
                posix_spawn_file_actions_addclose(&actions, fd)
            case .brokenPipe:
                var p: [Int32] = [-1, -1]
                guard pipe(&p) == 0 else { throw WakeTestError("pipe: errno \(errno)") }
                _ = fcntl(p[1], F_SETFD, FD_CLOEXEC)
                close(p[0])  // nobody will ever read
                parentEnds.append(p[1])
                posix_spawn_file_actions_adddup2(&actions, p[1], fd)
            }
        }
        try setUp(1, stdout, path: stdoutPath)
        try setUp(2, stderr, path: stderrPath)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        let setsid: Int32 = 0x80  // POSIX_SPAWN_SETSID (glibc 2.26+)
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | (newSession ? setsid : 0)))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        let rc = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        guard rc == 0 else { throw WakeTestError("posix_spawn \(executable): \(String(cString: strerror(rc)))") }
        pid = child
    }

    deinit {
        if rawStatus == nil {
            kill(pid, SIGKILL)
            var st: Int32 = 0
            waitpid(pid, &st, 0)
        }
    }

    /// Reaps the child if it has exited; true once it has.
    @discardableResult
    func poll() -> Bool {
        if rawStatus != nil { return true }
        var st: Int32 = 0
        let r = waitpid(pid, &st, WNOHANG)
        if r == pid { finish(status: st, timedOut: false); return true }
        return false
    }

    var hasExited: Bool { poll() }

    func send(_ signal: Int32) {
        if !poll() { kill(pid, signal) }
    }

    /// Waits for the child to exit; after `timeout` it is killed and the result says so.
    @discardableResult
    func wait(timeout: Duration = .seconds(20)) async -> ProcessResult {
        let deadline = ContinuousClock.now + timeout
        while !poll() {
            if ContinuousClock.now >= deadline {
                kill(pid, SIGKILL)
                var st: Int32 = 0
                waitpid(pid, &st, 0)
                finish(status: st, timedOut: true)
                break
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return result!
    }

    /// What the child has written to stdout and stderr so far.
    var currentStdout: String { ChildProcess.read(stdoutPath) }
    var currentStderr: String { ChildProcess.read(stderrPath) }

    private func finish(status st: Int32, timedOut: Bool) {
        rawStatus = st
        let termSig = st & 0x7F
        result = ProcessResult(
            exitCode: termSig == 0 ? (st >> 8) & 0xFF : nil,
            terminatingSignal: termSig == 0 ? nil : termSig,
            timedOut: timedOut,
            stdout: ChildProcess.read(stdoutPath),
            stderr: ChildProcess.read(stderrPath),
            elapsed: ContinuousClock.now - started)
    }

    static func read(_ path: String) -> String {
        guard let d = FileManager.default.contents(atPath: path) else { return "" }
        return String(decoding: d, as: UTF8.self)
    }
}

/// `wake` itself, with its event log.
class WakeProcess {
    let child: ChildProcess
    let directory: TestDirectory
    /// The `--events` file, when the process was started with `events: true`.
    let eventsPath: String?

    /// Starts wake with `arguments`; with `events: true`, `--events <temp file>` is appended.
    init(_ arguments: [String], environment: [String: String] = [:], unset: [String] = [],
         stdin: StandardInput = .null, stdout: StandardOutput = .capture, stderr: StandardOutput = .capture,
         newSession: Bool = false, events: Bool = true, directory: TestDirectory? = nil) throws {
        let dir = try directory ?? TestDirectory()
        self.directory = dir
        var args = arguments
        if events {
            let p = dir.file("events-\(UUID().uuidString.prefix(8)).jsonl")
            args += ["--events", p]
            eventsPath = p
        } else {
            eventsPath = nil
        }
        child = try ChildProcess(WakeBinary.path, args, environment: environment, unset: unset, stdin: stdin,
                                 stdout: stdout, stderr: stderr, newSession: newSession, directory: dir)
    }

    var pid: pid_t { child.pid }
    var hasExited: Bool { child.hasExited }
    func send(_ signal: Int32) { child.send(signal) }
    @discardableResult
    func wait(timeout: Duration = .seconds(20)) async -> ProcessResult { await child.wait(timeout: timeout) }

    var events: [WakeEvent] { eventsPath.map(WakeEvent.read) ?? [] }
    /// How many events called `name` are in the log.
    func count(_ name: String) -> Int { events.filter { $0.name == name }.count }

    /// Waits until the `occurrence`-th event called `name` is in the log. Fails early, with
    /// everything wake said, if wake exits first.
    @discardableResult
    func waitForEvent(_ name: String, occurrence: Int = 1, timeout: Duration = .seconds(15)) async throws -> WakeEvent {
        guard eventsPath != nil else { throw WakeTestError("wake was started without --events") }
        let deadline = ContinuousClock.now + timeout
        while true {
            let matching = events.filter { $0.name == name }
            if matching.count >= occurrence { return matching[occurrence - 1] }
            if child.hasExited {
                // One last look: the event may have been written just before exit.
                let late = events.filter { $0.name == name }
                if late.count >= occurrence { return late[occurrence - 1] }
                throw WakeTestError("wake exited before event '\(name)' #\(occurrence): \(child.result!)\nevents:\n\(eventLogText)")
            }
            if ContinuousClock.now >= deadline {
                throw WakeTestError("no event '\(name)' #\(occurrence) within \(timeout)\nevents:\n\(eventLogText)\nstdout:\n\(child.currentStdout)\nstderr:\n\(child.currentStderr)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Waits until wake's stdout (or stderr, with `onStderr`) contains `text`.
    @discardableResult
    func waitForOutput(containing text: String, onStderr: Bool = false, timeout: Duration = .seconds(15)) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            let out = onStderr ? child.currentStderr : child.currentStdout
            if out.contains(text) { return out }
            if child.hasExited {
                throw WakeTestError("wake exited before printing '\(text)': \(child.result!)")
            }
            if ContinuousClock.now >= deadline {
                throw WakeTestError("'\(text)' not printed within \(timeout)\nstdout:\n\(child.currentStdout)\nstderr:\n\(child.currentStderr)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    var eventLogText: String { eventsPath.map(ChildProcess.read) ?? "" }

    /// Everything about the run, for failure messages.
    func report(_ r: ProcessResult) -> String {
        "wake \(child.arguments.joined(separator: " "))\n\(r)\nevents:\n\(eventLogText)"
    }

    /// Runs wake to completion.
    static func run(_ arguments: [String], environment: [String: String] = [:], unset: [String] = [],
                    stdin: StandardInput = .null, timeout: Duration = .seconds(20)) async throws -> ProcessResult {
        let p = try WakeProcess(arguments, environment: environment, unset: unset, stdin: stdin, events: false)
        return await p.wait(timeout: timeout)
    }
}

/// wake started in a new session: no controlling terminal, so the bell is impossible and a test
/// never rings the developer's terminal.
final class DetachedWake: WakeProcess {
    init(_ arguments: [String], environment: [String: String] = [:], unset: [String] = [],
         stdin: StandardInput = .null, stdout: StandardOutput = .capture, stderr: StandardOutput = .capture,
         events: Bool = true, directory: TestDirectory? = nil) throws {
        try super.init(arguments, environment: environment, unset: unset, stdin: stdin, stdout: stdout, stderr: stderr,
                       newSession: true, events: events, directory: directory ?? TestDirectory("wake-rel"))
    }
}

/// One line of the `--events` log.
struct WakeEvent: Sendable, CustomStringConvertible {
    var name: String
    /// Every field, as text (numbers and booleans as JSON writes them).
    var fields: [String: String]
    var line: String

    subscript(_ key: String) -> String? { fields[key] }
    var description: String { line }

    static func read(_ path: String) -> [WakeEvent] {
        let text = ChildProcess.read(path)
        return text.split(separator: "\n").compactMap { line in
            guard let obj = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let name = obj["event"] as? String else { return nil }
            var fields: [String: String] = [:]
            for (k, v) in obj { fields[k] = v as? String ?? "\(v)" }
            return WakeEvent(name: name, fields: fields, line: String(line))
        }
    }
}

/// Runs a helper tool (sox, python3) to completion; throws if it fails.
@discardableResult
func runTool(_ executable: String, _ arguments: [String], directory: TestDirectory? = nil,
             timeout: Duration = .seconds(30)) async throws -> ProcessResult {
    let p = try ChildProcess(executable, arguments, directory: directory)
    let r = await p.wait(timeout: timeout)
    guard r.exitCode == 0 else { throw WakeTestError("\(executable) \(arguments.joined(separator: " ")) failed: \(r)") }
    return r
}

// MARK: - A pseudo-terminal

/// What pty_driver.py reports (its docstring says what each field means).
struct PtyRun: Decodable, CustomStringConvertible {
    struct Snapshot: Decodable {
        var equals_before: Bool
        var cbreak: Bool
        var state: String?
    }
    var exit: Int?
    var signal: Int?
    var timed_out: Bool
    var restored: Bool
    var cbreak_during: Bool?
    var snapshots: [String: Snapshot]
    var bells: Int
    var sent: Int
    var output: String
    var error: String?
    /// The event log as text (filled in by `runOnPty`).
    var events: String?

    var description: String {
        let snaps = snapshots.sorted { $0.key < $1.key }
            .map { "\($0.key): equals_before \($0.value.equals_before) cbreak \($0.value.cbreak) state \($0.value.state ?? "-")" }
            .joined(separator: "; ")
        return "exit \(exit.map(String.init) ?? "-") signal \(signal.map(String.init) ?? "-") timed_out \(timed_out) restored \(restored) "
            + "cbreak_during \(cbreak_during.map(String.init) ?? "-") bells \(bells) error \(error ?? "-")\nsnapshots: \(snaps)\n"
            + "--- terminal ---\n\(output)\n--- events ---\n\(events ?? "")"
    }
}

/// The pseudo-terminal driver, next to this file in the source tree.
let ptyDriverPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("pty_driver.py").path

/// Runs wake (with `--events`) on a fresh pseudo-terminal through pty_driver.py and the
/// given steps; `environment` is added to wake's. The driver gives up after `timeout` seconds.
func runOnPty(_ arguments: [String], steps: [String], environment: [String: String] = [:],
              timeout: Double = 30) async throws -> (PtyRun, [WakeEvent]) {
    let dir = try TestDirectory("wake-pty")
    let events = dir.file("events.jsonl")
    let driver = ptyDriverPath
    let args = [driver, "--events", events, "--timeout", "\(timeout)"] + steps.flatMap { ["--step", $0] }
        + ["--", WakeBinary.path] + arguments + ["--events", events]
    let p = try ChildProcess("/usr/bin/python3", args, environment: environment, directory: dir)
    let r = await p.wait(timeout: .seconds(Int64(timeout) + 15))
    guard r.exitCode == 0, let line = r.stdoutLines.last else { throw WakeTestError("pty driver failed: \(r)") }
    var outcome = try JSONDecoder().decode(PtyRun.self, from: Data(line.utf8))
    outcome.events = ChildProcess.read(events)
    return (outcome, WakeEvent.read(events))
}

/// A lateness made without touching the clock: wake gets an absolute deadline `lead` seconds
/// ahead (UTC); once it has armed, it is stopped (SIGSTOP) and continued `late` seconds after
/// the deadline, as if the machine had slept through it. The lateness is measured from the
/// deadline, not from when this test got round to stopping wake, so a loaded machine that runs
/// the test slowly cannot shrink it; only a test starved past the whole lead is retried.
func lateWake(_ extra: [String], lead: Int = 10, late: Int = 3) async throws -> DetachedWake {
    for _ in 0..<3 {
        var deadline = time(nil) + lead
        var parts = tm()
        gmtime_r(&deadline, &parts)
        let when = String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
        let wake = try DetachedWake([when] + extra, environment: ["TZ": "UTC"])
        try await wake.waitForEvent("armed")
        kill(wake.pid, SIGSTOP)
        guard time(nil) < deadline else {
            kill(wake.pid, SIGKILL)
            kill(wake.pid, SIGCONT)
            continue
        }
        while time(nil) < deadline + late { try await Task.sleep(for: .milliseconds(100)) }
        kill(wake.pid, SIGCONT)
        return wake
    }
    throw WakeTestError("the machine was too busy to stop wake before its deadline, three times")
}
