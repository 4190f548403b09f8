import Foundation
import Glibc
import Testing

/// Helpers for the reliability suites (R1-R6). They sit beside Support/ and change none of it:
///
/// - `DetachedWake`: wake started in a new session (no controlling terminal, so the bell is
///   impossible and a test never rings the developer's terminal), with stdin/stdout/stderr
///   open on files, closed, or a pipe nobody reads.
/// - `PtyScript`: a richer pty driver than Support/pty_driver.py (stop states, termios
///   snapshots at any step, signal storms, BEL counting), written out at run time.
/// - Small WAV writers and /proc readers.

/// Long tests run only under `make stress` (WAKE_STRESS=1).
enum Stress {
    static let enabled = ProcessInfo.processInfo.environment["WAKE_STRESS"] != nil
    /// Tests that step the machine's real-time clock: root only, and only when asked for, since
    /// every process on the machine sees the step (WAKE_CLOCK_STEP=1).
    static let clockStepAllowed = getuid() == 0 && ProcessInfo.processInfo.environment["WAKE_CLOCK_STEP"] != nil
}

/// What a child's standard descriptor is.
enum Stdio: Sendable {
    /// A file in the test directory (stdin: /dev/null).
    case capture
    /// Not open at all (`0<&-`, `>&-`).
    case closed
    /// The write end of a pipe whose read end is already closed: every write fails with EPIPE.
    case brokenPipe
}

/// wake started with `posix_spawn` in a new session (POSIX_SPAWN_SETSID), every signal at its
/// default and none blocked. Killed and reaped on deinit if still running.
final class DetachedWake {
    let pid: pid_t
    let directory: TestDirectory
    let eventsPath: String?
    let arguments: [String]
    private let stdoutPath: String
    private let stderrPath: String
    private let started = ContinuousClock.now
    private(set) var result: ProcessResult?
    private var reaped = false

    init(_ arguments: [String], environment: [String: String] = [:], unset: [String] = [],
         stdin: Stdio = .capture, stdout: Stdio = .capture, stderr: Stdio = .capture,
         events: Bool = true, directory: TestDirectory? = nil, executable: String = WakeBinary.path) throws {
        let dir = try directory ?? TestDirectory("wake-rel")
        self.directory = dir
        let tag = UUID().uuidString.prefix(8)
        stdoutPath = dir.file("stdout-\(tag)")
        stderrPath = dir.file("stderr-\(tag)")
        var args = arguments
        if events {
            let p = dir.file("events-\(tag).jsonl")
            args += ["--events", p]
            eventsPath = p
        } else {
            eventsPath = nil
        }
        self.arguments = args

        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "WAKE_TEST_FAULTS")
        for k in unset { env.removeValue(forKey: k) }
        for (k, v) in environment { env[k] = v }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEnds: [Int32] = []
        defer { parentEnds.forEach { close($0) } }

        func setUp(_ fd: Int32, _ how: Stdio, path: String) throws {
            switch how {
            case .capture:
                if fd == 0 {
                    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
                } else {
                    posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                }
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
        try setUp(0, stdin, path: "")
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
        posix_spawnattr_setflags(&attributes, Int16(Int32(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF) | setsid))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + args).map { strdup($0) } + [nil]
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
        if !reaped {
            kill(pid, SIGKILL)
            var st: Int32 = 0
            waitpid(pid, &st, 0)
        }
    }

    @discardableResult
    func poll() -> Bool {
        if reaped { return true }
        var st: Int32 = 0
        if waitpid(pid, &st, WNOHANG) == pid { finish(st, timedOut: false); return true }
        return false
    }

    var hasExited: Bool { poll() }

    func send(_ signal: Int32) { if !poll() { kill(pid, signal) } }

    @discardableResult
    func wait(timeout: Duration = .seconds(20)) async -> ProcessResult {
        let deadline = ContinuousClock.now + timeout
        while !poll() {
            if ContinuousClock.now >= deadline {
                kill(pid, SIGKILL)
                var st: Int32 = 0
                waitpid(pid, &st, 0)
                finish(st, timedOut: true)
                break
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return result!
    }

    private func finish(_ st: Int32, timedOut: Bool) {
        reaped = true
        let sig = st & 0x7F
        result = ProcessResult(exitCode: sig == 0 ? (st >> 8) & 0xFF : nil, terminatingSignal: sig == 0 ? nil : sig,
                               timedOut: timedOut, stdout: ChildProcess.read(stdoutPath), stderr: ChildProcess.read(stderrPath),
                               elapsed: ContinuousClock.now - started)
    }

    var currentStderr: String { ChildProcess.read(stderrPath) }
    var currentStdout: String { ChildProcess.read(stdoutPath) }
    var events: [WakeEvent] { eventsPath.map(WakeEvent.read) ?? [] }
    var eventLogText: String { eventsPath.map(ChildProcess.read) ?? "" }
    func count(_ name: String) -> Int { events.filter { $0.name == name }.count }

    /// Waits for the `occurrence`-th event `name`; throws, with everything wake said, if wake
    /// exits first or the time runs out.
    @discardableResult
    func waitForEvent(_ name: String, occurrence: Int = 1, timeout: Duration = .seconds(15)) async throws -> WakeEvent {
        let deadline = ContinuousClock.now + timeout
        while true {
            let matching = events.filter { $0.name == name }
            if matching.count >= occurrence { return matching[occurrence - 1] }
            if hasExited {
                let late = events.filter { $0.name == name }
                if late.count >= occurrence { return late[occurrence - 1] }
                throw WakeTestError("wake exited before event '\(name)' #\(occurrence): \(result!)\nevents:\n\(eventLogText)")
            }
            if ContinuousClock.now >= deadline {
                throw WakeTestError("no event '\(name)' #\(occurrence) within \(timeout)\nevents:\n\(eventLogText)\nstderr:\n\(currentStderr)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Everything about the run, for failure messages.
    func report(_ r: ProcessResult) -> String { "wake \(arguments.joined(separator: " "))\n\(r)\nevents:\n\(eventLogText)" }
}

/// Fault rules for a debug build (see Sources/WakeSystem/FaultInjector.swift).
func faults(_ rules: String) -> [String: String] { ["WAKE_TEST_FAULTS": rules] }

// MARK: - A pty driver with stop states, termios snapshots and signal storms

/// The outcome of `PtyScript.run`.
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
    var snapshots: [String: Snapshot]
    var bells: Int
    var sent: Int
    var output: String
    var error: String?
    var events: String?

    var description: String {
        let snaps = snapshots.sorted { $0.key < $1.key }
            .map { "\($0.key): equals_before \($0.value.equals_before) cbreak \($0.value.cbreak) state \($0.value.state ?? "-")" }
            .joined(separator: "; ")
        return "exit \(exit.map(String.init) ?? "-") signal \(signal.map(String.init) ?? "-") timed_out \(timed_out) restored \(restored) bells \(bells) error \(error ?? "-")\nsnapshots: \(snaps)\n--- terminal ---\n\(output)\n--- events ---\n\(events ?? "")"
    }
}

enum PtyScript {
    /// Steps, in order:
    ///   wait:EVENT[:N]          until the N-th EVENT is in the log
    ///   key:HEX                 type these bytes (hex: `1a` is Ctrl-Z, `78` is x)
    ///   signal:NAME             send SIGNAME (TERM, CONT, USR1, PIPE, ...)
    ///   storm:NAME:COUNT:SECS   send COUNT signals spread over SECS seconds
    ///   state:S                 until /proc/PID/stat shows state S (T: stopped)
    ///   cbreak                  until the terminal is in cbreak mode (wake owns it)
    ///   snapshot:LABEL          record the termios settings (vs before) and process state
    ///   sleep:SECS              wait, reading the terminal
    static let source = #"""
import argparse, json, os, select, signal, sys, termios, time, fcntl

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", required=True)
    ap.add_argument("--timeout", type=float, default=30.0)
    ap.add_argument("--step", action="append", default=[])
    ap.add_argument("command", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.command[1:] if a.command and a.command[0] == "--" else a.command
    deadline = time.monotonic() + a.timeout
    master, slave = os.openpty()
    before = termios.tcgetattr(slave)
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()
            fcntl.ioctl(slave, termios.TIOCSCTTY, 0)
            for fd in (0, 1, 2):
                os.dup2(slave, fd)
            os.close(master)
            if slave > 2:
                os.close(slave)
            for s in range(1, signal.NSIG):
                try:
                    signal.signal(s, signal.SIG_DFL)
                except (OSError, ValueError, RuntimeError):
                    pass
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            os.execv(cmd[0], cmd)
        except BaseException as e:
            os.write(2, ("exec failed: %r\n" % (e,)).encode())
        finally:
            os._exit(127)
    output = bytearray()
    status = None
    error = None
    snapshots = {}
    sent = 0

    def drain(wait=0.0):
        r, _, _ = select.select([master], [], [], wait)
        if r:
            try:
                output.extend(os.read(master, 65536))
            except OSError:
                pass

    def reap():
        nonlocal status
        if status is None:
            p, st = os.waitpid(pid, os.WNOHANG)
            if p == pid:
                status = st
        return status is not None

    def proc_state():
        try:
            with open("/proc/%d/stat" % pid) as f:
                s = f.read()
            return s[s.rindex(")") + 2]
        except (OSError, ValueError, IndexError):
            return None

    def count_events(name):
        try:
            with open(a.events, "rb") as f:
                text = f.read().decode("utf-8", "replace")
        except FileNotFoundError:
            return 0
        n = 0
        for line in text.splitlines():
            try:
                if json.loads(line).get("event") == name:
                    n += 1
            except ValueError:
                pass
        return n

    def cbreak(t):
        return (t[3] & termios.ICANON) == 0 and (t[3] & termios.ECHO) == 0

    def until(cond, what):
        while not cond():
            if reap():
                raise RuntimeError("wake exited while waiting for " + what)
            if time.monotonic() > deadline:
                raise RuntimeError("timed out waiting for " + what)
            drain(0.01)

    try:
        for step in a.step:
            kind, _, arg = step.partition(":")
            if kind == "wait":
                name, _, nth = arg.partition(":")
                nth = int(nth or "1")
                until(lambda: count_events(name) >= nth, "event %s #%d" % (name, nth))
            elif kind == "key":
                os.write(master, bytes.fromhex(arg))
            elif kind == "signal":
                os.kill(pid, getattr(signal, "SIG" + arg))
                sent += 1
            elif kind == "storm":
                name, count, secs = arg.split(":")
                count = int(count)
                gap = float(secs) / count
                start = time.monotonic()
                for i in range(count):
                    os.kill(pid, getattr(signal, "SIG" + name))
                    sent += 1
                    pause = start + (i + 1) * gap - time.monotonic()
                    if pause > 0:
                        time.sleep(pause)
                    if i % 50 == 0:
                        drain(0.0)
            elif kind == "state":
                until(lambda: proc_state() == arg, "process state " + arg)
            elif kind == "cbreak":
                until(lambda: cbreak(termios.tcgetattr(slave)), "cbreak mode")
            elif kind == "snapshot":
                t = termios.tcgetattr(slave)
                snapshots[arg] = {"equals_before": t == before, "cbreak": cbreak(t), "state": proc_state()}
            elif kind == "sleep":
                end = time.monotonic() + float(arg)
                while time.monotonic() < end:
                    drain(0.01)
            else:
                raise RuntimeError("unknown step %r" % step)
        while not reap():
            if time.monotonic() > deadline:
                raise RuntimeError("timed out waiting for wake to exit")
            drain(0.02)
    except (RuntimeError, ProcessLookupError) as e:
        error = str(e)
    timed_out = False
    if status is None:
        timed_out = True
        os.kill(pid, signal.SIGKILL)
        os.kill(pid, signal.SIGCONT)
        _, status = os.waitpid(pid, 0)
    for _ in range(3):
        drain(0.0)
    after = termios.tcgetattr(slave)
    sys.stdout.write(json.dumps({
        "exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
        "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
        "timed_out": timed_out, "restored": before == after, "snapshots": snapshots,
        "bells": output.count(b"\x07"), "sent": sent,
        "output": output.decode("utf-8", "replace"), "error": error}) + "\n")

main()
"""#

    /// Runs wake (with `--events`) on a fresh pseudo-terminal through the steps.
    static func run(_ arguments: [String], steps: [String], environment: [String: String] = [:],
                    timeout: Double = 30) async throws -> (PtyRun, [WakeEvent]) {
        let dir = try TestDirectory("wake-pty")
        let script = try dir.write("pty_script.py", Array(source.utf8))
        let events = dir.file("events.jsonl")
        let args = [script, "--events", events, "--timeout", "\(timeout)"] + steps.flatMap { ["--step", $0] }
            + ["--", WakeBinary.path] + arguments + ["--events", events]
        let p = try ChildProcess("/usr/bin/python3", args, environment: environment, directory: dir)
        let r = await p.wait(timeout: .seconds(Int64(timeout) + 15))
        guard r.exitCode == 0, let line = r.stdoutLines.last else { throw WakeTestError("pty script failed: \(r)") }
        var outcome = try JSONDecoder().decode(PtyRun.self, from: Data(line.utf8))
        outcome.events = ChildProcess.read(events)
        return (outcome, WakeEvent.read(events))
    }
}

// MARK: - Sounds

/// A 16-bit PCM WAV file holding exactly `samples` (interleaved).
func writeWAV(in dir: TestDirectory, name: String, samples: [Int16], channels: Int = 1, rate: Int = 44_100) throws -> String {
    func le32(_ v: Int) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    func le16(_ v: Int) -> [UInt8] { (0..<2).map { UInt8((v >> (8 * $0)) & 0xFF) } }
    let data = samples.flatMap { le16(Int(UInt16(bitPattern: $0))) }
    let header = Array("RIFF".utf8) + le32(36 + data.count) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(channels)
        + le32(rate) + le32(rate * channels * 2) + le16(channels * 2) + le16(16) + Array("data".utf8) + le32(data.count)
    return try dir.write(name, header + data)
}

/// `frames` distinct, non-zero, non-repeating-looking mono samples (a seam slip always shows).
func distinctSamples(_ frames: Int) -> [Int16] {
    (0..<frames).map { Int16(truncatingIfNeeded: ($0 * 4099 + 1237) % 30_011 - 15_000) | 1 }
}

// MARK: - /proc

/// A `kB` field of /proc/PID/status (VmHWM, VmRSS), or nil once the process is gone.
func procStatusKB(_ pid: pid_t, _ field: String) -> Int? {
    guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
    for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    }
    return nil
}

/// Where each of a process's descriptors points (`/proc/PID/fd`), e.g. `anon_inode:[timerfd]`.
func openDescriptors(_ pid: String = "self") -> [Int32: String] {
    let dir = "/proc/\(pid)/fd"
    guard let names = try? FileManager.default.contentsOfDirectory(atPath: dir) else { return [:] }
    var out: [Int32: String] = [:]
    for n in names {
        guard let fd = Int32(n) else { continue }
        var buf = [CChar](repeating: 0, count: 4096)
        let len = readlink(dir + "/" + n, &buf, buf.count - 1)
        if len >= 0 { out[fd] = String(decoding: buf[0..<len].map { UInt8(bitPattern: $0) }, as: UTF8.self) }
    }
    return out
}

/// Raw bytes of a file, without copying it into a String.
func fileBytes(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { [UInt8]($0) } }

extension ProcessResult {
    /// stderr has no raw control characters except line ends: safe to show on a terminal.
    var stderrIsPrintable: Bool { !stderr.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F } }
}
