import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// `--ring-for` and `--late-limit` under a second (issue 37 item 16): a ring of 1 ms could end
/// before a frame is heard and count as rung, so both are refused wherever they are given; 0
/// keeps its meaning (ring until stopped, no limit).
@Suite("Durations under a second")
struct ShortDurationTests {
    @Test("a one-off and wake add: 64, one line naming the value, nothing stored", arguments: [
        (["now", "--ring-for", "1ms"], "--ring-for 1ms is shorter than a second"),
        (["now", "--ring-for", "999ms"], "--ring-for 999ms is shorter than a second"),
        (["now", "--late-limit", "1ms"], "--late-limit 1ms is shorter than a second"),
        (["add", "06:30", "--ring-for", "500ms"], "--ring-for 500ms is shorter than a second"),
        (["add", "06:30", "--late-limit", "10ms"], "--late-limit 10ms is shorter than a second"),
    ])
    func refused(args: [String], says: String) async throws {
        let home = try AlarmHome()
        let r = try await home.run(args + ["-D", "null"])
        #expect(r.exitCode == 64 && r.stderrIsOneLine && r.stderr.contains(says) && r.stderr.contains("or 0"), "\(r)")
        #expect(r.stdout.isEmpty, "\(r)")
        #expect(!FileManager.default.fileExists(atPath: home.alarmsFile), "nothing stored")
    }

    @Test("a second, and 0, are still taken")
    func accepted() async throws {
        let r = try await WakeProcess.run(["now", "-D", "null", "--ring-for", "1s", "--late-limit", "1s", "--inhibit", "off",
                                           "--notify", "off", "--unpaced"])
        #expect(r.exitCode == 4, "rang for its second: \(r)")
        let zero = try await WakeProcess.run(["07:00", "-D", "null", "--ring-for", "0", "--late-limit", "0", "--dry-run", "--inhibit", "off"])
        #expect(zero.exitCode == 0 && zero.stdout.contains("ring for: until stopped") && zero.stdout.contains("late limit: none"), "\(zero)")
    }

    @Test("in config.toml: the daemon names the line, sets each aside and rings with the built-in values")
    func daemonSetsAside() async throws {
        let home = try AlarmHome()
        let events = home.dir.file("events.jsonl")
        let add = try await home.run(["add", AlarmHome.soon(6), "--name", "soon", "-D", "null", "--ring-for", "2s"])
        #expect(add.exitCode == 0, "\(add)")
        let config = home.dir.file("config") + "/wake/config.toml"
        try "ring-for = \"1ms\"\nlate-limit = \"500ms\"\n".write(toFile: config, atomically: false, encoding: .utf8)
        // A person is there for a one-off: refused at once, naming the file's line.
        let oneOff = try await home.run(["07:00", "-D", "null", "--dry-run"])
        #expect(oneOff.exitCode == 78 && oneOff.stderrIsOneLine && oneOff.stderr.contains("line 1, ring-for"), "\(oneOff)")
        let daemon = try DetachedWake(["daemon", "--inhibit", "off", "--notify", "off", "--events", events], environment: home.environment,
                                      events: false, directory: home.dir)
        defer { daemon.send(SIGKILL) }
        let said = try await daemon.waitForOutput(containing: "line 2, late-limit", onStderr: true)
        #expect(said.contains("--late-limit 500ms is shorter than a second") && said.contains("built-in value is used instead"), "\(said)")
        #expect(daemon.child.currentStderr.contains("line 1, ring-for: --ring-for 1ms is shorter than a second"), "\(daemon.child.currentStderr)")
        for _ in 0..<150 where !ChildProcess.read(events).contains("\"timed_out\"") { try await Task.sleep(for: .milliseconds(200)) }
        #expect(ChildProcess.read(events).contains("\"ringing\"") && ChildProcess.read(events).contains("\"timed_out\""),
                "it rang for its own 2s: \(ChildProcess.read(events))")
        daemon.send(SIGTERM)
        #expect(await daemon.wait().exitCode == 0)
    }
}
