import Testing
import WakeCore

/// `wake next`: the soonest alarm, said as a status bar shows it.
@Suite("Next alarm")
struct NextAlarmTests {
    let now = utc(2026, 11, 24, 23, 18)

    @Test("the soonest wins; a tie goes to the standing alarm, then to the smaller ID; none is nil")
    func soonest() {
        let a = NextAlarm(id: "work", standing: true, at: utc(2026, 11, 25, 6, 30))
        let b = NextAlarm(id: "4242", standing: false, at: utc(2026, 11, 25, 6, 0))
        let c = NextAlarm(id: "4243", standing: false, at: utc(2026, 11, 25, 6, 30))
        let d = NextAlarm(id: "gym", standing: true, at: utc(2026, 11, 25, 6, 30))
        #expect(NextAlarm.soonest([a, b, c]) == b)
        #expect(NextAlarm.soonest([c, a, d]) == d)
        #expect(NextAlarm.soonest([c]) == c)
        #expect(NextAlarm.soonest([]) == nil)
    }

    @Test("the line: time, day, the name in brackets, the wait, the message; escaped")
    func line() {
        let z = TimeZoneRules.utc
        let work = NextAlarm(id: "work", standing: true, at: utc(2026, 11, 25, 6, 30))
        #expect(work.line(now: now, zone: z) == "06:30 tomorrow (work), in 7h 12m")
        var oneOff = NextAlarm(id: "4242", standing: false, at: utc(2026, 11, 24, 23, 45, 30), message: "Tea\u{1B}[2J")
        #expect(oneOff.line(now: now, zone: z) == "23:45:30 today, in 27m 30s: Tea\\x1b[2J")
        oneOff.at = utc(2026, 11, 27, 7)
        #expect(oneOff.line(now: now, zone: z).hasPrefix("07:00 Fri 27 Nov, in 2d 7h"))
    }

    @Test("JSON: one object with the line's parts")
    func json() {
        let work = NextAlarm(id: "work", standing: true, at: utc(2026, 11, 25, 6, 30), message: "Stand-up \"now\"")
        #expect(work.json(now: now, zone: .utc).text == """
            {"id":"work","kind":"standing","state":"waiting","time":"06:30","day":"tomorrow","next":"2026-11-25T06:30:00+00:00",\
            "in_s":25920,"message":"Stand-up \\"now\\"","skipped":[],"text":"06:30 tomorrow (work), in 7h 12m: Stand-up \\"now\\""}
            """)
    }

    @Test("what rings comes first, however far back it started; snoozed counts at the snooze's end")
    func ringingFirst() {
        let ringing = NextAlarm(id: "4242", standing: false, at: utc(2026, 11, 24, 22, 0), state: .ringing)
        let soon = NextAlarm(id: "work", standing: true, at: utc(2026, 11, 24, 23, 19))
        let snoozed = NextAlarm(id: "gym", standing: true, at: utc(2026, 11, 24, 23, 27), state: .snoozed)
        #expect(NextAlarm.soonest([soon, snoozed, ringing]) == ringing)
        #expect(NextAlarm.soonest([snoozed, soon]) == soon)
        let later = NextAlarm(id: "late", standing: true, at: utc(2026, 11, 24, 23, 15), state: .ringing)
        #expect(NextAlarm.soonest([later, ringing]) == ringing, "two ringing: the one that started first")
    }

    @Test("the line and JSON of a ringing and a snoozed alarm")
    func ringingAndSnoozed() {
        let z = TimeZoneRules.utc
        let ringing = NextAlarm(id: "work", standing: true, at: utc(2026, 11, 24, 23, 0), message: "Stand-up", state: .ringing)
        #expect(ringing.line(now: now, zone: z) == "ringing since 23:00 (work): Stand-up")
        #expect(ringing.json(now: now, zone: z).text == """
            {"id":"work","kind":"standing","state":"ringing","time":"23:00","day":"today","next":"2026-11-24T23:00:00+00:00",\
            "in_s":0,"message":"Stand-up","skipped":[],"text":"ringing since 23:00 (work): Stand-up"}
            """)
        let oneOff = NextAlarm(id: "4242", standing: false, at: utc(2026, 11, 24, 23, 17, 30), state: .ringing)
        #expect(oneOff.line(now: now, zone: z) == "ringing since 23:17:30")
        let snoozed = NextAlarm(id: "4242", standing: false, at: utc(2026, 11, 24, 23, 27), message: "Tea", state: .snoozed)
        #expect(snoozed.line(now: now, zone: z) == "23:27 today, snoozed, in 9m 0s: Tea")
        #expect(snoozed.json(now: now, zone: z).text.contains("\"state\":\"snoozed\""))
    }

    @Test("a pre-ringing alarm is still ahead, at its own time, and says its pre-alarm rings")
    func preRinging() {
        let z = TimeZoneRules.utc
        let pre = NextAlarm(id: "work", standing: true, at: utc(2026, 11, 24, 23, 28), message: "Stand-up", state: .preRinging)
        #expect(pre.line(now: now, zone: z) == "23:28 today (work), pre-alarm ringing, in 10m 0s: Stand-up")
        #expect(pre.line(now: now, zone: z, wait: false) == "23:28 today (work), pre-alarm ringing: Stand-up")
        #expect(pre.json(now: now, zone: z).text.contains("\"state\":\"pre-ringing\",\"time\":\"23:28\""))
        let ringing = NextAlarm(id: "4242", standing: false, at: utc(2026, 11, 24, 22, 0), state: .ringing)
        #expect(NextAlarm.soonest([pre, ringing]) == ringing, "what rings comes before a pre-alarm")
        let sooner = NextAlarm(id: "gym", standing: true, at: utc(2026, 11, 24, 23, 20))
        #expect(NextAlarm.soonest([pre, sooner]) == sooner)
        let bar = NextAlarmFeedFormat.waybar.line(pre, now: now, zone: z).text
        #expect(bar == #"{"text":"⏰ 23:28 pre-alarm","tooltip":"23:28 today (work), pre-alarm ringing: Stand-up","class":"pre-ringing","alt":"pre-ringing"}"#)
    }
}
