import Testing
import WakeCore

/// The daemon's bedtime check (issue 39): when an alarm is checked, what its findings become, and
/// that no problem of an alarm is notified twice for one occurrence.
@Suite("Bedtime check: the ledger")
struct BedtimeLedgerTests {
    let monday = utc(2026, 11, 30, 6, 30)
    let tuesday = utc(2026, 12, 1, 6, 30)

    static let mutedOff = DoctorFinding(.sound, "sound.sink", alarms: ["work"], .fail,
                                        "the default sink 'Speakers' (speaker) is muted (100 %), and --mixer off leaves it so: the alarm will not be heard",
                                        fix: "unmute it ('pactl set-sink-mute @DEFAULT_SINK@ 0'), or let wake guard it (--mixer auto)")
    static let mutedGuarded = DoctorFinding(.sound, "sound.sink", alarms: ["work"], .warn,
                                            "the default sink 'Speakers' (speaker) is muted (100 %): the mixer guard unmutes it while ringing, and puts it back",
                                            fix: "nothing is needed for the alarm")
    static let unmuted = DoctorFinding(.sound, "sound.sink", alarms: ["work"], .pass, "the default sink 'Speakers' (speaker) is unmuted at 100 %")
    static let device = DoctorFinding(.sound, "sound.device", alarms: ["work"], .pass, "device 'default' opens (S16_LE)")
    static let gone = DoctorFinding(.sound, "sound.device", alarms: ["work"], .fail, "cannot ring on device 'hw:9': no such card",
                                    fix: "connect the device")
    static let noButtons = DoctorFinding(.notifications, "notifications.server", .warn, "the notification server shows no buttons",
                                         fix: "stop with a key")

    @Test("the lead: --notice-before's, or 2 h when the notices are off; the moment: the advance notice's")
    func when() {
        #expect(BedtimeLedger.lead(noticeBefore: .seconds(1800)) == .seconds(1800))
        #expect(BedtimeLedger.lead(noticeBefore: .zero) == .seconds(7200), "--notice-before 0: still 2 h before")
        let lead = BedtimeLedger.lead(noticeBefore: .zero)
        #expect(BedtimeLedger.due(occurrence: monday, lead: lead, now: monday - .seconds(10 * 3600)) == monday - .seconds(7200))
        #expect(BedtimeLedger.due(occurrence: monday, lead: lead, now: monday - .seconds(600)) == monday - .seconds(600),
                "an alarm nearer than the lead: at once")
        #expect(BedtimeLedger.due(occurrence: monday, lead: lead, now: monday - .seconds(20)) == nil,
                "not in the last half minute: the pre-roll is about to open the device")
        #expect(BedtimeLedger.due(occurrence: monday, lead: lead, now: monday + .seconds(1)) == nil)
    }

    @Test("a FAIL: said and notified; checked again for the same occurrence: said again, not notified again")
    func failOnce() {
        var ledger = BedtimeLedger()
        let first = ledger.record(alarm: "work", occurrence: monday, findings: [Self.device, Self.mutedOff, Self.noButtons])
        #expect(first.said == [Self.mutedOff, Self.noButtons])
        #expect(first.notify == [Self.mutedOff])
        #expect(first.cleared.isEmpty)
        // A change of the files, then the advance-notice moment: the same problem twice more.
        for _ in 0..<2 {
            let again = ledger.record(alarm: "work", occurrence: monday, findings: [Self.device, Self.mutedOff, Self.noButtons])
            #expect(again.said == [Self.mutedOff, Self.noButtons], "each check is said")
            #expect(again.notify.isEmpty, "never notified twice")
        }
    }

    @Test("the same problem found in other words (the sink's level moved) is not notified again")
    func otherWordsSameProblem() {
        var ledger = BedtimeLedger()
        _ = ledger.record(alarm: "work", occurrence: monday, findings: [Self.mutedOff])
        var lower = Self.mutedOff
        lower.found = "the default sink 'Speakers' (speaker) is muted (40 %), and --mixer off leaves it so: the alarm will not be heard"
        let again = ledger.record(alarm: "work", occurrence: monday, findings: [lower])
        #expect(again.said == [lower], "said again, in its new words")
        #expect(again.notify.isEmpty)
    }

    @Test("a WARN is said, never notified")
    func warnNotNotified() {
        var ledger = BedtimeLedger()
        let o = ledger.record(alarm: "work", occurrence: monday, findings: [Self.device, Self.mutedGuarded])
        #expect(o.said == [Self.mutedGuarded] && o.notify.isEmpty)
    }

    @Test("a new problem of the same alarm is notified; the same problem of another alarm is that alarm's own")
    func perProblemAndAlarm() {
        var ledger = BedtimeLedger()
        _ = ledger.record(alarm: "work", occurrence: monday, findings: [Self.mutedOff])
        let second = ledger.record(alarm: "work", occurrence: monday, findings: [Self.gone])
        #expect(second.notify == [Self.gone])
        var other = Self.mutedOff
        other.alarms = ["gym"]
        let gym = ledger.record(alarm: "gym", occurrence: monday + .seconds(3600), findings: [other])
        #expect(gym.notify == [other])
    }

    @Test("cleared and back before the same occurrence: the same problem, not notified again; 'now passes' said once")
    func clearsAndComesBack() {
        var ledger = BedtimeLedger()
        _ = ledger.record(alarm: "work", occurrence: monday, findings: [Self.mutedOff])
        let fixed = ledger.record(alarm: "work", occurrence: monday, findings: [Self.unmuted])
        #expect(fixed.cleared == [Self.unmuted] && fixed.said.isEmpty && fixed.notify.isEmpty)
        let still = ledger.record(alarm: "work", occurrence: monday, findings: [Self.unmuted])
        #expect(still.cleared.isEmpty, "said once, when it clears")
        let back = ledger.record(alarm: "work", occurrence: monday, findings: [Self.mutedOff])
        #expect(back.said == [Self.mutedOff] && back.notify.isEmpty)
    }

    @Test("the next occurrence is a new bedtime: a problem still there is notified again")
    func nextNight() {
        var ledger = BedtimeLedger()
        _ = ledger.record(alarm: "work", occurrence: monday, findings: [Self.mutedOff])
        let tomorrow = ledger.record(alarm: "work", occurrence: tuesday, findings: [Self.mutedOff])
        #expect(tomorrow.notify == [Self.mutedOff])
        // What was notified belongs to one occurrence: a check for another finds nothing notified yet.
        #expect(ledger.record(alarm: "work", occurrence: monday, findings: [Self.mutedOff]).notify == [Self.mutedOff])
    }

    @Test("a WARN that becomes a FAIL is notified; a FAIL that becomes a WARN is not 'cleared'")
    func warnToFail() {
        var ledger = BedtimeLedger()
        #expect(ledger.record(alarm: "work", occurrence: monday, findings: [Self.mutedGuarded]).notify.isEmpty)
        #expect(ledger.record(alarm: "work", occurrence: monday, findings: [Self.mutedOff]).notify == [Self.mutedOff])
        let warn = ledger.record(alarm: "work", occurrence: monday, findings: [Self.mutedGuarded])
        #expect(warn.cleared.isEmpty && warn.said == [Self.mutedGuarded])
    }

    @Test("a removed alarm is forgotten: added again, its problem is news")
    func forgotten() {
        var ledger = BedtimeLedger()
        _ = ledger.record(alarm: "work", occurrence: monday, findings: [Self.mutedOff])
        ledger.keep(only: ["gym"])
        #expect(ledger.record(alarm: "work", occurrence: monday, findings: [Self.mutedOff]).notify == [Self.mutedOff])
    }

    @Test("the journal line and the notification")
    func said() {
        #expect(BedtimeLedger.line(alarm: "work", at: "06:30", Self.mutedOff)
                == "bedtime check: alarm 'work' at 06:30: FAIL sound.sink: \(Self.mutedOff.found); fix: \(Self.mutedOff.fix ?? "")")
        #expect(BedtimeLedger.line(alarm: "work", at: "06:30", Self.unmuted)
                == "bedtime check: alarm 'work' at 06:30: sound.sink now passes: \(Self.unmuted.found)")
        #expect(BedtimeLedger.line(alarm: "w\u{1b}[2J", at: "06:30", Self.noButtons).contains("\u{1b}") == false)
        let n = BedtimeLedger.notice(alarm: "06:30 (work)", failures: [Self.mutedOff, Self.gone])
        #expect(n.summary == "Alarm at 06:30 (work) may be silent")
        #expect(n.body == DesktopNotice.markup(Self.mutedOff.found) + "\n" + DesktopNotice.markup("Fix: " + (Self.mutedOff.fix ?? ""))
                + "\n" + "cannot ring on device 'hw:9': no such card\nFix: connect the device")
        #expect(n.buttons.isEmpty && n.urgency == .normal && !n.resident)
        #expect(BedtimeLedger.notice(alarm: "06:30 (work)", failures: [DoctorFinding(.sound, "x", .fail, "a <b> & c")]).body == "a &lt;b&gt; &amp; c")
    }
}
