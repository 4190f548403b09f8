import Testing
import WakeCore

/// What the desktop notification says in each state, and how it follows the alarm over a bus
/// that answers late: no bus here, only the values the notifier would send.
@Suite("Desktop notification: content")
struct DesktopNoticeContentTests {
    @Test("ringing: the alarm's time, Snooze with the alarm's own length and Stop, critical and resident")
    func ringing() {
        let n = DesktopNotice.make(.ringing(since: "07:00:02"), alarm: "07:00", snooze: .seconds(9 * 60))
        #expect(n.summary == "Alarm 07:00")
        #expect(n.body == "Ringing since 07:00:02.")
        #expect(n.buttons == [.init(key: "snooze", label: "Snooze 9 min"), .init(key: "stop", label: "Stop")])
        #expect(n.urgency == .critical && n.urgency.rawValue == 2)
        #expect(n.resident)
    }

    @Test("a folder or list as the sound: a ringing notice names the file that plays (by its name), after the message")
    func namesTheChosenFile() {
        let n = DesktopNotice.make(.ringing(since: "07:00:02"), alarm: "07:00", snooze: .seconds(540), message: "gym",
                                   sound: "/home/me/wake/birds & rain.ogg")
        #expect(n.body == "gym\nRinging since 07:00:02.\nPlaying birds &amp; rain.ogg.", "\(n.body)")
        let snoozed = DesktopNotice.make(.snoozed(until: "07:09"), alarm: "07:00", snooze: .seconds(540), sound: "/m/a.wav")
        #expect(!snoozed.body.contains("Playing"))
    }

    @Test("two snooze buttons, the alarm's own and --snooze-long, then Stop; one when they are the same; none, and said, once the snoozes are used up")
    func twoSnoozeButtons() {
        var n = DesktopNotice.make(.ringing(since: "07:00:02"), alarm: "07:00", snooze: .seconds(9 * 60), snoozeLong: .seconds(18 * 60))
        #expect(n.buttons == [.init(key: "snooze", label: "Snooze 9 min"), .init(key: "snooze-long", label: "Snooze 18 min"),
                              .init(key: "stop", label: "Stop")])
        n = DesktopNotice.make(.bell(reason: "gone"), alarm: "07:00", snooze: .seconds(300), snoozeLong: .seconds(3600))
        #expect(n.buttons.map(\.label) == ["Snooze 5 min", "Snooze 1 h", "Stop"])
        n = DesktopNotice.make(.ringing(since: "07:00:02"), alarm: "07:00", snooze: .seconds(600), snoozeLong: .seconds(600))
        #expect(n.buttons.map(\.key) == ["snooze", "stop"], "the same length twice is one button")
        n = DesktopNotice.make(.ringing(since: "07:20:02"), alarm: "07:00", snooze: .seconds(9 * 60), snoozeLong: .seconds(18 * 60),
                               snoozes: SnoozeCount(used: 2, limit: 2))
        #expect(n.buttons.map(\.key) == ["stop"] && n.body == "Ringing since 07:20:02. Snoozed 2 of 2: no snoozes left.", "\(n)")
        n = DesktopNotice.make(.snoozed(until: "07:18"), alarm: "07:00", snooze: .seconds(9 * 60), snoozeLong: .seconds(18 * 60))
        #expect(n.buttons.map(\.key) == ["stop"])
    }

    @Test("snoozed: when it rings again, only Stop, still shown")
    func snoozed() {
        let n = DesktopNotice.make(.snoozed(until: "07:09"), alarm: "07:00", snooze: .seconds(540))
        #expect(n.summary == "Alarm 07:00: snoozed until 07:09")
        #expect(n.buttons.map(\.key) == ["stop"])
        #expect(n.resident)
        #expect(n.urgency == .normal)
    }

    @Test("the bell: said loudly, with the last failure, and both buttons still there")
    func bell() {
        let n = DesktopNotice.make(.bell(reason: "'default': No such device"), alarm: "06:30 (work)", snooze: .seconds(300))
        #expect(n.summary == "Alarm 06:30 (work): NO SOUND DEVICE WORKS")
        #expect(n.body.contains("terminal bell") && n.body.contains("'default': No such device"))
        #expect(n.buttons.map(\.label) == ["Snooze 5 min", "Stop"])
        #expect(n.urgency == .critical && n.resident)
    }

    @Test("could not ring: no buttons (nobody will answer them), critical, dismissable")
    func failed() {
        let n = DesktopNotice.make(.failed(reason: "no sound device works"), alarm: "07:00", snooze: .seconds(540))
        #expect(n.summary == "Alarm 07:00 COULD NOT RING")
        #expect(n.body == "No sound could be made: no sound device works.")
        #expect(n.buttons.isEmpty && n.urgency == .critical && !n.resident)
    }

    @Test("the snooze label in the largest unit that counts it whole", arguments: [
        (Duration.seconds(540), "Snooze 9 min"), (.seconds(60), "Snooze 1 min"), (.seconds(3600), "Snooze 1 h"),
        (.seconds(7200), "Snooze 2 h"), (.seconds(90), "Snooze 90 s"), (.seconds(5400), "Snooze 90 min"),
        (.milliseconds(1500), "Snooze 1500ms"), (.seconds(1), "Snooze 1 s"), (.zero, "Snooze"),
        (.seconds(10 * 365 * 86_400), "Snooze 87600 h"),
    ])
    func snoozeLabel(_ d: Duration, _ label: String) {
        #expect(DesktopNotice.snoozeLabel(d) == label)
    }

    @Test("untrusted text: markup characters become entities in the body, control characters are escaped everywhere")
    func escaping() {
        let n = DesktopNotice.make(.bell(reason: "<b>x</b> & \u{1B}[31m"), alarm: "07:00\u{7}", snooze: .seconds(60))
        #expect(n.body.contains("&lt;b&gt;x&lt;/b&gt; &amp; \\x1b[31m"), "\(n.body)")
        #expect(!n.body.contains("<") && !n.body.unicodeScalars.contains { $0.value < 0x20 })
        #expect(n.summary == "Alarm 07:00\\x07: NO SOUND DEVICE WORKS")
        #expect(DesktopNotice.markup("a&b") == "a&amp;b")
    }
}

@Suite("Desktop notification: kept in step over the bus")
struct NoticeSyncTests {
    let ringing = DesktopNotice.make(.ringing(since: "07:00:00"), alarm: "07:00", snooze: .seconds(540))
    let snoozed = DesktopNotice.make(.snoozed(until: "07:09"), alarm: "07:00", snooze: .seconds(540))
    let bell = DesktopNotice.make(.bell(reason: "x"), alarm: "07:00", snooze: .seconds(540))

    @Test("shown, replaced with the id the server gave, closed")
    func lifecycle() {
        var s = NoticeSync()
        #expect(s.isIdle)
        #expect(s.show(ringing) == [.notify(ringing, replacing: 0)])
        #expect(s.inFlight)
        #expect(s.notified(id: 7) == [])
        #expect(s.id == 7 && !s.inFlight)
        #expect(s.show(ringing) == [], "the same notice is not sent again")
        #expect(s.show(snoozed) == [.notify(snoozed, replacing: 7)])
        #expect(s.notified(id: 7) == [])
        #expect(s.show(nil) == [.close(7)])
        #expect(s.isIdle)
        #expect(s.show(nil) == [], "closed once")
    }

    @Test("changes while Notify is unanswered wait for its id; only the latest is sent")
    func waitsForTheID() {
        var s = NoticeSync()
        _ = s.show(ringing)
        #expect(s.show(bell) == [])
        #expect(s.show(snoozed) == [])
        #expect(s.notified(id: 3) == [.notify(snoozed, replacing: 3)])
        #expect(s.notified(id: 3) == [])
    }

    @Test("ended before the server answered: closed as soon as the id comes")
    func endedInFlight() {
        var s = NoticeSync()
        _ = s.show(ringing)
        #expect(s.show(nil) == [])
        #expect(s.inFlight)
        #expect(s.notified(id: 4) == [.close(4)])
        #expect(s.isIdle)
    }

    @Test("a failed Notify is not retried until the notice changes; an old id is still replaced")
    func failure() {
        var s = NoticeSync()
        _ = s.show(ringing)
        _ = s.notified(id: 2)
        #expect(s.show(snoozed) == [.notify(snoozed, replacing: 2)])
        #expect(s.notified(id: nil) == [])
        #expect(s.id == 2, "what was on screen is still there")
        #expect(s.show(snoozed) == [])
        #expect(s.show(ringing) == [.notify(ringing, replacing: 2)])
        _ = s.notified(id: nil)
        #expect(s.show(nil) == [.close(2)])
    }

    @Test("a failed first Notify and the alarm ended: nothing to close")
    func failedFirst() {
        var s = NoticeSync()
        _ = s.show(ringing)
        _ = s.show(nil)
        #expect(s.notified(id: nil) == [])
        #expect(s.isIdle)
    }

    @Test("dismissed by the user: not put back until the state changes, then as a new one")
    func dismissed() {
        var s = NoticeSync()
        _ = s.show(ringing)
        _ = s.notified(id: 5)
        s.closedByServer(id: 9)
        #expect(s.id == 5, "another notification's closing")
        s.closedByServer(id: 5)
        #expect(s.id == nil)
        #expect(s.show(ringing) == [])
        #expect(s.show(snoozed) == [.notify(snoozed, replacing: 0)])
        #expect(s.notified(id: 6) == [])
        #expect(s.show(nil) == [.close(6)])
    }

    @Test("the connection lost with a Notify in flight: the next change goes out through a new one, replacing what is shown")
    func connectionLost() {
        var s = NoticeSync()
        _ = s.show(ringing)
        _ = s.notified(id: 3)
        _ = s.show(snoozed)
        s.connectionLost()
        #expect(!s.inFlight && s.id == 3)
        #expect(s.show(ringing) == [.notify(ringing, replacing: 3)])
        _ = s.notified(id: 3)
        s.connectionLost()
        #expect(s.show(nil) == [.close(3)])
    }

    @Test("a server that answers a replacement with a new id: the old one is taken down")
    func newIDOnReplace() {
        var s = NoticeSync()
        _ = s.show(ringing)
        _ = s.notified(id: 1)
        _ = s.show(snoozed)
        #expect(s.notified(id: 2) == [.close(1)])
        #expect(s.show(nil) == [.close(2)])
    }
}
