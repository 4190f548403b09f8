import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 12: hardening, end to end. Each test runs the built binary as a user would and states
/// what that user would see go wrong. `--inhibit off` keeps the "no system bus" warning out of
/// stderr where a test reads it, except where the inhibitor is the point. The command line's own
/// refusals and dry runs run in process (Tests/WakeCommandLineTests/DryRunCommandTests.swift).

/// Starts wake through python3, which first runs `prelude` (set a signal disposition, a
/// resource limit) and then execs wake with `arguments`: what `nohup` or `ulimit -n` would do.
func wakeThroughPython(_ prelude: String, _ arguments: [String], environment: [String: String] = [:],
                       directory: TestDirectory? = nil) throws -> ChildProcess {
    let script = "import os, sys, signal, resource\n\(prelude)\nos.execv(sys.argv[1], sys.argv[1:])\n"
    return try ChildProcess("/usr/bin/python3", ["-c", script, WakeBinary.path] + arguments, environment: environment,
                            newSession: true, directory: directory)
}

/// Waits until the event log at `path` has an event called `name`; fails early if `process` exits.
func waitForLoggedEvent(_ name: String, in path: String, of process: ChildProcess, timeout: Duration = .seconds(15)) async throws {
    let deadline = ContinuousClock.now + timeout
    while !WakeEvent.read(path).contains(where: { $0.name == name }) {
        if process.hasExited { throw WakeTestError("wake exited before event '\(name)': \(process.result!)\nevents:\n\(ChildProcess.read(path))") }
        if ContinuousClock.now >= deadline { throw WakeTestError("no event '\(name)' within \(timeout)\nevents:\n\(ChildProcess.read(path))") }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// What a signal is called: its SIG name, and glibc's description (strsignal).
func signalSpellings(_ signal: Int32, _ name: String) -> [String] {
    var out = ["SIG" + name]
    if name == "IO" { out.append("SIGPOLL") }
    if let d = strsignal(signal) { out.append(String(cString: d)) }
    return out
}

@Suite("Hardening: end to end")
struct HardeningEndToEndTests {
    // MARK: late limit

    func lateRun(lateLimit: String) async throws -> WakeProcess {
        try await lateWake(["-D", "null", "--ring-for", "1s", "--late-limit", lateLimit, "--inhibit", "off"])
    }

    @Test("--late-limit 0 means no limit: an alarm 3 s late still rings (exit 4), it is not 'missed' (3)")
    func lateLimitZeroIsNoLimit() async throws {
        let wake = try await lateRun(lateLimit: "0")
        let r = await wake.wait()
        #expect(r.exitCode == 4, "with --late-limit 0 (no limit) a late alarm must ring, not be skipped: \(wake.report(r))")
        #expect(wake.count("ringing") == 1 && wake.count("missed") == 0, "\(wake.report(r))")
    }

    @Test("the control: --late-limit 1s and 3 s late: missed (exit 3)")
    func lateLimitOneSecondMisses() async throws {
        let wake = try await lateRun(lateLimit: "1s")
        let r = await wake.wait()
        #expect(r.exitCode == 3, "\(wake.report(r))")
        #expect(wake.count("missed") == 1 && wake.count("ringing") == 0, "\(wake.report(r))")
    }

    // MARK: nohup

    @Test("started with SIGHUP ignored (nohup): a SIGHUP does not cancel the wait; SIGTERM then does (143)")
    func nohupIgnoresHangup() async throws {
        let dir = try TestDirectory()
        let events = dir.file("events.jsonl")
        let wake = try wakeThroughPython("signal.signal(signal.SIGHUP, signal.SIG_IGN)",
                                         ["+1h", "-D", "null", "--inhibit", "off", "--events", events], directory: dir)
        try await waitForLoggedEvent("armed", in: events, of: wake)
        kill(wake.pid, SIGHUP)
        try await Task.sleep(for: .milliseconds(1500))
        #expect(!wake.hasExited, "nohup wake 07:00 was cancelled by a hangup it was told to ignore: \(wake.result.map { "\($0)" } ?? "")")
        #expect(!WakeEvent.read(events).contains { $0.name == "cancelled" }, "events:\n\(ChildProcess.read(events))")
        wake.send(SIGTERM)
        let r = await wake.wait(timeout: .seconds(10))
        #expect(r.exitCode == 143, "SIGTERM while waiting: 143: \(r)\nevents:\n\(ChildProcess.read(events))")
    }

    // MARK: silent sounds

    static let silentSounds: [(String, [Int16])] = [
        ("one frame", [20_000]),
        ("all zero", [Int16](repeating: 0, count: 44_100)),
        ("constant level (DC)", [Int16](repeating: 12_000, count: 44_100)),
    ]

    @Test("a sound that makes no audible sound is refused at arm time (66, 'silent')", arguments: silentSounds.map(\.0))
    func silentSound(kind: String) async throws {
        let dir = try TestDirectory()
        let samples = Self.silentSounds.first { $0.0 == kind }!.1
        let path = try writeWAV(in: dir, name: "silent.wav", samples: samples)
        let r = try await WakeProcess.run(["+1h", "-D", "null", "-s", path, "--inhibit", "off"], timeout: .seconds(10))
        #expect(!r.timedOut && r.exitCode == 66, "a \(kind) sound file would ring silence at 07:00 and was accepted: \(r)")
        #expect(r.stderr.contains("silent"), "stderr should say the sound is silent: \(r)")
        #expect(r.stderr.contains(path), "stderr should name the file: \(r)")
    }

    // MARK: the sound file changed during the wait

    @Test("the sound file rewritten in place or truncated during the wait: it still rings, never exit 1",
          arguments: ["replaced", "truncated"])
    func soundFileChangedDuringWait(change: String) async throws {
        let dir = try TestDirectory()
        let alarm = try await makeSound(in: dir, name: "alarm.wav", rate: 44_100, channels: 1, seconds: "1")
        let other = try await makeSound(in: dir, name: "other.wav", rate: 48_000, channels: 2, seconds: "0.5")
        let wake = try DetachedWake(["+2s", "-s", alarm, "-D", "null", "--ring-for", "3s", "--inhibit", "off"], directory: dir)
        try await wake.waitForEvent("armed")
        // What `cp other.wav alarm.wav` and `: > alarm.wav` do: the same inode, new content.
        let bytes = change == "replaced" ? [UInt8](FileManager.default.contents(atPath: other)!) : []
        let fd = open(alarm, O_WRONLY | O_TRUNC)
        #expect(fd >= 0)
        if !bytes.isEmpty { _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
        close(fd)
        let r = await wake.wait(timeout: .seconds(30))
        let report = wake.report(r)
        #expect(r.exitCode == 4, "the alarm's sound file was \(change) during the wait and wake did not ring on (exit 4 expected): \(report)")
        #expect(wake.count("ringing") == 1, "\(report)")
        for f in wake.events where f.name == "fallback" {
            #expect(f["to"]?.lowercased().contains("built-in") == true,
                    "when the user's file cannot be decoded, wake falls back to its built-in sound, not to \(f["to"] ?? "?"): \(report)")
        }
    }

    // MARK: few descriptors

    @Test("ulimit -n 12: rings paced in real time, or refuses at arm time with a reason; never an unpaced flood",
          arguments: ["null", "file"])
    func fewDescriptors(device: String) async throws {
        let dir = try TestDirectory()
        let capture = dir.file("capture.raw")
        let pcm = device == "null" ? "null" : "file:'\(capture)',raw"
        let wake = try wakeThroughPython("resource.setrlimit(resource.RLIMIT_NOFILE, (12, 12))",
                                         ["now", "-D", pcm, "--ring-for", "2s", "--inhibit", "off"], directory: dir)
        let r = await wake.wait(timeout: .seconds(20))
        #expect(!r.timedOut, "\(r)")
        if r.exitCode == 4 {
            #expect(r.elapsed >= .milliseconds(1500), "--ring-for 2s with 12 descriptors rang for only \(r.elapsed): not paced")
        } else {
            #expect([66, 69, 71, 73, 77].contains(r.exitCode ?? -1),
                    "with 12 descriptors wake should ring or refuse at arm time with a documented code: \(r)")
            #expect(!r.stderr.isEmpty, "a refusal says why on stderr: \(r)")
            #expect(!r.stdout.contains("RINGING"), "a refusal comes before ringing: \(r)")
        }
        if device == "file" {
            var st = stat()
            let size = stat(capture, &st) == 0 ? Int(st.st_size) : 0
            // The built-in sound: S16 mono 44.1 kHz, 88,200 bytes a second.
            #expect(size <= 3 * 88_200, "\(size) bytes reached the device in a 2 s ring: an unpaced flood: \(r)")
        }
    }

    // MARK: FIFOs

    /// A run that must finish by itself within 5 s and mention the FIFO on stderr.
    func expectNoHang(_ r: ProcessResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!r.timedOut, "\(what): wake hung on a FIFO (killed after 5 s): \(r)", sourceLocation: sourceLocation)
        let said = r.stderr.lowercased()
        #expect(said.contains("fifo") || said.contains("not a regular file"),
                "\(what): stderr should say the path is a FIFO / not a regular file: \(r)", sourceLocation: sourceLocation)
    }

    @Test("FIFOs never hang a dry run", arguments: ["TZ=path", "TZDIR+TZ", "--events", "ALSA_CONFIG_PATH"])
    func fifosNeverHang(kind: String) async throws {
        let dir = try TestDirectory()
        let fifo = dir.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0)
        var args = ["07:00", "--dry-run", "-D", "null", "--inhibit", "off"]
        var env: [String: String] = [:]
        switch kind {
        case "TZ=path": env["TZ"] = fifo
        case "TZDIR+TZ": env["TZDIR"] = dir.path; env["TZ"] = "fifo"
        case "--events": args += ["--events", fifo]
        default: env["ALSA_CONFIG_PATH"] = fifo
        }
        let r = try await WakeProcess.run(args, environment: env, timeout: .seconds(5))
        expectNoHang(r, kind)
        if kind == "--events" { #expect(r.exitCode == 73, "an --events path that cannot be written: 73: \(r)") }
    }

    // MARK: a dry run is the real checks, and only checks

    @Test("--dry-run --inhibit require with no system bus: 69, as the real run")
    func dryRunInhibitRequire() async throws {
        let env = ["DBUS_SYSTEM_BUS_ADDRESS": "unix:path=/nonexistent"]
        let dry = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--inhibit", "require"], environment: env, timeout: .seconds(15))
        let real = try await WakeProcess.run(["+1h", "-D", "null", "--inhibit", "require"], environment: env, timeout: .seconds(15))
        #expect(real.exitCode == 69, "the real run refuses without logind: \(real)")
        #expect(dry.exitCode == 69, "a dry run said all is well where the real run would refuse (69): \(dry)")
    }

    @Test("--dry-run on a file: PCM leaves that file's bytes as they were")
    func dryRunChangesNothing() async throws {
        let dir = try TestDirectory()
        let original = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let path = try dir.write("existing.raw", original)
        let r = try await WakeProcess.run(["07:00", "--dry-run", "-D", "file:'\(path)',raw", "--inhibit", "off"], timeout: .seconds(15))
        #expect(r.exitCode == 0, "\(r)")
        let after = fileBytes(path)
        #expect(after == original, "a dry run changed \(path): \(original.count) bytes before, \(after?.count ?? -1) after")
    }

    // MARK: the event log

    @Test("--events /dev/full: refused at arm time (73)")
    func eventsDevFull() async throws {
        let r = try await WakeProcess.run(["+1h", "-D", "null", "--events", "/dev/full", "--inhibit", "off"], timeout: .seconds(10))
        #expect(!r.timedOut && r.exitCode == 73, "an event log that cannot be written must be refused before the wait: \(r)")
        #expect(!r.stderr.isEmpty, "\(r)")
    }

    @Test("--events -: every stdout line is JSON; the human lines go to stderr")
    func eventsOnStdout() async throws {
        let r = try await WakeProcess.run(["now", "-D", "null", "--ring-for", "1s", "--events", "-", "--inhibit", "off"], timeout: .seconds(15))
        #expect(r.exitCode == 4, "\(r)")
        var names: [String] = []
        for line in r.stdoutLines {
            let obj = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(obj != nil, "a line of stdout that is not JSON breaks `wake ... --events - | jq`: \(line.debugDescription)\n\(r)")
            if let n = obj?["event"] as? String { names.append(n) }
        }
        #expect(names.contains("ringing") && names.contains("timed_out"), "the events go to stdout: \(r)")
        #expect(r.stderr.contains("alarm set"), "the human lines go to stderr: \(r)")
    }

    // MARK: fatal signals

    static let fatalSignals: [(Int32, String)] = [
        (SIGQUIT, "QUIT"), (SIGUSR2, "USR2"), (SIGALRM, "ALRM"), (SIGPROF, "PROF"), (SIGVTALRM, "VTALRM"),
        (SIGIO, "IO"), (SIGPWR, "PWR"), (SIGXCPU, "XCPU"),
    ]

    @Test("a fatal signal while waiting on a terminal: terminal restored, status 128+n, a line naming the signal",
          arguments: fatalSignals.map(\.1))
    func fatalSignalRestoresTerminal(name: String) async throws {
        let number = Self.fatalSignals.first { $0.1 == name }!.0
        let (o, _) = try await runOnPty(["+1h", "-D", "null", "--inhibit", "off"], steps: ["wait:armed", "cbreak", "signal:\(name)"],
                                        timeout: 15)
        #expect(!o.timed_out, "\(o)")
        #expect(o.exit == 128 + Int(number) || o.signal == Int(number),
                "SIG\(name) should end wake with status \(128 + number) (or by the signal itself): \(o)")
        #expect(o.restored, "after SIG\(name) the terminal was left without echo / line editing: \(o)")
        #expect(signalSpellings(number, name).contains { o.output.contains($0) }, "a line should name SIG\(name): \(o)")
    }

    // MARK: the terminal

    @Test("no key hints when stdin is not a terminal")
    func noKeyHintsWithoutTerminal() async throws {
        let r = try await WakeProcess.run(["now", "-D", "null", "--ring-for", "1s", "--inhibit", "off"], stdin: .null, timeout: .seconds(15))
        #expect(r.exitCode == 4, "\(r)")
        for hint in ["Any key stops", "q cancels"] {
            #expect(!r.stdout.contains(hint) && !r.stderr.contains(hint), "'\(hint)' is printed though no key can be read: \(r)")
        }
    }

    static let hostile = "a\u{1B}[31m\u{7}\n\u{9B}b"

    /// stdout and stderr hold no ESC, BEL or C1 CSI, and as many lines as the same run with a plain name.
    func expectInert(_ r: ProcessResult, like plain: ProcessResult, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for (stream, text) in [("stdout", r.stdout), ("stderr", r.stderr)] {
            let bytes = Array(text.utf8)
            #expect(!bytes.contains(0x1B) && !bytes.contains(0x07), "\(what): a raw ESC or BEL reached \(stream): \(text.debugDescription)",
                    sourceLocation: sourceLocation)
            let c1 = zip(bytes, bytes.dropFirst()).contains { $0 == 0xC2 && $1 == 0x9B }
            #expect(!c1, "\(what): a raw U+009B (CSI) reached \(stream): \(text.debugDescription)", sourceLocation: sourceLocation)
        }
        #expect(r.stdoutLines.count == plain.stdoutLines.count && r.stderrLines.count == plain.stderrLines.count,
                "\(what): a newline in the name broke a message in two: \(r.stdout.debugDescription) \(r.stderr.debugDescription)\nplain run: \(plain)",
                sourceLocation: sourceLocation)
    }

    @Test("control characters in a sound file name, a device name or TZ never reach the terminal raw",
          arguments: ["sound", "device", "TZ"])
    func controlCharactersEscaped(kind: String) async throws {
        let dir = try TestDirectory()
        func run(_ name: String) async throws -> ProcessResult {
            var args = ["07:00", "--dry-run", "--inhibit", "off"]
            var env: [String: String] = [:]
            switch kind {
            case "sound":
                let src = try writeWAV(in: dir, name: "src-\(UUID().uuidString.prefix(6)).wav", samples: distinctSamples(4410))
                let path = dir.file(name + ".wav")
                _ = rename(src, path)
                args += ["-D", "null", "-s", path]
            case "device":
                args += ["-D", name]
            default:
                args += ["-D", "null"]
                env["TZ"] = name
            }
            return try await WakeProcess.run(args, environment: env, timeout: .seconds(10))
        }
        let plain = try await run("aXb")
        let r = try await run(Self.hostile)
        #expect(r.exitCode == plain.exitCode, "\(r)\nplain: \(plain)")
        expectInert(r, like: plain, kind)
    }

    // MARK: the command line

    @Test("the armed line names the day when the alarm is not today")
    func armedLineNamesTheDay() async throws {
        let wake = try DetachedWake(["+25h", "-D", "null", "--inhibit", "off"])
        let out = try await wake.waitForOutput(containing: "alarm set")
        wake.send(SIGTERM)
        let r = await wake.wait(timeout: .seconds(10))
        #expect(r.exitCode == 143, "\(r)")
        let line = ProcessResult.lines(out).first { $0.contains("alarm set") } ?? ""
        let days = ["tomorrow", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
                    "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        #expect(days.contains { line.contains($0) }, "'\(line)' does not say which day: a 07:00 tomorrow reads like 07:00 today")
    }
}

/// The late limit over a real two-hour lateness: the wall clock is stepped forward 3 h past an
/// alarm set 1 h ahead (and put back afterwards). Every process on the machine sees the step,
/// so this runs only as root with WAKE_CLOCK_STEP=1, as the R5 clock-step suite does.
@Suite("Hardening: --late-limit 0 over a real clock step", .serialized,
       .enabled(if: Stress.clockStepAllowed, "root and WAKE_CLOCK_STEP=1"))
struct HardeningLateLimitClockStepTests {
    @Test("--late-limit 0 and a deadline 2 h in the past: it rings, it is not 'missed' (exit 3)")
    func twoHoursLateRings() async throws {
        var t = time(nil) + 3600
        var parts = tm()
        gmtime_r(&t, &parts)
        let when = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday,
                          parts.tm_hour, parts.tm_min, parts.tm_sec)
        let wake = try DetachedWake([when, "-D", "null", "--late-limit", "0", "--ring-for", "1s", "--inhibit", "off"],
                                    environment: ["TZ": "UTC"])
        try await wake.waitForEvent("armed")
        var mono0 = timespec(), real0 = timespec()
        clock_gettime(CLOCK_MONOTONIC, &mono0)
        clock_gettime(CLOCK_REALTIME, &real0)
        defer {
            // Put the clock back where it would have been.
            var mono = timespec()
            clock_gettime(CLOCK_MONOTONIC, &mono)
            let elapsed = (Int64(mono.tv_sec) - Int64(mono0.tv_sec)) * 1_000_000_000 + Int64(mono.tv_nsec) - Int64(mono0.tv_nsec)
            let ns = Int64(real0.tv_sec) * 1_000_000_000 + Int64(real0.tv_nsec) + elapsed
            var to = timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000))
            clock_settime(CLOCK_REALTIME, &to)
        }
        var ahead = real0
        ahead.tv_sec += 3 * 3600
        #expect(clock_settime(CLOCK_REALTIME, &ahead) == 0, "clock_settime failed: errno \(errno)")
        let r = await wake.wait(timeout: .seconds(20))
        #expect(r.exitCode == 4, "with --late-limit 0 (no limit) an alarm 2 h late must ring: \(wake.report(r))")
        #expect(wake.count("ringing") == 1 && wake.count("missed") == 0, "\(wake.report(r))")
    }
}
