import Foundation
import Testing
import WakeCore
@testable import WakeRuntime
import WakeSystem

/// Issue 56, the bedtime reminder in the daemon, in process: `BedtimeCheckTests.Night` (the
/// controller and the check on the fake clock) with `sleep-target` set. When it comes, what it
/// carries, and what a locked or idle session does to it.
@Suite("Bedtime reminder in the daemon, in process")
struct BedtimeReminderTests {
    typealias Night = BedtimeCheckTests.Night
    static let morning = RunnerTests.morning  // 07:00; the night starts at 23:00

    func bedtimeEvents(_ night: Night) -> [[String: String]] {
        night.session.recorded.filter { $0.0 == "bedtime" }.map { _, fields in
            Dictionary(fields.map { k, v in
                if case .string(let s) = v { (k, s) } else { (k, v.text) }
            }) { a, _ in a }
        }
    }

    @Test("at the next alarm's time less the target, once, with the check's verdict run for it and both buttons")
    func atItsMoment() throws {
        let night = try Night(alarms: [BedtimeCheckTests.daily("work", 7), BedtimeCheckTests.daily("gym", 7, 30)],
                              sleepTarget: .seconds(7 * 3600))
        try night.advance(by: .seconds(59 * 60))  // 23:59
        #expect(night.reminders.isEmpty && night.fake.asked.isEmpty)
        try night.advance(by: .seconds(60))  // 00:00, seven hours before 07:00
        try night.turn(until: { !night.reminders.isEmpty })
        let r = try #require(night.reminders.first)
        #expect(r.alarm == "work" && r.occurrence == Self.morning, "the next alarm, not gym")
        #expect(r.notice.summary == "Bed now for 7h before 07:00 (work)", "\(r.notice)")
        #expect(r.notice.body == "All checks pass: the alarm will be heard.", "\(r.notice)")
        #expect(r.notice.buttons.map(\.label) == ["Skip tomorrow", "Not tonight"] && r.notice.urgency == .normal)
        #expect(night.fake.asked.map(\.alarm) == ["work"], "the check ran for the reminder")
        #expect(bedtimeEvents(night).map { [$0["alarm"], $0["verdict"], $0["shown"], $0["target"]] } == [["work", "PASS", "true", "7h"]])
        try night.advance(by: .seconds(10 * 60))
        #expect(night.reminders.count == 1, "once a night: \(night.reminders)")
    }

    @Test("an alarm's own --bedtime over config.toml's sleep-target")
    func ownBedtime() throws {
        var work = BedtimeCheckTests.daily("work", 7)
        work.options[AlarmOption.bedtime.name] = "6h"
        let night = try Night(alarms: [work], sleepTarget: .seconds(8 * 3600))
        try night.settle()
        #expect(night.reminders.isEmpty, "not at 23:00, eight hours before")
        try night.advance(by: .seconds(2 * 3600))  // 01:00
        try night.turn(until: { !night.reminders.isEmpty })
        #expect(night.reminders.first?.notice.summary == "Bed now for 6h before 07:00 (work)")
    }

    @Test("a failure rides in the reminder, with its fix, in place of a notification of its own; not notified again at 05:00")
    func failureInTheReminder() throws {
        let night = try Night(alarms: [BedtimeCheckTests.daily("work", 7)], sleepTarget: .seconds(8 * 3600))
        night.fake.answer("work", [BedtimeCheckTests.mutedOff("work")])
        try night.turn(until: { !night.reminders.isEmpty })  // 23:00 is its moment: at once
        let body = try #require(night.reminders.first?.notice.body)
        #expect(body.hasPrefix("FAIL: the default sink 'Speakers' (speaker) is muted") && body.contains("\nFix: unmute it"), "\(body)")
        #expect(night.notices.isEmpty, "no 'may be silent' beside it: \(night.notices)")
        #expect(bedtimeEvents(night).first?["verdict"] == "FAIL")
        try night.advance(by: .seconds(6 * 3600))  // 05:00, the check's own moment
        try night.waitForChecks(2)
        #expect(night.notices.isEmpty, "the problem was said in the reminder: \(night.notices)")
        #expect(night.bedtimeLines.count == 2, "the journal says it at each check: \(night.bedtimeLines)")
    }

    @Test("locked or idle: held back and asked again each minute, shown once someone is back; after an hour, not at all")
    func heldBackWhileAway() throws {
        let night = try Night(alarms: [BedtimeCheckTests.daily("work", 7)], sleepTarget: .seconds(7 * 3600))
        night.presence.withLock { $0 = .away(why: "locked") }
        try night.advance(by: .seconds(3600))  // 00:00
        try night.turn(until: { bedtimeEvents(night).count == 1 })
        #expect(night.reminders.isEmpty && night.fake.asked.isEmpty, "no check while nobody is there")
        #expect(bedtimeEvents(night).first?["held"] == "locked" && bedtimeEvents(night).first?["shown"] == "false")
        try night.advance(by: .seconds(60))
        #expect(night.reminders.isEmpty && bedtimeEvents(night).count == 1, "still locked: no second event")
        night.presence.withLock { $0 = .present }
        try night.advance(by: .seconds(60))
        try night.turn(until: { !night.reminders.isEmpty })
        #expect(night.reminders.count == 1 && bedtimeEvents(night).last?["shown"] == "true")

        let away = try Night(alarms: [BedtimeCheckTests.daily("work", 7)], sleepTarget: .seconds(7 * 3600))
        away.presence.withLock { $0 = .away(why: "idle") }
        try away.advance(by: .seconds(3600))  // 00:00: held back
        try away.turn(until: { bedtimeEvents(away).count == 1 })
        try away.advance(by: .seconds(3601))  // 01:00:01, past the hour's window
        away.presence.withLock { $0 = .present }
        try away.advance(by: .seconds(5 * 60))
        #expect(away.reminders.isEmpty, "too late for bed reminders: \(away.reminders)")
    }

    @Test("due: its moment, now within the hour after it, never within a minute of the ring", arguments: [
        (-3600 * 8, 3600 * 7, 3600 * 1), (-3600 * 8, 3600 * 8, 0), (-3600 * 8, 3600 * 9, 0), (-3600 * 8, 3600 * 9 + 1, nil),
        (-30, 3600, nil),
    ] as [(Int64, Int64, Int64?)])
    func due(occurrenceFromNow: Int64, target: Int64, expected: Int64?) {
        let now = Instant(seconds: 1_000_000)
        let occurrence = now - .seconds(occurrenceFromNow)
        let due = BedtimeReminder.due(occurrence: occurrence, target: .seconds(target), now: now)
        #expect(due == expected.map { now + .seconds($0) }, "\(String(describing: due))")
    }
}
