import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// `wake next`: the soonest alarm to ring, standing or one-off, for a status bar (issue 26), with
/// running wakes. The standing alarms alone run in process (Tests/WakeCommandLineTests/NextCommandTests.swift).
@Suite("wake next")
struct NextTests {
    @Test("a running one-off that comes sooner than the standing alarms is the answer")
    func standingThenOneOff() async throws {
        let home = try AlarmHome()
        var r = try await home.run(["add", AlarmHome.soon(3 * 3600), "--days", "daily", "--name", "late", "-D", "null"])
        #expect(r.exitCode == 0, "\(r)")
        r = try await home.run(["add", AlarmHome.soon(2 * 3600), "--days", "daily", "--name", "early", "-D", "null", "--message", "Stand-up"])
        #expect(r.exitCode == 0, "\(r)")

        let wake = try DetachedWake(["+30m", "-D", "null", "--inhibit", "off", "--notify", "off", "--message", "Tea"],
                                    environment: home.environment, directory: home.dir)
        try await wake.waitForEvent("armed")
        r = try await home.run(["next"])
        #expect(r.stdoutLines.count == 1, "\(r)")
        // Up to 10 s between the armed event and this answer on a loaded machine, as in_s below.
        let endings = [", in 30m 0s: Tea\n"] + (50...59).map { ", in 29m \($0)s: Tea\n" }
        #expect(endings.contains { r.stdout.hasSuffix($0) }, "\(r)")
        #expect(!r.stdout.contains("("), "a one-off has no name: \(r)")
        let j = try await home.run(["next", "--json"])
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any], "\(j)")
        #expect(obj["kind"] as? String == "one-off" && obj["id"] as? String == String(wake.pid) && obj["message"] as? String == "Tea", "\(obj)")
        #expect((obj["in_s"] as? Int).map { (1790...1800).contains($0) } == true, "\(obj)")
        wake.send(SIGTERM)
        _ = await wake.wait()
    }

    @Test("while a one-off rings it is the answer, before any alarm ahead; snoozed, its snooze (issue 37)")
    func ringingOneOff() async throws {
        let home = try AlarmHome()
        _ = try await home.run(["add", AlarmHome.soon(2 * 3600), "--days", "daily", "--name", "work", "-D", "null"])
        let wake = try DetachedWake(["now", "-D", "null", "--ring-for", "0", "--inhibit", "off", "--notify", "off", "--message", "Tea"],
                                    environment: home.environment, directory: home.dir)
        defer { wake.send(SIGKILL) }
        try await wake.waitForEvent("ringing")
        var r = try await home.run(["next"])
        #expect(r.exitCode == 0 && r.stdoutLines.count == 1 && r.stdout.hasPrefix("ringing since ") && r.stdout.hasSuffix(": Tea\n"), "\(r)")
        #expect(!r.stdout.contains("(work)"), "\(r)")
        var j = try await home.run(["next", "--json"])
        var obj = try #require(try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any], "\(j)")
        #expect(obj["state"] as? String == "ringing" && obj["kind"] as? String == "one-off" && obj["id"] as? String == String(wake.pid), "\(obj)")
        #expect(obj["in_s"] as? Int == 0 && (obj["text"] as? String)?.hasPrefix("ringing since ") == true, "\(obj)")

        let snooze = try await home.run(["snooze"])
        #expect(snooze.exitCode == 0, "\(snooze)")
        r = try await home.run(["next"])
        // A snooze begun in the last 9 minutes before midnight ends tomorrow.
        #expect(r.exitCode == 0 && (r.stdout.contains(" today, snoozed, in ") || r.stdout.contains(" tomorrow, snoozed, in "))
                && r.stdout.hasSuffix(": Tea\n"), "\(r)")
        j = try await home.run(["next", "--json"])
        obj = try #require(try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any], "\(j)")
        #expect(obj["state"] as? String == "snoozed" && (obj["in_s"] as? Int).map { (400...540).contains($0) } == true, "\(obj)")
        wake.send(SIGTERM)
        _ = await wake.wait()
    }

    @Test("a standing alarm the daemon rings is shown ringing, with its name")
    func ringingStanding() async throws {
        let home = try AlarmHome()
        _ = try await home.run(["add", AlarmHome.soon(4), "--name", "work", "--days", "daily", "-D", "null", "--ring-for", "0"])
        let daemon = try home.daemon(["--notify", "off"])
        defer { daemon.send(SIGKILL) }
        let ringing = try await daemon.waitForEvent("ringing", timeout: .seconds(30))
        let r = try await home.run(["next"])
        #expect(r.exitCode == 0 && r.stdout.hasPrefix("ringing since ") && r.stdout.hasSuffix(" (work)\n"), "\(r)")
        let started = try #require(ringing["time"].map { String($0.dropFirst(11).prefix(8)) })  // HH:MM:SS of the event
        #expect(r.stdout.contains(started) || r.stdout.contains(String(started.prefix(5))), "since when it rings: \(r) \(ringing)")
        let j = try await home.run(["next", "--json"])
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any], "\(j)")
        #expect(obj["state"] as? String == "ringing" && obj["id"] as? String == "work" && obj["kind"] as? String == "standing", "\(obj)")
        daemon.send(SIGTERM)
        #expect(await daemon.wait().exitCode == 0)
    }
}
