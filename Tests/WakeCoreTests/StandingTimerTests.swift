import Testing
import WakeCore

/// Alarms at an instant (`wake add +25m`) and timers (`wake timer`): the file's fields, the plan
/// the daemon makes, and the pause, resume, extend and repeat arithmetic, on 2026-12-03 16:00:17 UTC.
@Suite("Standing timers")
struct StandingTimerTests {
    static let now = utc(2026, 12, 3, 16, 0, 17)
    static func local(_ t: Instant) -> LocalDateTime { TimeZoneRules.utc.localTime(at: t) }

    static func timed(_ name: String = "tea", span: Duration? = nil, at: Instant? = now + .seconds(25 * 60),
                      remaining: Duration? = nil, repeats: Bool = false) -> StandingAlarm {
        var a = StandingAlarm(name: name, hour: 16, minute: 25, second: 17, days: 0, date: nil, options: [:], created: now,
                              timer: span.map { StandingTimer(span: $0, remaining: remaining, repeats: repeats) })
        a.at = at
        return a
    }

    @Test("at, timer, remaining and repeat are written and read back")
    func fileRoundTrip() throws {
        let alarms = [Self.timed("nap"), Self.timed("tea", span: .seconds(240), repeats: true),
                      Self.timed("egg", span: .seconds(300), at: nil, remaining: .seconds(200))]
        let text = AlarmBook.serialize(alarms)
        #expect(text.contains("at = \"2026-12-03T16:25:17Z\"\n"), "\(text)")
        #expect(text.contains("timer = \"4m\"\nrepeat = \"true\"\n") && text.contains("timer = \"5m\"\nremaining = \"3m20s\"\n"))
        #expect(try AlarmBook.parse(text).sorted { $0.name < $1.name } == alarms.sorted { $0.name < $1.name })
        // `time` may be left out of an alarm at an instant.
        let noTime = "[alarms.nap]\nat = \"2026-12-03T16:25:17Z\"\ncreated = \"2026-12-03T16:00:17Z\"\n"
        #expect(try AlarmBook.parse(noTime).first?.at == Self.now + .seconds(25 * 60))
    }

    @Test("a timer's fields that do not go together are refused with the table's line", arguments: [
        ("at = \"2026-12-03T16:25:17Z\"\ndays = [\"mon\"]\n", "at with days"),
        ("timer = \"4m\"\n", "neither at"),
        ("timer = \"4m\"\nat = \"2026-12-03T16:25:17Z\"\nremaining = \"1m\"\n", "both at"),
        ("remaining = \"1m\"\nat = \"2026-12-03T16:25:17Z\"\n", "without timer"),
        ("timer = \"0\"\nat = \"2026-12-03T16:25:17Z\"\n", "timer must be a span"),
        ("timer = \"4m\"\nat = \"2026-12-03T16:25:17Z\"\nrepeat = \"yes\"\n", "repeat must be"),
        ("at = \"16:25\"\n", "at must be a UTC time"),
    ])
    func refusals(fields: String, says: String) {
        let error = bookError("[alarms.tea]\n" + fields + "created = \"2026-12-03T16:00:17Z\"\n")
        #expect(error?.message.contains(says) == true, "\(String(describing: error))")
        #expect(error?.line ?? 0 >= 1)
    }

    @Test("the plan: rings at its instant, seconds kept; late within the limit rings, beyond is missed; once rung it is done")
    func plan() {
        let a = Self.timed()
        let record = AlarmRecord(name: "tea")
        let ahead = StandingSchedule.plan(a, record: record, lateLimit: .seconds(600), now: Self.now, zone: .utc)
        #expect(ahead.next?.instant == utc(2026, 12, 3, 16, 25, 17))
        // A reboot: back 5 minutes late rings now; an hour late, beyond the 10-minute limit, is missed and done.
        let late = StandingSchedule.plan(a, record: record, lateLimit: .seconds(600), now: Self.now + .seconds(30 * 60), zone: .utc)
        #expect(late.next?.instant == a.at)
        let missed = StandingSchedule.plan(a, record: record, lateLimit: .seconds(600), now: Self.now + .seconds(3600), zone: .utc)
        #expect(missed.next == nil && missed.missed == [a.at!] && missed.isDone)
        var fired = record
        fired.lastFired = a.at
        #expect(StandingSchedule.plan(a, record: fired, lateLimit: .zero, now: Self.now + .seconds(1600), zone: .utc).isDone)
        // A paused timer has nothing to arm and is kept.
        let paused = StandingSchedule.plan(Self.timed(span: .seconds(60), at: nil, remaining: .seconds(30)), record: record,
                                           lateLimit: .zero, now: Self.now, zone: .utc)
        #expect(paused.next == nil && !paused.isDone)
    }

    @Test("pause holds the span left, resume starts it again with that span, extend adds to it running or paused")
    func pauseResumeExtend() throws {
        let running = Self.timed(span: .seconds(240), at: Self.now + .seconds(240))
        let later = Self.now + .seconds(100)
        #expect(running.remaining(at: later) == .seconds(140))
        let paused = try #require(running.pausedTimer(at: later))
        #expect(paused.at == nil && paused.timer?.remaining == .seconds(140) && paused.isPausedTimer)
        #expect(paused.remaining(at: later + .seconds(9999)) == .seconds(140), "a pause holds it")
        #expect(paused.pausedTimer(at: later) == nil, "paused already")
        // A clock's fraction of a second is held to the nearest second, which alarms.toml keeps.
        #expect(running.pausedTimer(at: later + .milliseconds(400))?.timer?.remaining == .seconds(140))
        #expect(running.pausedTimer(at: later + .milliseconds(600))?.timer?.remaining == .seconds(139))
        #expect(running.pausedTimer(at: Self.now + .milliseconds(239_900))?.timer?.remaining == .seconds(1))
        let longer = try #require(paused.extendedTimer(by: .seconds(60), local: Self.local))
        #expect(longer.timer?.remaining == .seconds(200) && longer.timer?.span == .seconds(300))
        let resumeAt = later + .seconds(1000)
        let resumed = try #require(longer.resumedTimer(at: resumeAt, local: Self.local))
        #expect(resumed.at == resumeAt + .seconds(200) && resumed.timer?.remaining == nil)
        #expect(resumed.second == Self.local(resumeAt + .seconds(200)).second, "the time shown follows")
        let extended = try #require(resumed.extendedTimer(by: .seconds(30), local: Self.local))
        #expect(extended.at == resumeAt + .seconds(230))
        #expect(Self.timed().extendedTimer(by: .seconds(1), local: Self.local) == nil, "no timer")
        #expect(StandingTimer.remainingText(.milliseconds(200_400)) == "3m21s")
    }

    @Test("a repeating timer's next round starts when its ring ends, its span long, and the plan rings it")
    func repeatRound() throws {
        let t = Self.timed(span: .seconds(240), at: Self.now + .seconds(240), repeats: true)
        var record = AlarmRecord(name: "tea")
        record.lastFired = t.at
        let stopped = Self.now + .seconds(250)
        let next = try #require(t.nextRound(at: stopped, local: Self.local))
        #expect(next.at == stopped + .seconds(240) && next.created == stopped)
        #expect(StandingSchedule.plan(next, record: record, lateLimit: .zero, now: stopped, zone: .utc).next?.instant == next.at)
        #expect(Self.timed(span: .seconds(240)).nextRound(at: stopped, local: Self.local) == nil, "one that does not repeat")
    }
}
