import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// `wake pause --until DATE [NAME...]` and `wake resume`: a holiday for the standing alarms (issue 26),
/// under the daemon. The commands alone run in process (Tests/WakeCommandLineTests/PauseCommandTests.swift).
@Suite("Pause and resume")
struct PauseEndToEndTests {
    /// The UTC date `days` from today, `YYYY-MM-DD`.
    static func date(in days: Int) -> String {
        var t = time(nil) + days * 86_400
        var parts = tm()
        gmtime_r(&t, &parts)
        return String(format: "%04d-%02d-%02d", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday)
    }

    @Test("the daemon honours a pause, at once and after a restart, and rings again after resume")
    func daemon() async throws {
        let home = try AlarmHome()
        // An hour ahead: however slowly a loaded machine starts the daemon, it is paused before it is due.
        _ = try await home.run(["add", AlarmHome.soon(3_600), "--days", "daily", "--name", "later", "-D", "null", "--ring-for", "1s"])
        let events = home.dir.file("events.jsonl")
        func daemon() throws -> DetachedWake {
            try DetachedWake(["daemon", "--inhibit", "off", "--notify", "off", "--events", events], environment: home.environment,
                             events: false, directory: home.dir)
        }
        func log() -> [WakeEvent] { WakeEvent.read(events) }
        func armedPastThePause(_ name: String) -> Bool {
            log().contains { $0.name == "armed" && $0["alarm"] == name && ($0["deadline"] ?? "").hasPrefix(Self.date(in: 3)) }
        }
        var d = try daemon()
        try await d.waitForOutput(containing: "wake daemon running")
        var r = try await home.run(["pause", "--until", Self.date(in: 3)])
        #expect(r.exitCode == 0, "\(r)")
        // Re-armed past the pause, at once.
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline && !armedPastThePause("later") {
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(armedPastThePause("later"), "\(log())")
        d.send(SIGTERM)
        _ = await d.wait()

        // Paused while no daemon runs, then due, then the daemon (re)started, late or not: quiet, and not missed.
        let due = time(nil) + 5
        _ = try await home.run(["add", AlarmHome.soon(5), "--days", "daily", "--name", "soon", "-D", "null", "--ring-for", "1s"])
        r = try await home.run(["pause", "--until", Self.date(in: 3), "soon"])
        #expect(r.exitCode == 0, "\(r)")
        d = try daemon()
        try await d.waitForOutput(containing: "wake daemon running")
        while time(nil) < due + 3 { try await Task.sleep(for: .milliseconds(250)) }
        #expect(!log().contains { $0.name == "ringing" || $0.name == "missed" }, "\(log())")
        let states = try await home.listJSON().compactMap { $0["state"] as? String }
        #expect(states.count == 2 && states.allSatisfy { $0.hasPrefix("paused until") }, "\(states)")
        // Resumed: the next occurrence (tomorrow's, for the one that passed) is armed.
        r = try await home.run(["resume"])
        #expect(r.exitCode == 0, "\(r)")
        let resumedBy = ContinuousClock.now + .seconds(30)
        func armedAfterResume() -> Bool {
            log().contains { $0.name == "armed" && $0["alarm"] == "soon" && !($0["deadline"] ?? "").hasPrefix(Self.date(in: 3)) }
        }
        while ContinuousClock.now < resumedBy && !armedAfterResume() { try await Task.sleep(for: .milliseconds(100)) }
        #expect(armedAfterResume(), "\(log())")
        d.send(SIGTERM)
        let end = await d.wait()
        #expect(end.exitCode == 0, "\(d.report(end))")
        #expect(!log().contains { $0.name == "ringing" || $0.name == "missed" }, "\(log())")
    }

    @Test("pause and skip never delete a one-off with a daemon running: resume and skip --undo bring it back (issue 37)")
    func oneOffKept() async throws {
        let home = try AlarmHome()
        let events = home.dir.file("events.jsonl")
        let d = try DetachedWake(["daemon", "--inhibit", "off", "--notify", "off", "--events", events], environment: home.environment,
                                 events: false, directory: home.dir)
        defer { d.send(SIGKILL) }
        try await d.waitForOutput(containing: "wake daemon running")
        func armed(_ name: String) -> Int { WakeEvent.read(events).filter { $0.name == "armed" && $0["alarm"] == name }.count }
        func waitUntil(_ what: String, _ done: () async throws -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(30)
            while ContinuousClock.now < deadline { if try await done() { return }; try await Task.sleep(for: .milliseconds(100)) }
            Issue.record("\(what) within 30 s: \(ChildProcess.read(events))\n\(d.child.currentStderr)")
        }
        func trip() async throws -> [String: Any]? { try await home.listJSON().first { $0["name"] as? String == "trip" } }

        var r = try await home.run(["add", AlarmHome.soon(3600), "--name", "trip", "-D", "null", "--ring-for", "1s"])
        #expect(r.exitCode == 0, "\(r)")
        try await waitUntil("armed") { armed("trip") == 1 }
        r = try await home.run(["pause", "--until", Self.date(in: 3)])
        #expect(r.exitCode == 0 && r.stdout.contains("is inside the pause: it stays listed and does not ring, unless 'wake resume' comes before it"),
                "\(r)")
        // The daemon used to delete it within a second.
        try await Task.sleep(for: .seconds(2))
        var entry = try #require(try await trip(), "deleted by the pause: \(ChildProcess.read(events))")
        #expect((entry["state"] as? String)?.hasPrefix("paused until") == true && entry["next"] is NSNull, "\(entry)")
        r = try await home.run(["resume"])
        #expect(r.exitCode == 0 && r.stdout.contains("'trip' resumed: lifted the pause until ") && r.stdout.contains("; it rings next at"),
                "\(r)")
        try await waitUntil("armed again after resume") { armed("trip") == 2 }

        r = try await home.run(["skip", "trip"])
        #expect(r.exitCode == 0 && r.stdout.contains("skipping 'trip'"), "\(r)")
        try await Task.sleep(for: .seconds(2))
        entry = try #require(try await trip(), "deleted by the skip: \(ChildProcess.read(events))")
        #expect(entry["skip_next"] as? Bool == true && (entry["state"] as? String)?.hasSuffix(" skipped") == true, "\(entry)")
        r = try await home.run(["skip", "trip", "--undo"])
        #expect(r.exitCode == 0 && r.stdout.contains("'trip' rings again"), "\(r)")
        try await waitUntil("armed again after skip --undo") { armed("trip") == 3 }

        // Its time passes inside the pause: quiet, shown as such, removed when the pause is over.
        // 15 s of lead: the add and the pause must both come before it on a loaded machine.
        let due = time(nil) + 15
        r = try await home.run(["add", AlarmHome.soon(15), "--name", "soon", "-D", "null", "--ring-for", "1s"])
        #expect(r.exitCode == 0, "\(r)")
        r = try await home.run(["pause", "--until", Self.date(in: 3), "soon"])
        #expect(r.exitCode == 0, "\(r)")
        while time(nil) < due + 3 { try await Task.sleep(for: .milliseconds(250)) }
        #expect(!WakeEvent.read(events).contains { $0.name == "ringing" || $0.name == "missed" }, "\(ChildProcess.read(events))")
        let passed = try #require(try await home.listJSON().first { $0["name"] as? String == "soon" })
        #expect((passed["state"] as? String)?.hasPrefix("skipped by the pause until ") == true, "\(passed)")
        let table = try await home.run(["list"])
        #expect(table.stdout.contains("skipped by the pause until"), "\(table)")
        r = try await home.run(["resume", "soon"])
        #expect(r.exitCode == 0 && r.stdout.contains("passed during the pause, so it does not ring; the daemon removes it"), "\(r)")
        try await waitUntil("removed after the pause") { try await home.listJSON().allSatisfy { $0["name"] as? String != "soon" } }
        #expect(ChildProcess.read(home.dir.file("config") + "/wake/history.toml").contains("[soon]\nskipped = "), "recorded as skipped")
        #expect(try await trip() != nil, "the other one-off is still there")
        d.send(SIGTERM)
        #expect(await d.wait().exitCode == 0)
    }
}
