import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// `wake next --follow`: the status bar's feed that pushes (issue 41). Each line is valid JSON
/// in waybar's form; a line comes within a few seconds of `wake add`, `wake skip` and a ring,
/// and nothing comes, not even a wake-up, while nothing changes.
@Suite("wake next --follow")
struct NextFollowTests {
    /// A follower of `home`'s alarms, its stdout read line by line.
    final class Follower {
        let wake: DetachedWake

        init(_ home: AlarmHome, format: String = "waybar") throws {
            wake = try DetachedWake(["next", "--follow", "--format", format], environment: home.environment, events: false,
                                    directory: home.dir)
        }

        var lines: [String] { wake.child.currentStdout.split(separator: "\n").map(String.init) }

        /// The objects printed so far; fails on a line that is not a JSON object.
        func objects() throws -> [[String: Any]] {
            try lines.map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line)")
            }
        }

        /// Waits up to `limit` (generous: the machine is shared) for line number `count`.
        func waitForLine(_ count: Int, within limit: Duration = .seconds(5), _ what: String) async throws {
            let end = ContinuousClock.now + limit
            while lines.count < count {
                if wake.hasExited { throw WakeTestError("the follower exited: \(wake.child.result!)") }
                if ContinuousClock.now >= end {
                    throw WakeTestError("no line \(count) within \(limit) of \(what); lines:\n\(lines.joined(separator: "\n"))\nstderr:\n\(wake.child.currentStderr)")
                }
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// The voluntary context switches of `pid` (each sleep that ends is one).
    static func wakeUps(_ pid: pid_t) -> Int? {
        let status = ChildProcess.read("/proc/\(pid)/status")
        return status.split(separator: "\n").first { $0.hasPrefix("voluntary_ctxt_switches:") }
            .flatMap { Int($0.split(separator: "\t").last?.trimmingCharacters(in: .whitespaces) ?? "") }
    }

    @Test("none, then a line within seconds of wake add, wake skip and a one-off's ring and end; all valid JSON")
    func followsChanges() async throws {
        let home = try AlarmHome()
        let f = try Follower(home)
        defer { f.wake.send(SIGKILL) }
        try await f.waitForLine(1, "the start")
        var o = try f.objects()
        #expect(o[0]["class"] as? String == "none" && o[0]["text"] as? String == "", "\(o)")

        let add = try await home.run(["add", "06:30", "--days", "daily", "--name", "work", "-D", "null"])
        #expect(add.exitCode == 0, "\(add)")
        try await f.waitForLine(2, "wake add")
        o = try f.objects()
        #expect(o[1]["class"] as? String == "waiting" && (o[1]["tooltip"] as? String)?.contains("06:30") == true
                && (o[1]["tooltip"] as? String)?.contains("(work)") == true && (o[1]["text"] as? String)?.hasPrefix("⏰ ") == true, "\(o)")

        let skip = try await home.run(["skip", "work"])
        #expect(skip.exitCode == 0, "\(skip)")
        try await f.waitForLine(3, "wake skip")
        o = try f.objects()
        #expect((o[2]["tooltip"] as? String)?.contains("skipped") == true, "\(o)")

        // A one-off sooner than 'work': waiting, then ringing (seen through its socket's touch),
        // then 'work' again once it ends.
        let ring = try DetachedWake(["+3s", "-D", "null", "--ring-for", "2s", "--inhibit", "off", "--notify", "off"],
                                    environment: home.environment, directory: home.dir)
        defer { ring.send(SIGKILL) }
        try await f.waitForLine(4, "the one-off's start")
        try await ring.waitForEvent("ringing", timeout: .seconds(15))
        try await f.waitForLine(5, within: .seconds(5), "the one-off's ring")
        o = try f.objects()
        #expect(o[3]["class"] as? String == "waiting" && !((o[3]["tooltip"] as? String)?.contains("(work)") ?? true), "\(o)")
        #expect(o[4]["class"] as? String == "ringing" && o[4]["alt"] as? String == "ringing", "\(o)")
        _ = await ring.wait()
        try await f.waitForLine(6, "the one-off's end")
        o = try f.objects()
        #expect(o[5]["class"] as? String == "waiting" && (o[5]["tooltip"] as? String)?.contains("(work)") == true, "\(o)")
        // Each line differs from the one before it: nothing is printed twice.
        for (a, b) in zip(f.lines, f.lines.dropFirst()) { #expect(a != b) }

        f.wake.send(SIGTERM)
        let r = await f.wake.wait()
        #expect(r.exitCode == 0, "\(r)")
    }

    @Test("a standing alarm rung by the daemon: ringing, then waiting for its next day")
    func daemonRing() async throws {
        let home = try AlarmHome()
        _ = try await home.run(["add", AlarmHome.soon(5), "--name", "soon", "--days", "daily", "-D", "null", "--ring-for", "2s",
                                "--unattended", "stop"])
        let daemon = try home.daemon(["--notify", "off"])
        defer { daemon.send(SIGKILL) }
        let f = try Follower(home)
        defer { f.wake.send(SIGKILL) }
        try await f.waitForLine(1, "the start")
        try await daemon.waitForEvent("ringing", timeout: .seconds(30))
        let end = ContinuousClock.now + .seconds(5)
        while try !f.objects().contains(where: { $0["class"] as? String == "ringing" }) && ContinuousClock.now < end {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try f.objects().contains { $0["class"] as? String == "ringing" }, "\(f.lines)")
        try await daemon.waitForEvent("timed_out", timeout: .seconds(15))
        let back = ContinuousClock.now + .seconds(5)
        while try f.objects().last?["class"] as? String != "waiting" && ContinuousClock.now < back {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(try f.objects().last?["class"] as? String == "waiting", "\(f.lines)")
        f.wake.send(SIGTERM)
        #expect(await f.wake.wait().exitCode == 0)
    }

    @Test("idle, it makes no wake-ups: no context switch over two seconds with an alarm hours away")
    func noWakeUpsWhileIdle() async throws {
        let home = try AlarmHome()
        _ = try await home.run(["add", AlarmHome.soon(3 * 3600), "--days", "daily", "--name", "later", "-D", "null"])
        let f = try Follower(home, format: "plain")
        defer { f.wake.send(SIGKILL) }
        try await f.waitForLine(1, "the start")
        try await Task.sleep(for: .milliseconds(300))
        let before = try #require(Self.wakeUps(f.wake.pid))
        try await Task.sleep(for: .seconds(2))
        let after = try #require(Self.wakeUps(f.wake.pid))
        #expect(after == before, "woke \(after - before) times while nothing changed")
        #expect(f.lines.count == 1, "\(f.lines)")
        #expect(!f.lines[0].contains(" in "), "no wait phrase in a line that stays: \(f.lines)")
    }

    // --format's refusals run in process (Tests/WakeCommandLineTests/NextCommandTests.swift, formatRefused).
    @Test("a reader that goes away ends it quietly with 0")
    func endings() async throws {
        let home = try AlarmHome()
        let gone = try WakeProcess(["next", "--follow"], environment: home.environment, stdout: .brokenPipe, events: false)
        let r = await gone.wait(timeout: .seconds(10))
        #expect(r.exitCode == 0 && r.stderr.isEmpty, "\(r)")
    }
}
