import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// `--ring-for` and `--late-limit` under a second (issue 37 item 16): a ring of 1 ms could end
/// before a frame is heard and count as rung, so both are refused wherever they are given; 0
/// keeps its meaning (ring until stopped, no limit). The refusals and the dry run of 0 run in
/// process (Tests/WakeCommandLineTests/DurationCommandTests.swift).
@Suite("Durations under a second")
struct ShortDurationTests {
    @Test("a second is still taken")
    func accepted() async throws {
        let r = try await WakeProcess.run(["now", "-D", "null", "--ring-for", "1s", "--late-limit", "1s", "--inhibit", "off",
                                           "--notify", "off", "--unpaced"])
        #expect(r.exitCode == 4, "rang for its second: \(r)")
    }

    @Test("in config.toml: the daemon names the line, sets each aside and rings with the built-in values")
    func daemonSetsAside() async throws {
        let home = try AlarmHome()
        let events = home.dir.file("events.jsonl")
        let add = try await home.run(["add", AlarmHome.soon(6), "--name", "soon", "-D", "null", "--ring-for", "2s", "--unattended", "stop"])
        #expect(add.exitCode == 0, "\(add)")
        let config = home.dir.file("config") + "/wake/config.toml"
        try "ring-for = \"1ms\"\nlate-limit = \"500ms\"\n".write(toFile: config, atomically: false, encoding: .utf8)
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
