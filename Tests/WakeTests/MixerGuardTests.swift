import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// Issue 16: an alarm on a muted or turned-down desktop is heard, and leaves the mixer as it
/// found it, a SIGKILL included. Against a private PulseAudio (WakeTestSupport/PulseAudioServer.swift):
/// `pactl` mutes and reads the sink, `parec` records what a listener hears on its monitor.
///
/// Bounds are wide (a loaded 2-core machine runs these): every wait has an absolute deadline
/// of several seconds, and nothing depends on a tight wall-clock race.

/// A sink's state as pactl reports it.
struct SinkState: Equatable, CustomStringConvertible {
    var muted: Bool
    /// Raw volumes per channel (65536 is 100 %).
    var volumes: [Int]
    var description: String { "\(muted ? "muted" : "unmuted") \(volumes.map { "\($0) (\($0 * 100 / 65536) %)" }.joined(separator: ", "))" }
}

extension PulseAudioServer {
    func sink(_ name: String) async throws -> SinkState {
        let mute = try await pactl(["get-sink-mute", name])
        let volume = try await pactl(["get-sink-volume", name])
        guard mute.exitCode == 0, volume.exitCode == 0 else { throw WakeTestError("pactl on sink \(name) failed: \(mute) \(volume)") }
        // "Volume: front-left: 6553 /  10% / -60.00 dB,   front-right: 6553 /  10% / -60.00 dB"
        let firstLine = volume.stdout.split(separator: "\n").first.map(String.init) ?? ""
        let raw = firstLine.split(separator: ",").compactMap { part -> Int? in
            guard let colon = part.lastIndex(of: ":") else { return nil }
            return Int(part[part.index(after: colon)...].split(separator: "/").first?.trimmingCharacters(in: .whitespaces) ?? "")
        }
        return SinkState(muted: mute.stdout.contains("yes"), volumes: raw)
    }

    /// Mutes `name` and sets it to `percent`.
    func turnDown(_ name: String, percent: Int, mute: Bool = true) async throws {
        for args in [["set-sink-volume", name, "\(percent)%"], ["set-sink-mute", name, mute ? "1" : "0"]] {
            let r = try await pactl(args)
            guard r.exitCode == 0 else { throw WakeTestError("pactl \(args.joined(separator: " ")) failed: \(r)") }
        }
    }

    /// Polls the sink until `condition` holds, for at most `timeout`; the last state either way.
    func waitForSink(_ name: String, timeout: Duration = .seconds(10), _ condition: (SinkState) -> Bool) async throws -> SinkState {
        let deadline = ContinuousClock.now + timeout
        while true {
            let s = try await sink(name)
            if condition(s) || ContinuousClock.now >= deadline { return s }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Leaves a save file as a wake that died mid-ring on this server would: `mixer-PID.state`
    /// for a process that is gone (start time 1), with `entries` (the tab-separated fields after
    /// `entry`). Returns its path.
    @discardableResult
    func leaveMixerLevels(pid: Int32, entries: [String]) throws -> String {
        let dir = stateHome + "/wake"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(stateHome, 0o700)
        chmod(dir, 0o700)
        let boot = ((try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let text = "owner\t\(pid)\t1\t\(boot)\nserver\t\(address)\n" + entries.map { "entry\t" + $0 + "\n" }.joined()
        let path = dir + "/mixer-\(pid).state"
        guard FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw WakeTestError("cannot write \(path)")
        }
        return path
    }

    /// The `mixer-*.state` files wake left in this server's private state home.
    var mixerStateFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: stateHome + "/wake")) ?? []).filter { $0.hasPrefix("mixer-") && $0.hasSuffix(".state") }
    }
}

func loud(_ s: SinkState, floor: Int = 50) -> Bool { !s.muted && !s.volumes.isEmpty && s.volumes.allSatisfy { $0 * 100 >= floor * 65536 - 65536 / 200 } }

@Suite("Mixer guard: a muted desktop still wakes you", .serialized,
       .enabled(if: PulseAudioServer.isAvailable, "needs pulseaudio, pulseaudio-utils and libasound2-plugins (make deps-test)"))
struct MixerGuardTests {
    @Test("muted at 10 %: unmuted at 50 % while ringing and heard; muted at 10 % again, exactly, after the stop")
    func mutedIsRaisedAndRestored() async throws {
        try await PulseAudioServer.with { pa in
            try await pa.turnDown("speaker", percent: 10)
            let before = try await pa.sink("speaker")
            #expect(before.muted && before.volumes.count == 2, "the setup: \(before)")
            let recorder = try await pa.record()
            let wake = try DetachedWake(["now", "-D", "default", "--ring-for", "60s", "--inhibit", "off"], environment: pa.environment)
            try await wake.waitForEvent("ringing", timeout: .seconds(20))
            let raised = try await wake.waitForEvent("mixer_raised", timeout: .seconds(10))
            #expect(raised["from"] == "10" && raised["to"] == "50" && raised["muted"] == "1", "\(raised)")
            let during = try await pa.waitForSink("speaker") { loud($0) }
            #expect(loud(during), "while ringing the sink should be unmuted at 50 % or more: \(during)")
            #expect(await recorder.waitForSound(timeout: .seconds(10)), "the speaker's monitor should hold the alarm, not zeros")
            #expect(pa.mixerStateFiles.count == 1, "the old levels are saved while raised: \(pa.mixerStateFiles)")
            wake.send(SIGTERM)
            let r = await wake.wait(timeout: .seconds(15))
            #expect(r.exitCode == 0, "\(wake.report(r))")
            let after = try await pa.sink("speaker")
            #expect(after == before, "after the stop the sink should be exactly as it was (\(before)), not \(after)")
            #expect(wake.events.contains { $0.name == "mixer_restored" && $0["volume"] == "10" && $0["muted"] == "1" }, "\(wake.report(r))")
            #expect(pa.mixerStateFiles.isEmpty, "the save file goes once the levels are back: \(pa.mixerStateFiles)")
        }
    }

    @Test("SIGKILL mid-ring: the next wake command (any, a dry run) puts the sink back to muted at 10 %, once")
    func killedMidRing() async throws {
        try await PulseAudioServer.with { pa in
            try await pa.turnDown("speaker", percent: 10)
            let before = try await pa.sink("speaker")
            let wake = try DetachedWake(["now", "-D", "default", "--ring-for", "60s", "--inhibit", "off"], environment: pa.environment)
            try await wake.waitForEvent("mixer_raised", timeout: .seconds(20))
            wake.send(SIGKILL)
            _ = await wake.wait(timeout: .seconds(10))
            let stuck = try await pa.sink("speaker")
            #expect(loud(stuck), "killed wake left the sink raised (nothing could run): \(stuck)")
            #expect(pa.mixerStateFiles.count == 1, "\(pa.mixerStateFiles)")
            let next = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--inhibit", "off"], environment: pa.environment)
            #expect(next.exitCode == 0, "\(next)")
            #expect(next.stderr.contains("put back the mixer 'default'") && next.stderr.contains("pid \(wake.pid)"),
                    "the next start should say it put the mixer back: \(next)")
            let after = try await pa.sink("speaker")
            #expect(after == before, "after the next start the sink should be as before the ring (\(before)), not \(after)")
            #expect(pa.mixerStateFiles.isEmpty, "\(pa.mixerStateFiles)")
            let again = try await WakeProcess.run(["list"], environment: pa.environment)
            #expect(!again.stderr.contains("mixer"), "restored once only: \(again)")
        }
    }

    @Test("--mixer off: the sink is left muted, and the recording is silent (the user asked for it)")
    func mixerOff() async throws {
        try await PulseAudioServer.with { pa in
            try await pa.turnDown("speaker", percent: 10)
            let before = try await pa.sink("speaker")
            let dry = try await WakeProcess.run(["07:00", "--dry-run", "-D", "default", "--mixer", "off", "--inhibit", "off"], environment: pa.environment)
            #expect(dry.stdout.contains("mixer: Master 10 %, muted: left alone: --mixer off"), "\(dry)")
            let recorder = try await pa.record()
            let wake = try DetachedWake(["now", "-D", "default", "--mixer", "off", "--ring-for", "4s", "--inhibit", "off"], environment: pa.environment)
            try await wake.waitForEvent("ringing", timeout: .seconds(20))
            let mark = recorder.mark()
            let r = await wake.wait(timeout: .seconds(30))
            #expect(r.exitCode == 4, "\(wake.report(r))")
            #expect(try await pa.sink("speaker") == before)
            #expect(!wake.events.contains { $0.name.hasPrefix("mixer_") }, "\(wake.report(r))")
            #expect(recorder.audibleFrames(from: mark) == 0, "a muted sink records zeros")
            // Said loudly at ring time too (issue 37): the sink wake plays on is muted and stays so.
            #expect(r.stderr.contains("warning: the sink 'speaker' wake plays on is muted (sink 10 %) and --mixer off leaves it so: "
                                      + "the alarm may not be heard"), "\(wake.report(r))")
            #expect(wake.events.contains { $0.name == "problem" && $0["reason"]?.contains("--mixer off leaves it so") == true }, "\(wake.report(r))")
        }
    }

    @Test("the dry run says what it finds and changes nothing; the armed line says it too")
    func dryRunAndArmedLine() async throws {
        try await PulseAudioServer.with { pa in
            try await pa.turnDown("speaker", percent: 10)
            let before = try await pa.sink("speaker")
            let dry = try await WakeProcess.run(["07:00", "--dry-run", "-D", "default", "--inhibit", "off"], environment: pa.environment)
            #expect(dry.exitCode == 0, "\(dry)")
            #expect(dry.stdout.contains("mixer: output muted (Master 10 %): it will be unmuted and raised to 50 % while ringing"), "\(dry)")
            let sixty = try await WakeProcess.run(["07:00", "--dry-run", "-D", "default", "--min-volume", "60", "--inhibit", "off"], environment: pa.environment)
            #expect(sixty.stdout.contains("raised to 60 %"), "\(sixty)")
            #expect(try await pa.sink("speaker") == before, "a dry run changes nothing")
            #expect(pa.mixerStateFiles.isEmpty)
            let wake = try DetachedWake(["+1h", "-D", "default", "--inhibit", "off"], environment: pa.environment)
            try await wake.waitForEvent("armed")
            let out = try await wake.waitForOutput(containing: "mixer: output muted (Master 10 %)")
            #expect(out.contains("alarm set for"), "\(out)")
            wake.send(SIGTERM)
            _ = await wake.wait()
            #expect(try await pa.sink("speaker") == before)
        }
    }

    @Test("the default sink switched to another (muted) sink after the alarm was set: that one is raised, and put back")
    func switchedSink() async throws {
        try await PulseAudioServer.with { pa in
            let load = try await pa.pactl(["load-module", "module-null-sink", "sink_name=other"])
            #expect(load.exitCode == 0, "\(load)")
            try await pa.turnDown("other", percent: 20)
            let speaker = try await pa.sink("speaker")
            let otherBefore = try await pa.sink("other")
            // Armed 8 s ahead on the speaker; the default moves to `other` well before the deadline.
            let wake = try DetachedWake(["+8s", "-D", "default", "--ring-for", "60s", "--inhibit", "off"], environment: pa.environment)
            try await wake.waitForEvent("armed", timeout: .seconds(20))
            let switched = try await pa.pactl(["set-default-sink", "other"])
            #expect(switched.exitCode == 0, "\(switched)")
            try await wake.waitForEvent("mixer_raised", timeout: .seconds(30))
            let during = try await pa.waitForSink("other") { loud($0) }
            #expect(loud(during), "the sink that is the default at ring time is raised: \(during)")
            #expect(try await pa.sink("speaker") == speaker, "the old default is not touched")
            wake.send(SIGTERM)
            let r = await wake.wait(timeout: .seconds(15))
            #expect(r.exitCode == 0, "\(wake.report(r))")
            #expect(try await pa.sink("other") == otherBefore, "the raised sink is put back exactly")
        }
    }

    @Test("a volume the sleeper changed while it rang is theirs: kept, the rest put back")
    func userChangeKept() async throws {
        try await PulseAudioServer.with { pa in
            try await pa.turnDown("speaker", percent: 10)
            let wake = try DetachedWake(["now", "-D", "default", "--ring-for", "60s", "--inhibit", "off"], environment: pa.environment)
            try await wake.waitForEvent("mixer_raised", timeout: .seconds(20))
            _ = try await pa.pactl(["set-sink-volume", "speaker", "30%"])
            try await Task.sleep(for: .milliseconds(500))
            wake.send(SIGTERM)
            let r = await wake.wait(timeout: .seconds(15))
            #expect(r.exitCode == 0, "\(wake.report(r))")
            let after = try await pa.sink("speaker")
            #expect(after.muted, "the switch, still as wake set it, goes back to muted: \(after)")
            #expect(after.volumes.allSatisfy { ($0 * 100 + 32768) / 65536 == 30 }, "the 30 % the sleeper chose stays: \(after)")
        }
    }
}

/// Issue 37 (13): the crash-restore trusted the range a save file claims. A `pulse-sink:` entry
/// saying 0 to 6553600 set the sink to 6553600 (10,000 %, +120 dB), and the line said "100 %".
@Suite("Mixer guard: a hostile save file", .serialized,
       .enabled(if: PulseAudioServer.isAvailable, "needs pulseaudio, pulseaudio-utils and libasound2-plugins (make deps-test)"))
struct MixerSaveFileRangeTests {
    @Test("a sink or mixer entry claiming 0 to 6553600 is refused in one line each and sets nothing; one in range sets what its line says")
    func hostileRange() async throws {
        try await PulseAudioServer.with { pa in
            // As a dead wake left it: raised to 50 %, unmuted (what every entry below says it applied).
            try await pa.turnDown("speaker", percent: 50, mute: false)
            let before = try await pa.sink("speaker")
            let sinkFile = try pa.leaveMixerLevels(pid: 999_999, entries: ["pulse-sink:speaker\tsink\t0\t6553600\t6553600,6553600\t1\t32768,32768\t1"])
            try pa.leaveMixerLevels(pid: 999_998, entries: ["default\tMaster\t0\t6553600\t6553600,6553600\t1\t32768,32768\t1"])
            let r = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--inhibit", "off"], environment: pa.environment)
            #expect(r.exitCode == 0, "\(r)")
            #expect(r.stderrLines.count == 2, "one line for each file: \(r)")
            #expect(r.stderr.contains("'pulse-sink:speaker' claims the volume range 0 to 6553600; a sound server's is 0 to 65536 (100 %)")
                    && r.stderr.contains("moved aside"), "\(r)")
            #expect(r.stderr.contains("the mixer 'default' that wake (pid 999998) raised cannot be put back: its saved volume range 0 to 6553600 "
                                      + "is not the element's 0 to 65536"), "\(r)")
            #expect(!r.stderr.contains("put back the mixer"), "nothing is said to be put back: \(r)")
            let after = try await pa.sink("speaker")
            #expect(after == before, "the sink is as it was (\(before)), never +120 dB: \(after)")
            #expect(FileManager.default.fileExists(atPath: sinkFile + ".corrupt") && pa.mixerStateFiles.isEmpty, "\(pa.mixerStateFiles)")

            // In the server's range: put back, and the line says the level set.
            try pa.leaveMixerLevels(pid: 999_997, entries: ["pulse-sink:speaker\tsink\t0\t65536\t6553,6553\t0\t32768,32768\t1"])
            let fair = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--inhibit", "off"], environment: pa.environment)
            #expect(fair.stderr.contains("put back the mixer 'pulse-sink:speaker' that wake (pid 999997) raised before it died: sink 10 %, muted"),
                    "\(fair)")
            let restored = try await pa.sink("speaker")
            #expect(restored.muted && restored.volumes == [6553, 6553], "what the line says is what pactl shows: \(restored)")
        }
    }
}

/// Bad option values and a corrupt save file: no sound server needed.
@Suite("Mixer guard: options and the save file")
struct MixerGuardInputTests {
    @Test("bad values exit 64 with one line naming the value and what to do", arguments: [
        (["--min-volume", "0"], "'0'"), (["--min-volume", "101"], "'101'"), (["--min-volume", "ten"], "'ten'"),
        (["--min-volume", "-5"], "'-5'"), (["--mixer", "loud"], "'loud'"), (["--mixer", ""], "''"), (["--min-volume", "5%"], "'5%'"),
    ])
    func badValues(args: [String], named: String) async throws {
        let r = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--inhibit", "off"] + args)
        #expect(r.exitCode == 64, "\(r)")
        #expect(r.stderrIsOneLine, "\(r)")
        #expect(r.stderr.contains(named) && (r.stderr.contains("1 to 100") || r.stderr.contains("auto")), "\(r)")
    }

    @Test("wake add keeps --min-volume and --mixer")
    func stored() async throws {
        let dir = try TestDirectory()
        let env = ["XDG_CONFIG_HOME": dir.file("config"), "XDG_STATE_HOME": dir.file("state")]
        let r = try await WakeProcess.run(["add", "06:30", "-D", "null", "--min-volume", "70", "--mixer", "off", "--name", "m"], environment: env)
        #expect(r.exitCode == 0, "\(r)")
        let text = ChildProcess.read(dir.file("config/wake/alarms.toml"))
        #expect(text.contains("min-volume = \"70\"") && text.contains("mixer = \"off\""), "\(text)")
        let list = try await WakeProcess.run(["list"], environment: env)
        #expect(list.exitCode == 0, "\(list)")
    }

    @Test("a corrupt or foreign save file never traps a start: one line, moved aside; a live owner's file is left alone")
    func corruptSaveFile() async throws {
        let dir = try TestDirectory()
        let wakeDir = dir.file("state/wake")
        try FileManager.default.createDirectory(atPath: wakeDir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(dir.file("state"), 0o700)
        let corrupt = wakeDir + "/mixer-999999.state"
        _ = FileManager.default.createFile(atPath: corrupt, contents: Data("owner\tgarbage\n\u{1}\u{2}".utf8), attributes: [.posixPermissions: 0o600])
        // This test process is alive: its file must not be touched.
        let mine = wakeDir + "/mixer-\(getpid()).state"
        let start = (try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8)).flatMap { s -> String? in
            guard let close = s.lastIndex(of: ")") else { return nil }
            let f = s[s.index(after: close)...].split(separator: " ")
            return f.count > 19 ? String(f[19]) : nil
        } ?? "0"
        let boot = ((try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let live = "owner\t\(getpid())\t\(start)\t\(boot)\nserver\t\nentry\tdefault\tMaster\t0\t65536\t1\t0\t32768\t1\n"
        _ = FileManager.default.createFile(atPath: mine, contents: Data(live.utf8), attributes: [.posixPermissions: 0o600])
        let r = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--inhibit", "off"], environment: ["XDG_STATE_HOME": dir.file("state")])
        #expect(r.exitCode == 0, "\(r)")
        #expect(r.stderrLines.count == 1 && r.stderr.contains("mixer-999999.state") && r.stderr.contains("moved aside"), "\(r)")
        #expect(FileManager.default.fileExists(atPath: corrupt + ".corrupt"))
        #expect(!FileManager.default.fileExists(atPath: corrupt))
        #expect(FileManager.default.fileExists(atPath: mine), "a live owner's levels are its own to put back")
        let again = try await WakeProcess.run(["07:00", "--dry-run", "-D", "null", "--inhibit", "off"], environment: ["XDG_STATE_HOME": dir.file("state")])
        #expect(again.stderr.isEmpty, "reported once: \(again)")
    }
}
