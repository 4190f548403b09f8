import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// `wake snooze LENGTH` through the binary, against a running one-off in a world of its own
/// (`ControlWorld`, TZ=UTC): the reply, the ringing process's log and `wake list` say the chosen
/// time, and it rings again then. The rest runs in process: `--until`, the limit and the refused
/// lengths and names in Tests/WakeRuntimeTests/ChosenSnoozeSessionTests.swift; the limit reached
/// from another shell against a ringing binary stays in SnoozeLimitEndToEndTests.
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
        let text = f.string(from: d)
        return text.hasSuffix(":00") ? String(text.dropLast(3)) : text  // a time shows its seconds only when it has any
    }

    @Test("wake snooze 2s rings again two seconds on; wake snooze 20m: the reply, the log and wake list say 20 minutes on")
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

        // The refused lengths run in process: ControlCommandTests.snoozeLengthsRefused (the exit and the line) and
        // ChosenSnoozeSessionTests.refusedLengths (the alarm rings on).
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
}
