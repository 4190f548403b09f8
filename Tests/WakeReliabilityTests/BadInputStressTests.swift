import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// R1. Bad input at the command line: each one the documented exit code, one clear line on
/// stderr (no raw control characters, starting `wake: `), nothing on stdout, and nothing left
/// behind (no event log created, no process still running: every run is waited for with a
/// time limit). A NUL cannot be passed in argv: the parser's handling of it is tested in
/// WakeCoreTests (WakeSpecTests, ParserPropertyTests).

/// The one-line-error contract shared by every case here.
func expectOneLineError(_ r: ProcessResult, status: Int32, _ context: String = "",
                        sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(!r.timedOut, "wake did not exit: \(context)\n\(r)", sourceLocation: sourceLocation)
    #expect(r.exitCode == status, "expected exit \(status): \(context)\n\(r)", sourceLocation: sourceLocation)
    #expect(r.stdout.isEmpty, "nothing belongs on stdout: \(context)\n\(r)", sourceLocation: sourceLocation)
    #expect(r.stderrIsOneLine, "expected exactly one stderr line: \(context)\n\(r)", sourceLocation: sourceLocation)
    #expect(r.stderr.hasPrefix("wake: "), "\(context)\n\(r)", sourceLocation: sourceLocation)
    #expect(r.stderrIsPrintable, "raw control characters on stderr: \(r.stderr.debugDescription)", sourceLocation: sourceLocation)
}

/// Runs wake with `--events` in a private directory and checks afterwards that the log was never created.
func runRefused(_ arguments: [String], environment: [String: String] = [:], timeout: Duration = .seconds(10),
                withEvents: Bool = true) async throws -> (ProcessResult, leftEventLog: Bool) {
    let wake = try WakeProcess(arguments, environment: environment, events: withEvents)
    let r = await wake.wait(timeout: timeout)
    let left = wake.eventsPath.map { FileManager.default.fileExists(atPath: $0) } ?? false
    return (r, left)
}

struct BadToken: Sendable, CustomTestStringConvertible {
    var text: String
    init(_ text: String) { self.text = text }
    var testDescription: String {
        let shown = text.count > 40 ? String(text.prefix(20)) + "…(\(text.utf8.count) bytes)" : text
        return shown.debugDescription
    }
}

@Suite("R1. Bad input at the command line")
struct BadInputStressTests {
    // MARK: times

    /// Every malformed form of the parser's tests (WakeSpecTests.invalid) that argv can carry
    /// (all but those holding NUL), plus very long strings, more non-ASCII digits and spaces.
    static let badTimes: [BadToken] = ([
        "25:00", "24:00", "99:00", "7:60", "07:60", "07:00:60", "07:00:99", "13pm", "0am", "00am", "0pm", "13:00am",
        "12:60pm",
        "abc", "", "am", "pm", " pm", "7", "07", "7:0", "7:000", "007:00", "7:", ":30", "7::00", "7:30:", "1:2:3",
        "1:02:03:04", "7.30", "7h", "7:30x", "7:30 am pm", "7:30  pm", "7:30 p.m.", "x7:00", "noonish", "nowish", "now!",
        "tomorrow",
        "+0m", "+0s", "+0h0m0s", "-5m", "-1h", "+5x", "+5", "+", "+h", "+m5", "+1m1h", "+1h1h", "+1s1m", "+1h 30m",
        "+ 5m", "+5 m", "+-5m", "++5m", "+5m+", "+1.5h", "+5ms5s",
        "+87841h", "+316224001s", "+9999999999h", "+99999999999999999999h", "+999999999999h", "+9223372036854775807s",
        "+9223372036854775808s", "+99999999999999999999999999999999999999999m", "+9999999999999999h",
        "+99999999999999m", "+1h99999999999999s",
        "2026-02-30T07:00", "2026-02-29T07:00", "2026-13-01T07:00", "2026-00-10T07:00", "2026-11-00T07:00",
        "2026-11-31T07:00", "2026-11-22", "2026-11-22T", "2026-11-22T25:00", "2026-11-22T24:00", "2026-11-22T07:60",
        "2026-11-22T07", "2026-11-22X07:00", "2026-11-22T07:00Z", "2026-11-22T07:00+01:00", "2026-1-22T07:00",
        "2026-11-2T07:00", "2026/11/22T07:00", "2026-11-22T7am", "2026-11-22T07:00pm", "2026-11-22  07:00",
        // Signs inside a date (Int("+1") reads them as numbers).
        "2027-+1-22T07:00", "2027-11-+2T07:00", "2027-11-+2 07:00", "2027-+1-+2T07:00",
        // A date and time in the past is a usage error too.
        "2000-01-01T07:00", "1970-01-01T00:00",
        // Very long.
        String(repeating: "1", count: 100), String(repeating: "7", count: 65), "07:00" + String(repeating: "0", count: 200),
        "+" + String(repeating: "9", count: 1000) + "h", String(repeating: "a", count: 10_000),
        String(repeating: "1", count: 100_000), "+" + String(repeating: "9", count: 100_000) + "h",
        String(repeating: "٧", count: 50_000), "07:00" + String(repeating: " ", count: 100_000),
        // Non-ASCII digits, letters and separators.
        "٧:٠٠", "٠٧:٠٠", "۷:۰۰", "७:००", "０７:００", "７am", "7:００", "7：00", "７ａｍ", "+８h", "+8ｈ", "2026-11-22T٠٧:٠٠",
        "7:00\u{00A0}pm", "7:00 ᴘᴍ", "🕖", "7:00\u{200B}", "๗:๐๐", "+٥m", "١٢pm", "⁷:⁰⁰", "⑦:00",
        // Control characters (NUL is impossible in argv).
        "7:00\n", "7:00\t", "7:00\r\n", "\u{7F}", "\u{1B}[2J07:00", "07:00\u{07}",
        "+1\u{1B}h", "+5\nm", "+1h\u{7F}", "+2\tm", "+1h30\u{1B}[2Jm",
        // Leading or trailing space.
        " 07:00", "07:00 ", " 07:00 ", " ", "  ", " now", "now ", " +5m", "+5m ", " 7am", "7am ", "\t07:00", "07:00\t",
        "\u{00A0}07:00", "07:00\u{3000}",
    ] as [String]).map(BadToken.init)

    @Test("a malformed WHEN: 64, one printable stderr line quoting it, nothing left behind", arguments: badTimes)
    func badWhen(token: BadToken) async throws {
        let (r, left) = try await runRefused([token.text, "--dry-run", "-D", "null"])
        expectOneLineError(r, status: 64, token.testDescription)
        #expect(r.stderr.hasPrefix("wake: invalid time '") || r.stderr.hasPrefix("wake: time '"), "\(r)")
        #expect(!left, "an event log was created for a refused alarm")
    }

    @Test("the same bad WHENs without --dry-run: refused before anything is armed", arguments: [
        "25:00", "+0m", "-5m", "٧:٠٠", " 07:00", "2000-01-01T07:00",
    ])
    func badWhenArming(token: String) async throws {
        let (r, left) = try await runRefused([token, "-D", "null"])
        expectOneLineError(r, status: 64, token)
        #expect(!left, "an event log was created for a refused alarm")
    }

    /// Instants are Int64 nanoseconds (1677 to 2262): a date-time outside must be refused, not trap.
    @Test("a date-time beyond the clock's range: 64 and one line, no crash", arguments: [
        "2262-04-12T00:00", "2300-01-01T07:00", "9999-12-31T23:59:59", "0000-01-01T07:00", "1600-01-01T07:00",
    ])
    func dateOutOfRange(token: String) async throws {
        let (r, left) = try await runRefused([token, "--dry-run", "-D", "null"])
        #expect(r.terminatingSignal == nil, "wake crashed (signal \(r.terminatingSignal ?? 0)): \(r.stderr.prefix(300))")
        expectOneLineError(r, status: 64, token)
        #expect(!left)
    }

    // MARK: options

    static let badOptions: [[String]] = [
        ["--volume", "101"], ["--volume", "-1"], ["--volume", "abc"], ["--volume", ""], ["--volume", "1e2"],
        ["--volume", "50%"], ["--volume", "+50"], ["--volume", "٥٠"], ["--volume", "5 0"], ["--volume", "99999999999999999999999"],
        ["--volume=101"], ["--volume"],
        ["--fade-in", "5m", "--ring-for", "1m"], ["--fade-in", "61s", "--ring-for", "1m"], ["--fade-in", "-1s"],
        ["--fade-in", "abc"],
        ["--snooze", "0"], ["--snooze", "0s"], ["--snooze", "0ms"], ["--snooze", "0h0m"], ["--snooze", "-9m"], ["--snooze", "9x"],
        ["--late-limit", "-1m"], ["--late-limit", "abc"], ["--late-limit", "1m1m"], ["--late-limit", "99999999999999h"],
        ["--ring-for", "-5s"], ["--ring-for", "1y"], ["--ring-for", "1.5m"], ["--ring-for", "m"], ["--ring-for", ""],
        ["--inhibit", "maybe"], ["--inhibit", ""], ["--inhibit", "AUTO"],
        ["--sound", ""], ["--device", ""], ["-D", ""],
        ["--bogus"], ["-x"], ["--volume-"], ["--Volume", "5"], ["--dry-run=yes"], ["-"], ["extra-argument"],
        // Repeated options, in every spelling.
        ["--volume", "50", "--volume", "60"], ["--volume=50", "--volume", "50"], ["--snooze", "1m", "--snooze", "2m"],
        ["-s", "a.wav", "--sound", "b.wav"], ["--sound=a.wav", "-s", "a.wav"], ["-D", "null", "--device", "null"],
        ["--ring-for", "1m", "--ring-for=1m"], ["--late-limit", "1m", "--late-limit", "2m"],
        ["--fade-in", "1s", "--fade-in", "2s"], ["--inhibit", "off", "--inhibit", "off"],
    ]

    @Test("a bad option or value: 64 and one line", arguments: badOptions)
    func badOption(extra: [String]) async throws {
        // `-D null` is added only when the case does not name a device itself.
        let device = extra.contains { $0 == "-D" || $0.hasPrefix("--device") } ? [] : ["-D", "null"]
        let (r, left) = try await runRefused(["07:00", "--dry-run"] + device + extra)
        expectOneLineError(r, status: 64, extra.joined(separator: " "))
        #expect(!left, "an event log was created for a refused alarm")
    }

    @Test("--events given twice: 64 and one line, neither log created")
    func eventsTwice() async throws {
        let dir = try TestDirectory()
        let (a, b) = (dir.file("a.jsonl"), dir.file("b.jsonl"))
        let (r, _) = try await runRefused(["07:00", "--dry-run", "-D", "null", "--events", a, "--events", b], withEvents: false)
        expectOneLineError(r, status: 64)
        #expect(!FileManager.default.fileExists(atPath: a) && !FileManager.default.fileExists(atPath: b))
    }

    /// docs/guide.md: "Giving the same option twice is an error, not 'the last one wins'." Flags are
    /// options in its table too.
    // A repeated flag says the same thing twice; only repeated values are ambiguous (docs/guide.md).
    @Test("a repeated flag is harmless", arguments: [
        ["--dry-run", "--dry-run"], ["-q", "--quiet"], ["--quiet", "--quiet"],
    ])
    func repeatedFlag(extra: [String]) async throws {
        let r = try await WakeProcess.run(["07:00", "-D", "null"] + extra + (extra.contains("--dry-run") ? [] : ["--dry-run"]))
        #expect(r.exitCode == 0, "\(extra): \(r)")
        #expect(r.stdout.contains("wake time: "))
    }

    @Test("--fade-in as long as --ring-for, or with --ring-for 0, is fine")
    func fadeInLimits() async throws {
        for extra in [["--fade-in", "1m", "--ring-for", "1m"], ["--fade-in", "1h", "--ring-for", "0"]] {
            let r = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null"] + extra)
            #expect(r.exitCode == 0, "\(extra): \(r)")
        }
    }

    // MARK: sound files

    /// Arms `+1h` (no dry run): a correct wake refuses at once.
    func refuseSound(_ path: String, as user: (uid: Int, gid: Int)? = nil) async throws -> (ProcessResult, Bool) {
        if let user {
            let p = try ChildProcess("/usr/bin/setpriv", ["--reuid", "\(user.uid)", "--regid", "\(user.gid)", "--clear-groups",
                                                          WakeBinary.path, "+1h", "-D", "null", "--inhibit", "off", "--sound", path])
            return (await p.wait(timeout: .seconds(10)), false)
        }
        return try await runRefused(["+1h", "-D", "null", "--inhibit", "off", "--sound", path])
    }

    func expectSoundRefused(_ r: ProcessResult, _ leftLog: Bool, naming path: String, sourceLocation: SourceLocation = #_sourceLocation) {
        expectOneLineError(r, status: 66, path, sourceLocation: sourceLocation)
        #expect(r.stderr.contains(path.printable), "the message should name the file: \(r)", sourceLocation: sourceLocation)
        #expect(!leftLog, "an event log was created for a refused alarm", sourceLocation: sourceLocation)
    }

    @Test("missing, a directory, a dangling symlink, /dev/null, /dev/zero: 66")
    func notFiles() async throws {
        let dir = try TestDirectory()
        let dangling = dir.file("dangling.wav")
        #expect(symlink(dir.file("nowhere.wav"), dangling) == 0)
        for path in ["/nonexistent/dir/alarm.wav", dir.file("missing.wav"), dir.path, dir.path + "/", dangling, "/dev/null", "/dev/zero"] {
            let (r, left) = try await refuseSound(path)
            expectSoundRefused(r, left, naming: path)
        }
    }

    @Test("a FIFO, with and without a writer: 66 at once")
    func fifo() async throws {
        let dir = try TestDirectory()
        let path = dir.file("fifo.wav")
        #expect(mkfifo(path, 0o666) == 0)
        var (r, left) = try await refuseSound(path)
        expectSoundRefused(r, left, naming: path)
        // A writer holding it open, as `wake -s <(cat x.wav)` would have.
        let writer = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        defer { close(writer) }
        (r, left) = try await refuseSound(path)
        expectSoundRefused(r, left, naming: path)
    }

    @Test("unreadable (mode 000, as a user it does not belong to): 66")
    func unreadable() async throws {
        let dir = try TestDirectory()
        chmod(dir.path, 0o755)
        let good = try writeWAV(in: dir, name: "locked.wav", samples: distinctSamples(4410))
        chmod(good, 0o000)
        let (r, left) = try await refuseSound(good, as: getuid() == 0 ? (65534, 65534) : nil)
        expectSoundRefused(r, left, naming: good)
        #expect(r.stderr.contains("ermission denied"), "the reason should be the errno's: \(r)")
    }

    @Test("empty, header only, header claiming data it lacks, random bytes, truncated FLAC: 66")
    func corruptFiles() async throws {
        let dir = try TestDirectory()
        let good = try writeWAV(in: dir, name: "good.wav", samples: distinctSamples(44_100))
        let goodBytes = try #require(fileBytes(good))
        var cases: [String] = []
        cases.append(try dir.write("empty.wav", []))
        // A 44-byte WAV header whose data chunk is empty.
        cases.append(try writeWAV(in: dir, name: "nodata.wav", samples: []))
        // The header of a 1 s file with none of its data.
        cases.append(try dir.write("header-only.wav", Array(goodBytes.prefix(44))))
        // The header and half a sample.
        cases.append(try dir.write("half-sample.wav", Array(goodBytes.prefix(45))))
        // Random bytes, and random bytes after a RIFF/WAVE header.
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        let random = (0..<65_536).map { _ -> UInt8 in
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
        cases.append(try dir.write("random.wav", random))
        cases.append(try dir.write("random-after-riff.wav", Array("RIFF".utf8) + [0xFF, 0xFF, 0, 0] + Array("WAVE".utf8) + random))
        cases.append(try dir.write("text.wav", Array("this is not a sound\n".utf8)))
        // FLAC cut short: inside the stream info, and half-way through the frames.
        let flac = dir.file("good.flac")
        try await runTool(soxPath, ["-q", "-n", "-r", "44100", "-b", "16", "-c", "1", flac, "synth", "20", "whitenoise", "vol", "0.5"], directory: dir)
        let flacBytes = try #require(fileBytes(flac))
        cases.append(try dir.write("stub.flac", Array(flacBytes.prefix(30))))
        cases.append(try dir.write("half.flac", Array(flacBytes.prefix(flacBytes.count / 2))))
        // Names that need escaping in the one line.
        cases.append(try dir.write("new\nline.wav", []))
        cases.append(try dir.write("esc\u{1B}[2J.wav", random))
        for path in cases {
            let (r, left) = try await refuseSound(path)
            expectSoundRefused(r, left, naming: path)
        }
    }

    @Test("the sound file deleted after arming: still rings, from the descriptor held open")
    func deletedAfterArming() async throws {
        let dir = try TestDirectory()
        let sound = try writeWAV(in: dir, name: "alarm.wav", samples: distinctSamples(22_050))
        let wake = try DetachedWake(["+2s", "-s", sound, "-D", "null", "--ring-for", "1s", "--inhibit", "off"], directory: dir)
        try await wake.waitForEvent("armed")
        #expect(unlink(sound) == 0)
        try await wake.waitForEvent("ringing", timeout: .seconds(15))
        let r = await wake.wait()
        #expect(r.exitCode == 4, "\(wake.report(r))")
        #expect(wake.count("fallback") == 0, "\(wake.report(r))")
        let stopped = wake.events.first { $0.name == "sound_stopped" }
        #expect((stopped?["frames"]).flatMap { Int($0) }.map { $0 > 22_050 } == true, "\(wake.report(r))")
        #expect(r.stderr.isEmpty, "\(wake.report(r))")
    }

    @Test("the sound file replaced (renamed over) after arming: rings the original")
    func replacedAfterArming() async throws {
        let dir = try TestDirectory()
        let original = distinctSamples(4410)
        let sound = try writeWAV(in: dir, name: "alarm.wav", samples: original)
        let garbage = try dir.write("garbage.wav", Array(repeating: 0x41, count: 1000))
        let capture = dir.file("capture.raw")
        let wake = try DetachedWake(["+2s", "-s", sound, "-D", "file:'\(capture)',raw", "--ring-for", "1s", "--inhibit", "off"], directory: dir)
        try await wake.waitForEvent("armed")
        #expect(rename(garbage, sound) == 0)
        let r = await wake.wait()
        #expect(r.exitCode == 4, "\(wake.report(r))")
        let got = try readRaw(capture, channels: 1, rate: 44_100)
        try #require(got.samples.count >= original.count, "capture too short: \(got.samples.count)")
        #expect(Array(got.samples.prefix(original.count)) == original, "the capture is not the original sound")
    }

    @Test("the sound file truncated in place after arming: never silent about it, each line said once")
    func truncatedInPlace() async throws {
        let dir = try TestDirectory()
        let sound = try writeWAV(in: dir, name: "alarm.wav", samples: distinctSamples(44_100))
        let wake = try DetachedWake(["+4s", "-s", sound, "-D", "null", "--ring-for", "2s", "--inhibit", "off"], directory: dir)
        try await wake.waitForEvent("armed")
        #expect(truncate(sound, 0) == 0)
        let beforeRinging = wake.count("device") == 0
        let r = await wake.wait()
        // Either it rang on (exit 4) or it said why it could not (exit 1, no terminal for the bell).
        #expect(r.exitCode == 4 || (r.exitCode == 1 && r.stderr.contains("could not make any sound")), "\(wake.report(r))")
        if r.exitCode == 1 && beforeRinging {
            // The file yields nothing from the first read: one line for the fallback, one for the end.
            #expect(r.stderrLines.count == 2, "\(wake.report(r))")
            #expect(wake.count("fallback") == 1 && wake.count("sound_stopped") <= 1, "\(wake.report(r))")
        }
    }

    // MARK: devices

    static let badDevices: [BadToken] = ([
        "nosuchdevice", "file:'", "plug:{", "plug:'", "hw:99", "hw:99,0", "plughw:abc", "plughw:99", "{", "}", "null:",
        "null:{", "file", "file:", "'", "\"", "a\u{01}b", "null\n", "de fault", "default:CARD=Nope",
        String(repeating: "x", count: 10_000), "file:'/tmp/x',raw,raw,raw", "hw:-1", "plug:hw:99",
    ] as [String]).map(BadToken.init)

    @Test("an unknown or malformed device: 69 at arm time, one line pointing at --list-devices", arguments: badDevices)
    func badDevice(device: BadToken) async throws {
        let (r, left) = try await runRefused(["+1h", "-D", device.text, "--inhibit", "off"])
        expectOneLineError(r, status: 69, device.testDescription)
        #expect(r.stderr.contains("wake --list-devices"), "\(r)")
        #expect(!left, "an event log was created for a refused alarm")
    }

    /// ALSA's file plugin opens its output lazily, so arm time may not see the missing directory.
    /// Either it is refused then (69), or at ring time it falls back, says why, and with no
    /// terminal for the bell ends with exit 1 and a line saying no sound could be made.
    @Test("file: PCM into a missing directory: 69 at arm time, or a loud fallback at ring time")
    func fileIntoMissingDirectory() async throws {
        let device = "file:'/nonexistent/dir/x.raw',raw"
        let wake = try DetachedWake(["+1s", "-D", device, "--ring-for", "5s", "--inhibit", "off"])
        let r = await wake.wait(timeout: .seconds(30))
        let report = wake.report(r)
        #expect(!r.timedOut, "\(report)")
        if r.exitCode == 69 {
            #expect(r.stderrIsOneLine && r.stderr.contains("/nonexistent/dir/x.raw"), "\(report)")
            #expect(wake.events.isEmpty, "\(report)")
        } else {
            #expect(r.exitCode == 1, "\(report)")
            #expect(wake.count("fallback") >= 1, "\(report)")
            #expect(r.stderr.contains("could not make any sound"), "\(report)")
            #expect(r.stderr.contains("failed ("), "each fallback step should say why: \(report)")
        }
    }

    // MARK: environment

    @Test("an invalid TZ: one warning line, then the alarm works (exit 4)", arguments: [
        "Nowhere/Bogus", ":/nonexistent", "garbage,,,", "../../../../etc/passwd", "/etc/passwd", "Europe/", "UTC+99:99:99",
        String(repeating: "A", count: 5000), "Bad\u{1B}[2J/Zone\nX",
    ])
    func invalidTZ(tz: String) async throws {
        let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "1s", "--inhibit", "off"], environment: ["TZ": tz])
        let r = await wake.wait()
        #expect(r.exitCode == 4, "\(wake.report(r))")
        #expect(r.stderrIsOneLine, "\(wake.report(r))")
        #expect(r.stderr.hasPrefix("wake: warning: "), "\(wake.report(r))")
        #expect(r.stderr.contains("TZ"), "\(wake.report(r))")
        #expect(r.stderrIsPrintable, "\(r.stderr.debugDescription)")
        #expect(wake.count("ringing") == 1, "\(wake.report(r))")
    }

    @Test("no HOME: rings and exits 4, nothing on stderr")
    func noHome() async throws {
        let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "1s", "--inhibit", "off"], unset: ["HOME"])
        let r = await wake.wait()
        #expect(r.exitCode == 4, "\(wake.report(r))")
        #expect(r.stderr.isEmpty, "\(wake.report(r))")
    }

    @Test("an almost empty environment (no HOME, PATH, TZ, LANG): rings and exits 4")
    func bareEnvironment() async throws {
        // Sanitizer settings stay: under `make asan` they keep LeakSanitizer's noise out of the exit code.
        let keep: Set = ["WAKE_BINARY", "ASAN_OPTIONS", "LSAN_OPTIONS", "UBSAN_OPTIONS"]
        let strip = ProcessInfo.processInfo.environment.keys.filter { !keep.contains($0) }
        let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "1s", "--inhibit", "off"], unset: Array(strip))
        let r = await wake.wait()
        #expect(r.exitCode == 4, "\(wake.report(r))")
        #expect(r.stderr.isEmpty, "\(wake.report(r))")
    }

    /// With a descriptor closed, the next open takes its number: wake must not then write its
    /// messages into its own sound, device or log.
    @Test("stdin, stdout or stderr closed: the alarm still rings and exits 4", arguments: [
        ("stdin", StandardInput.closed, StandardOutput.capture, StandardOutput.capture),
        ("stdout", StandardInput.null, StandardOutput.closed, StandardOutput.capture),
        ("stderr", StandardInput.null, StandardOutput.capture, StandardOutput.closed),
        ("all three", StandardInput.closed, StandardOutput.closed, StandardOutput.closed),
    ])
    func closedDescriptors(label: String, stdin: StandardInput, stdout: StandardOutput, stderr: StandardOutput) async throws {
        // Default --inhibit auto: with no system bus here that prints a warning on stderr.
        let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "1s"], stdin: stdin, stdout: stdout, stderr: stderr)
        let r = await wake.wait()
        #expect(r.exitCode == 4, "\(label) closed: \(wake.report(r))")
        #expect(wake.count("ringing") == 1, "\(label) closed: \(wake.report(r))")
        #expect(wake.count("fallback") == 0, "\(label) closed: \(wake.report(r))")
        #expect(wake.events.last?.name == "timed_out", "\(label) closed: \(wake.report(r))")
    }

    @Test("stdout closed with a sound file and --quiet: rings and exits 4")
    func closedStdoutQuiet() async throws {
        let dir = try TestDirectory()
        let sound = try writeWAV(in: dir, name: "alarm.wav", samples: distinctSamples(4410))
        let wake = try DetachedWake(["now", "-s", sound, "-D", "null", "--ring-for", "1s", "-q"], stdout: .closed, directory: dir)
        let r = await wake.wait()
        #expect(r.exitCode == 4, "\(wake.report(r))")
    }

    @Test("stdout a broken pipe (`wake ... | head -c0`): rings, exits 4, not killed by SIGPIPE", arguments: [false, true])
    func brokenPipe(stderrToo: Bool) async throws {
        let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "1s"], stdout: .brokenPipe,
                                    stderr: stderrToo ? .brokenPipe : .capture)
        let r = await wake.wait()
        #expect(r.terminatingSignal == nil, "killed by signal \(r.terminatingSignal ?? 0): \(wake.report(r))")
        #expect(r.exitCode == 4, "\(wake.report(r))")
        #expect(wake.count("ringing") == 1, "\(wake.report(r))")
    }

    @Test("no terminal at all (new session, stdin /dev/null): rings and exits 4")
    func noTerminal() async throws {
        let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "1s", "--inhibit", "off"])
        let r = await wake.wait()
        #expect(r.exitCode == 4, "\(wake.report(r))")
        #expect(!r.stdout.contains("q cancels"), "no key hint without a terminal: \(r)")
        #expect(!r.stdout.contains("\u{1B}"), "no terminal control codes on a file: \(r)")
    }
}
