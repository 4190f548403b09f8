import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// `--snooze-limit` through the binary: a snooze past the limit is refused and said, and the
/// alarm keeps sounding until stopped or until `--ring-for` ends it; `wake snooze` from another
/// shell says so. `wake add`'s limit, `wake list`'s and config.toml's run in process
/// (Tests/WakeCommandLineTests/SnoozeLimitCommandTests.swift).
@Suite("Snooze limit end to end")
struct SnoozeLimitEndToEndTests {
    @Test("a one-off with --snooze-limit 1: the second SIGUSR1 does not snooze, the log says so, the sound goes on, --ring-for ends it")
    func secondSignalRefused() async throws {
        let dir = try TestDirectory("wake-snooze-limit")
        let capture = dir.file("capture.raw")
        // --ring-for long enough for a test starved on a loaded machine to send its signals first.
        let wake = try WakeProcess(["now", "-D", "file:'\(capture)',raw", "--snooze", "1s", "--snooze-limit", "1", "--ring-for", "20s"])
        try await wake.waitForEvent("ringing")
        wake.send(SIGUSR1)
        try await wake.waitForEvent("snoozed")
        try await wake.waitForEvent("ringing", occurrence: 2)
        wake.send(SIGUSR1)
        let refused = try await wake.waitForEvent("snooze_refused")
        #expect(refused["snoozes"] == "1" && refused["limit"] == "1", "\(refused)")
        #expect(refused["by"] == "signal" && refused["signal"] == "SIGUSR1", "\(refused)")
        // The sound goes on after the refusal: the file PCM is written in real time.
        let before = (try? FileManager.default.attributesOfItem(atPath: capture)[.size] as? Int) ?? 0
        try await Task.sleep(for: .milliseconds(1500))
        let after = (try? FileManager.default.attributesOfItem(atPath: capture)[.size] as? Int) ?? 0
        #expect(after > before + 44_100, "still sounding after the refused snooze: \(before) -> \(after) bytes")

        let r = await wake.wait(timeout: .seconds(60))
        #expect(r.exitCode == 4, "--ring-for still ends it, exit 4: \(wake.report(r))")
        let names = wake.events.map(\.name)
        #expect(names.filter { $0 == "snoozed" }.count == 1 && names.last == "timed_out", "\(wake.eventLogText)")
        #expect(r.stdout.contains("snoozed 1 of 1 until"), "\(r)")
        #expect(r.stdout.contains(", snoozed 1 of 1."), "the ring line shows the count: \(r)")
        #expect(r.stdout.contains("snooze limit reached (1 of 1): it rings until stopped ('wake stop')"), "\(r)")
    }

    @Test("keys: z snoozes once; the next z is refused with a line, and any other key stops it")
    func keysOnTerminal() async throws {
        let (o, events) = try await runOnPty(["now", "-D", "null", "--snooze", "1s", "--snooze-limit", "1"],
                                             steps: ["wait:ringing", "key:z", "wait:snoozed", "wait:ringing:2", "key:z",
                                                     "wait:snooze_refused", "key:x"])
        #expect(o.error == nil && o.exit == 0 && o.restored, "\(o)")
        #expect(events.filter { $0.name == "snoozed" }.count == 1, "\(o)")
        #expect(events.contains { $0.name == "snooze_refused" && $0["by"] == "key" && $0["key"] == "z" }, "\(o)")
        #expect(events.last?.name == "stopped", "\(o)")
        #expect(o.output.contains("snooze limit reached (1 of 1): stop it with any other key"), "\(o.output)")
        #expect(o.output.contains("Any key stops; no snoozes left."), "\(o.output)")
    }

    @Test("wake snooze from another shell, once the snoozes are used up: exit 1 with the reason; the alarm says it and rings on")
    func controlRefused() async throws {
        let world = try ControlWorld()
        let wake = try world.alarm(["now", "-D", "null", "--snooze", "1s", "--snooze-limit", "1", "--ring-for", "10m"])
        try await wake.waitForEvent("ringing")
        try await world.waitForSocket(wake.pid)
        var r = try await world.run(["snooze"])
        #expect(r.exitCode == 0 && r.stdout.contains("snoozed the"), "\(r)")
        try await wake.waitForEvent("ringing", occurrence: 2)

        for args in [["snooze"], ["snooze", "\(wake.pid)"]] {
            r = try await world.run(args)
            #expect(r.exitCode == 1 && r.stderrIsOneLine, "\(args): \(r)")
            #expect(r.stderr.contains("(pid \(wake.pid)): snooze limit reached (1 of 1); it rings until stopped: 'wake stop \(wake.pid)'"), "\(r)")
        }
        let refused = try await wake.waitForEvent("snooze_refused")
        #expect(refused["by"] == "control" && refused["client"]?.hasPrefix("wake snooze (pid ") == true, "\(refused)")
        #expect(try await world.entry(wake.pid)?["state"] as? String == "ringing")

        r = try await world.run(["stop"])
        #expect(r.exitCode == 0, "\(r)")
        let ended = await wake.wait(timeout: .seconds(60))
        #expect(ended.exitCode == 0, "\(wake.report(ended))")
    }
}
