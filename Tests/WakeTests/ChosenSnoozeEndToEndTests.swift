import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// `wake snooze LENGTH`, `wake snooze --until TIME` and the snooze count through the binary,
/// against a running one-off in a world of its own (`ControlWorld`, TZ=UTC): the reply, the
/// ringing process's log and `wake list` say the chosen time, and it rings again then; past the
/// limit the snooze is refused and the sound keeps reaching the `file:` PCM.
@Suite("Chosen snooze end to end")
struct ChosenSnoozeEndToEndTests {
    /// An event's `time` (with milliseconds) or `until` (whole seconds), as a Date.
    static func date(_ text: String?) -> Date? {
        guard let text else { return nil }
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = f.date(from: text) { return d }
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: text)
    }

    /// `HH:MM:SS` in UTC, the world's zone.
    /// A snooze's end as wake says it: the time, and ` tomorrow` once it is past midnight (UTC).
    static func said(_ d: Date) -> String {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC") ?? utc.timeZone
        return clock(d) + (utc.isDate(d, inSameDayAs: Date()) ? "" : " tomorrow")
    }

    static func clock(_ d: Date) -> String {
        let f = DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.locale = Locale(identifier: "en_US_POSIX")
        f.dateFormat = "HH:mm:ss"
        return f.string(from: d)
    }

    static func size(_ path: String) -> Int { (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 }

    @Test("wake snooze 2s rings again two seconds on; wake snooze 20m: the reply, the log and wake list say 20 minutes on; bad lengths exit 64")
    func spanAgainstAOneOff() async throws {
        let world = try ControlWorld()
        let wake = try world.alarm(["now", "-D", "null", "--ring-for", "10m"])
        try await wake.waitForEvent("ringing")
        try await world.waitForSocket(wake.pid)

        var r = try await world.run(["snooze", "2s"])
        #expect(r.exitCode == 0 && r.stdout.contains("(pid \(wake.pid)) until "), "\(r)")
        let short = try await wake.waitForEvent("snoozed")
        let again = try await wake.waitForEvent("ringing", occurrence: 2)
        let gap = try #require(Self.date(again["time"])).timeIntervalSince(try #require(Self.date(short["time"])))
        #expect(gap >= 1.9 && gap < 10, "rang again \(gap) s after the 2s snooze: \(wake.eventLogText)")

        for (args, expected) in [(["snooze", "0"], "snooze length '0' is zero"), (["snooze", "13h"], "longer than 12h"),
                                 (["snooze", "20m", "--until", "07:40"], "not both"), (["snooze", "\(wake.pid)", "2x"], "invalid duration '2x'")] {
            r = try await world.run(args)
            #expect(r.exitCode == 64 && r.stderrIsOneLine && r.stderr.contains(expected), "\(args): \(r)")
        }
        #expect(try await world.entry(wake.pid)?["state"] as? String == "ringing", "a refused length leaves it ringing")

        r = try await world.run(["snooze", "20m"])
        let snoozed = try await wake.waitForEvent("snoozed", occurrence: 2)
        let until = try #require(Self.date(snoozed["until"]))
        let lead = until.timeIntervalSince(try #require(Self.date(snoozed["time"])))
        #expect(lead > 1198 && lead <= 1201, "the log's until is 20 minutes on: \(snoozed)")
        #expect(r.exitCode == 0 && r.stdout.hasPrefix("snoozed the ")
                && r.stdout.hasSuffix(" alarm (pid \(wake.pid)) until \(Self.said(until))\n"),
                "the reply says the time the log says: \(r)")
        let entry = try #require(try await world.entry(wake.pid))
        #expect(entry["state"] as? String == "snoozed until \(Self.said(until))", "\(entry)")
        #expect(entry["snoozes"] as? Int == 2 && entry["snooze_limit"] is NSNull, "\(entry)")

        r = try await world.run(["stop"])
        #expect(r.exitCode == 0, "\(r)")
        let ended = await wake.wait(timeout: .seconds(60))
        #expect(ended.exitCode == 0 && ended.stdout.contains("snoozed until \(Self.said(until))"),
                "the ringing process says it too: \(wake.report(ended))")
    }

    @Test("wake snooze ID --until HH:MM:SS: a wall-clock time, said in the reply, and it rings again then")
    func untilAgainstAOneOff() async throws {
        let world = try ControlWorld()
        let wake = try world.alarm(["now", "-D", "null", "--ring-for", "10m"])
        try await wake.waitForEvent("ringing")
        try await world.waitForSocket(wake.pid)

        // Three whole seconds on, so the time named is ahead when the request arrives.
        let target = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + 3).rounded(.down) + 1)
        let r = try await world.run(["snooze", "\(wake.pid)", "--until", Self.clock(target)])
        #expect(r.exitCode == 0 && r.stdout.hasSuffix("(pid \(wake.pid)) until \(Self.said(target))\n"), "\(r)")
        let snoozed = try await wake.waitForEvent("snoozed")
        #expect(Self.date(snoozed["until"]) == target, "\(snoozed)")
        let again = try await wake.waitForEvent("ringing", occurrence: 2, timeout: .seconds(30))
        let late = try #require(Self.date(again["time"])).timeIntervalSince(target)
        #expect(late >= 0 && late < 5, "rang again \(late) s after \(Self.clock(target)): \(wake.eventLogText)")

        wake.send(SIGTERM)
        _ = await wake.wait(timeout: .seconds(60))
    }

    @Test("--snooze-limit 1: wake snooze 1s is counted and listed; the second, wake snooze 20m, is refused (exit 1) and the file PCM keeps being written")
    func limitRefusesAChosenLength() async throws {
        let world = try ControlWorld()
        let capture = world.dir.file("capture.raw")
        let wake = try world.alarm(["now", "-D", "file:'\(capture)',raw", "--snooze-limit", "1", "--ring-for", "60s"])
        try await wake.waitForEvent("ringing")
        try await world.waitForSocket(wake.pid)
        #expect(try await world.run(["list"]).stdout.contains("ringing (snoozed 0 of 1)"))

        var r = try await world.run(["snooze", "1s"])
        #expect(r.exitCode == 0, "\(r)")
        try await wake.waitForEvent("ringing", occurrence: 2)
        let table = try await world.run(["list"])
        #expect(table.stdout.contains("ringing (snoozed 1 of 1)"), "\(table)")
        let entry = try #require(try await world.entry(wake.pid))
        #expect(entry["snoozes"] as? Int == 1 && entry["snooze_limit"] as? Int == 1, "\(entry)")

        r = try await world.run(["snooze", "20m"])
        #expect(r.exitCode == 1 && r.stderrIsOneLine && r.stderr.contains("snooze limit reached (1 of 1); it rings until stopped"), "\(r)")
        try await wake.waitForEvent("snooze_refused")
        let before = Self.size(capture)
        try await Task.sleep(for: .milliseconds(1500))
        let after = Self.size(capture)
        #expect(after > before + 44_100, "still sounding after the refused snooze: \(before) -> \(after) bytes")
        // The JSON's state keeps its word; the count is in fields of its own.
        #expect(try await world.entry(wake.pid)?["state"] as? String == "ringing")
        #expect(try await world.run(["list"]).stdout.contains("ringing (snoozed 1 of 1)"))

        r = try await world.run(["stop", "\(wake.pid)"])
        #expect(r.exitCode == 0, "\(r)")
        let ended = await wake.wait(timeout: .seconds(60))
        #expect(ended.exitCode == 0 && wake.events.filter { $0.name == "snoozed" }.count == 1, "\(wake.report(ended))")
    }

    @Test("wake add --name 20m is refused: it reads as a length")
    func addRefusesALengthName() async throws {
        let home = try AlarmHome()
        let r = try await home.run(["add", "06:30", "--name", "20m", "-D", "null"])
        #expect(r.exitCode == 64 && r.stderrIsOneLine && r.stderr.contains("--name: '20m' reads as a length"), "\(r)")
    }
}
