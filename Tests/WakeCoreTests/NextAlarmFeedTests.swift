import Testing
import WakeCore

/// `wake next --follow`: each format's line, when it is printed again, and the one instant the
/// line changes by itself (issue 41).
@Suite("Next alarm feed")
struct NextAlarmFeedTests {
    let now = utc(2026, 11, 24, 23, 18)
    let work = NextAlarm(id: "work", standing: true, at: utc(2026, 11, 25, 6, 30), message: "Stand-up")

    @Test("plain: wake next's line without the wait; an empty line for none")
    func plain() {
        let f = NextAlarmFeedFormat.plain
        #expect(f.line(work, now: now, zone: .utc).text == "06:30 tomorrow (work): Stand-up")
        var snoozed = NextAlarm(id: "4242", standing: false, at: utc(2026, 11, 24, 23, 27), state: .snoozed)
        #expect(f.line(snoozed, now: now, zone: .utc).text == "23:27 today, snoozed")
        snoozed.state = .ringing
        #expect(f.line(snoozed, now: now, zone: .utc).text == "ringing since 23:27")
        #expect(f.line(nil, now: now, zone: .utc).text == "")
        let hostile = NextAlarm(id: "x", standing: true, at: utc(2026, 11, 25, 6, 30), message: "a\u{1B}[2Jb")
        #expect(!f.line(hostile, now: now, zone: .utc).text.contains("\u{1B}"))
    }

    @Test("json: wake next --json's object, text without the wait; in_s not compared; null for none")
    func json() {
        let f = NextAlarmFeedFormat.json
        let line = f.line(work, now: now, zone: .utc)
        #expect(line.text == """
            {"id":"work","kind":"standing","state":"waiting","time":"06:30","day":"tomorrow","next":"2026-11-25T06:30:00+00:00",\
            "in_s":25920,"message":"Stand-up","skipped":[],"text":"06:30 tomorrow (work): Stand-up"}
            """)
        #expect(!line.key.contains("in_s"))
        #expect(f.line(work, now: now + .seconds(600), zone: .utc).key == line.key, "ten minutes later, nothing to print")
        #expect(f.line(nil, now: now, zone: .utc).text == "null")
    }

    @Test("json stays English under the reader's language (issue 55); the plain line a bar shows is translated")
    func jsonInEnglish() {
        MessageCatalogue.$current.withValue(.table(["tomorrow": "morgen"])) {
            #expect(NextAlarmFeedFormat.json.line(work, now: now, zone: .utc).text.contains("\"day\":\"tomorrow\""))
            #expect(NextAlarmFeedFormat.plain.line(work, now: now, zone: .utc).text == "06:30 morgen (work): Stand-up")
        }
    }

    @Test("waybar: text, tooltip, class and alt; the text's day only when it is more than a day away")
    func waybar() {
        let f = NextAlarmFeedFormat.waybar
        #expect(f.line(work, now: now, zone: .utc).text
                == #"{"text":"⏰ 06:30","tooltip":"06:30 tomorrow (work): Stand-up","class":"waiting","alt":"waiting"}"#)
        var later = work
        later.at = utc(2026, 11, 27, 7)
        #expect(f.line(later, now: now, zone: .utc).text.hasPrefix(#"{"text":"⏰ Fri 07:00","#))
        later.at = utc(2026, 12, 4, 7)
        #expect(f.line(later, now: now, zone: .utc).text.hasPrefix(#"{"text":"⏰ 4 Dec 07:00","#))
        var ringing = work
        ringing.state = .ringing
        #expect(f.line(ringing, now: now, zone: .utc).text
                == #"{"text":"⏰ 06:30 ringing","tooltip":"ringing since 06:30 (work): Stand-up","class":"ringing","alt":"ringing"}"#)
        #expect(f.line(nil, now: now, zone: .utc).text == #"{"text":"","tooltip":"no alarm","class":"none","alt":"none"}"#)
    }

    @Test("a bar's short text names a snooze's day when it is not today, however close: 23:27 today, Wed 00:30, Sat 10:30")
    func snoozedShort() throws {
        func short(_ a: NextAlarm, zone: TimeZoneRules = .utc) -> String? {
            let text = NextAlarmFeedFormat.waybar.line(a, now: now, zone: zone).text
            return text.split(separator: "\"").dropFirst(3).first.map { String($0.dropFirst(2)) }  // {"text":"⏰ ...",
        }
        var snoozed = NextAlarm(id: "4242", standing: false, at: utc(2026, 11, 24, 23, 27), state: .snoozed)
        #expect(short(snoozed) == "23:27 snoozed")
        snoozed.at = utc(2026, 11, 25, 0, 30)  // 72 minutes away, but tomorrow
        #expect(short(snoozed) == "Wed 00:30 snoozed")
        #expect(NextAlarmFeedFormat.plain.line(snoozed, now: now, zone: .utc).text == "00:30 tomorrow, snoozed")
        snoozed.at = utc(2026, 11, 28, 10, 30)
        #expect(short(snoozed) == "Sat 10:30 snoozed")
        // The day is the zone's: 04:30 UTC tomorrow is still today's 23:30 in New York.
        snoozed.at = utc(2026, 11, 25, 4, 30)
        let newYork = try zone("America/New_York")
        #expect(short(snoozed) == "Wed 04:30 snoozed" && short(snoozed, zone: newYork) == "23:30 snoozed")
        // At midnight the day words turn: the follower looks again then.
        snoozed.at = utc(2026, 11, 25, 0, 30)
        #expect(NextAlarmFeed.nextChange(of: snoozed, format: .waybar, now: now, zone: .utc) == utc(2026, 11, 25, 0, 0))
    }

    @Test("i3blocks: full and short text as persist mode's JSON, urgent while ringing; an empty full_text hides the block")
    func i3blocks() {
        let f = NextAlarmFeedFormat.i3blocks
        #expect(f.line(work, now: now, zone: .utc).text == #"{"full_text":"06:30 tomorrow (work): Stand-up","short_text":"06:30"}"#)
        var ringing = work
        ringing.state = .ringing
        #expect(f.line(ringing, now: now, zone: .utc).text.hasSuffix(#","urgent":true}"#))
        #expect(f.line(nil, now: now, zone: .utc).text == #"{"full_text":"","short_text":""}"#)
    }

    @Test("a line is printed only when it differs from the last one; warnings once, again after a look without them")
    func printOnlyChanges() {
        var feed = NextAlarmFeed(format: .waybar)
        var u = feed.update(work, problems: ["wake: warning: x"], now: now, zone: .utc)
        #expect(u.line != nil && u.problems == ["wake: warning: x"])
        u = feed.update(work, problems: ["wake: warning: x"], now: now + .seconds(60), zone: .utc)
        #expect(u.line == nil && u.problems.isEmpty, "a minute passing changes nothing")
        u = feed.update(nil, problems: [], now: now, zone: .utc)
        #expect(u.line?.contains("\"none\"") == true && u.lookAgainAt == nil)
        #expect(feed.failed(["wake: broken"]) == ["wake: broken"] && feed.failed(["wake: broken"]).isEmpty)
        u = feed.update(nil, problems: ["wake: warning: x"], now: now, zone: .utc)
        #expect(u.line == nil && u.problems == ["wake: warning: x"])
    }

    @Test("the line changes by itself only at the alarm's time and when its day words turn")
    func nextChange() throws {
        // Tomorrow 06:30, plain: at midnight "tomorrow" becomes "today", before the alarm's time.
        #expect(NextAlarmFeed.nextChange(of: work, format: .plain, now: now, zone: .utc) == utc(2026, 11, 25))
        // waybar's tooltip is that line too; after midnight nothing turns before the alarm itself.
        #expect(NextAlarmFeed.nextChange(of: work, format: .waybar, now: now, zone: .utc) == utc(2026, 11, 25))
        #expect(NextAlarmFeed.nextChange(of: work, format: .waybar, now: utc(2026, 11, 25), zone: .utc) == work.at)
        // Three weeks ahead in waybar: "18 Dec" until six days before, then "Fri".
        var far = work
        far.at = utc(2026, 12, 18, 6, 30)
        #expect(NextAlarmFeed.nextChange(of: far, format: .waybar, now: now, zone: .utc) == utc(2026, 12, 12, 6, 30))
        // Plain: the weekday and date stay until the day before ("tomorrow").
        #expect(NextAlarmFeed.nextChange(of: far, format: .plain, now: now, zone: .utc) == utc(2026, 12, 17))
        // Next year: the year goes from the line on 1 January.
        far.at = utc(2027, 1, 20, 6, 30)
        #expect(NextAlarmFeed.nextChange(of: far, format: .plain, now: now, zone: .utc) == utc(2027, 1, 1))
        // Ringing: nothing to wait for in a bar's line; the JSON's day turns at midnight.
        var ringing = work
        ringing.state = .ringing
        ringing.at = utc(2026, 11, 24, 23, 0)
        #expect(NextAlarmFeed.nextChange(of: ringing, format: .waybar, now: now, zone: .utc) == nil)
        #expect(NextAlarmFeed.nextChange(of: ringing, format: .json, now: now, zone: .utc) == utc(2026, 11, 25))
        #expect(NextAlarmFeed.nextChange(of: nil, format: .plain, now: now, zone: .utc) == nil)
        // Midnight in the alarm's zone, not UTC's.
        let berlin = try zone("Europe/Berlin")
        #expect(NextAlarmFeed.nextChange(of: work, format: .plain, now: now, zone: berlin) == work.at,
                "already 25 Nov in Berlin: 'today' until it rings")
    }

    @Test("the format names are the --format values")
    func names() {
        #expect(NextAlarmFeedFormat.names == ["plain", "json", "waybar", "i3blocks"])
    }
}
