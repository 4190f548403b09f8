import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// A running `wake` follows the machine's zone (issue 24): `/etc/localtime` is redirected to a
/// link in a test directory with `WAKE_TEST_LOCALTIME` (honoured by debug builds only), and the
/// link is replaced as timedatectl replaces the real one.
@Suite("Alarms follow the machine's time zone")
struct ZoneFollowTests {
    /// A localtime link of the test's own, pointing at `zone`.
    final class Localtime {
        let directory: TestDirectory
        var path: String { directory.file("localtime") }

        init(_ zone: String) throws {
            directory = try TestDirectory("wake-zone")
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/usr/share/zoneinfo/" + zone)
        }

        /// As systemd's timedated does: a new link, renamed over the old one.
        func replace(with zone: String) throws {
            let tmp = directory.file(".localtime.new")
            try FileManager.default.createSymbolicLink(atPath: tmp, withDestinationPath: "/usr/share/zoneinfo/" + zone)
            guard rename(tmp, path) == 0 else { throw WakeTestError("rename: errno \(errno)") }
        }

        /// As `ln -sf` does: unlinked, then linked again.
        func relink(to zone: String) throws {
            unlink(path)
            try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: "/usr/share/zoneinfo/" + zone)
        }

        var environment: [String: String] { ["WAKE_TEST_LOCALTIME": path] }
    }

    /// `HH:MM:SS` in UTC, `ahead` seconds from now.
    static func utcClock(ahead: Int) -> String {
        var t = time(nil) + ahead
        var parts = tm()
        gmtime_r(&t, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }

    /// `when` as the lines say it: its seconds only when it has any.
    static func shown(_ when: String) -> String { when.hasSuffix(":00") ? String(when.dropLast(3)) : when }

    @Test("wake HH:MM:SS set an hour and 8 s ahead in UTC rings 8 s later when the zone moves an hour east")
    func oneOffFollows() async throws {
        let zone = try Localtime("UTC")
        let when = Self.utcClock(ahead: 3600 + 8)
        let wake = try DetachedWake([when, "-D", "null", "--inhibit", "off", "--ring-for", "1s"], environment: zone.environment,
                                    unset: ["TZ"])
        let first = try await wake.waitForEvent("armed")
        #expect(first["deadline"]?.hasSuffix("+00:00") == true, "\(first)")
        try zone.replace(with: "Etc/GMT-1")  // UTC+1 (POSIX signs are inverted)
        let moved = try await wake.waitForEvent("armed", occurrence: 2)
        #expect(moved["reason"] == "zone" && moved["zone"] == "Etc/GMT-1", "\(moved)")
        #expect(moved["deadline"]?.contains("T\(when)+01:00") == true, "the same local reading in the new zone: \(moved)")
        try await wake.waitForEvent("ringing", timeout: .seconds(20))
        let r = await wake.wait(timeout: .seconds(20))
        #expect(r.exitCode == 4, "\(wake.report(r))")
        let armedAgain = "the time zone is now Etc/GMT-1: alarm set for \(Self.shown(when))"
        #expect(r.stdoutLines.contains { $0.hasPrefix(armedAgain) }, "\(wake.report(r))")
    }

    @Test("a span keeps its instant when the zone changes, also when the link is replaced as ln -sf does")
    func relativeKeeps() async throws {
        let zone = try Localtime("UTC")
        let wake = try DetachedWake(["+2h", "-D", "null", "--inhibit", "off"], environment: zone.environment, unset: ["TZ"])
        let first = try await wake.waitForEvent("armed")
        try zone.relink(to: "Asia/Kolkata")
        try await wake.waitForOutput(containing: "the time zone is now Asia/Kolkata: the alarm keeps its time")
        #expect(wake.count("armed") == 1, "\(wake.eventLogText)")
        wake.send(SIGTERM)
        let r = await wake.wait()
        #expect(!r.stdout.contains("UTC"), "no step through UTC while the link was missing: \(wake.report(r))")
        #expect(first["clock"] == "boottime")
    }

    @Test("TZ set pins the zone: a change of the machine's zone changes nothing")
    func tzPins() async throws {
        let zone = try Localtime("UTC")
        let when = Self.utcClock(ahead: 3 * 3600)
        let wake = try DetachedWake([when, "-D", "null", "--inhibit", "off"], environment: zone.environment.merging(["TZ": "UTC"]) { $1 })
        try await wake.waitForEvent("armed")
        try zone.replace(with: "Asia/Kolkata")
        try await Task.sleep(for: .milliseconds(500))
        wake.send(SIGTERM)
        let r = await wake.wait()
        #expect(wake.count("armed") == 1, "\(wake.report(r))")
        #expect(!r.stdout.contains("time zone"), "\(wake.report(r))")
    }

    @Test("travelling east past the alarm time, beyond the late limit: missed, exit 3, never silent")
    func eastPastMissed() async throws {
        let zone = try Localtime("UTC")
        let when = Self.utcClock(ahead: 3600)
        let wake = try DetachedWake([when, "-D", "null", "--inhibit", "off", "--late-limit", "1m"], environment: zone.environment,
                                    unset: ["TZ"])
        try await wake.waitForEvent("armed")
        try zone.replace(with: "Asia/Kolkata")  // the same reading passed four and a half hours ago
        let r = await wake.wait(timeout: .seconds(20))
        #expect(r.exitCode == 3, "\(wake.report(r))")
        #expect(wake.count("missed") == 1 && wake.count("ringing") == 0, "\(wake.report(r))")
        #expect(r.stderr.contains("missed alarm for"), "\(wake.report(r))")
    }

    @Test("the daemon re-arms a daily alarm for the same local time, says so once, and rings then, not at the old zone's time")
    func daemonFollows() async throws {
        let zone = try Localtime("UTC")
        let home = try AlarmHome()
        var env = home.environment
        env["TZ"] = nil
        env.merge(zone.environment) { $1 }
        let when = Self.utcClock(ahead: 3600 + 8)
        let added = try await WakeProcess.run(["add", when, "--name", "trip", "--days", "daily", "-D", "null", "--ring-for", "1s"],
                                              environment: env, unset: ["TZ"])
        #expect(added.exitCode == 0, "\(added)")
        let daemon = try DetachedWake(["daemon", "--inhibit", "off"], environment: env, unset: ["TZ"], directory: home.dir)
        let first = try await daemon.waitForEvent("armed")
        #expect(first["deadline"]?.contains("T\(when)+00:00") == true, "\(first)")
        try zone.replace(with: "Etc/GMT-1")
        let moved = try await daemon.waitForEvent("armed", occurrence: 2)
        #expect(moved["reason"] == "zone" && moved["alarm"] == "trip", "\(moved)")
        #expect(moved["deadline"]?.contains("T\(when)+01:00") == true, "\(moved)")
        try await daemon.waitForEvent("ringing", timeout: .seconds(20))
        daemon.send(SIGTERM)
        let r = await daemon.wait()
        #expect(r.exitCode == 0, "\(daemon.report(r))")
        let armedAgain = "the time zone is now Etc/GMT-1: alarm 'trip' set for \(Self.shown(when))"
        #expect(r.stdoutLines.filter { $0.hasPrefix(armedAgain) }.count == 1,
                "\(daemon.report(r))")
    }
}
