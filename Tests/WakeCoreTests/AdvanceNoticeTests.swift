import Testing
import WakeCore

/// `--notice-before`: when the notice before a standing alarm shows, and what the notices say.
@Suite("Advance notice")
struct AdvanceNoticeTests {
    let at = utc(2026, 11, 25, 6, 30)

    @Test("lead before the occurrence; now when that has passed; never once it is past, or with 0")
    func due() {
        let twoHours = AdvanceNotice.defaultLead
        #expect(AdvanceNotice.due(occurrence: at, lead: twoHours, now: utc(2026, 11, 24, 23)) == utc(2026, 11, 25, 4, 30))
        #expect(AdvanceNotice.due(occurrence: at, lead: twoHours, now: utc(2026, 11, 25, 5)) == utc(2026, 11, 25, 5))
        #expect(AdvanceNotice.due(occurrence: at, lead: twoHours, now: at) == nil)
        #expect(AdvanceNotice.due(occurrence: at, lead: .zero, now: utc(2026, 11, 24, 23)) == nil)
        // Moments before the ring, a notice is noise: not within the last half minute (or half the lead).
        #expect(AdvanceNotice.due(occurrence: at, lead: twoHours, now: at - .seconds(29)) == nil)
        #expect(AdvanceNotice.due(occurrence: at, lead: .seconds(10), now: at - .seconds(30)) == at - .seconds(10))
        #expect(AdvanceNotice.due(occurrence: at, lead: .seconds(10), now: at - .seconds(10)) == at - .seconds(10), "at its time")
        #expect(AdvanceNotice.due(occurrence: at, lead: .seconds(10), now: at - .seconds(4)) == nil)
    }

    @Test("before: 'Alarm at 06:30 (work)', the message as the body, one Skip button, dismissable")
    func before() {
        let n = AdvanceNotice.before(alarm: "06:30 (work)", message: "Stand-up <9>")
        #expect(n.summary == "Alarm at 06:30 (work)")
        #expect(n.body == "Stand-up &lt;9&gt;")
        #expect(n.buttons == [.init(key: "skip", label: "Skip")])
        #expect(n.urgency == .normal && !n.resident)
        #expect(AdvanceNotice.before(alarm: "06:30 (work)", message: nil).body == "")
    }

    @Test("missed: said with the day and why, kept on screen, no buttons")
    func missed() {
        let n = AdvanceNotice.missed(alarm: "06:30 (work)", day: "today", message: "Stand-up")
        #expect(n.summary == "Missed alarm at 06:30 (work)")
        #expect(n.body == "Stand-up\nIt did not ring today: the machine was asleep or off past its late limit.")
        #expect(n.buttons.isEmpty && n.resident)
    }

    @Test("missed at once: one alarm's own notice; several folded into one, two named and the count of the rest")
    func missedFolded() {
        let a = AdvanceNotice.Missed(alarm: "06:30 (a)", day: "yesterday", message: "Train")
        let b = AdvanceNotice.Missed(alarm: "07:00 (b)", day: "today", message: nil)
        let c = AdvanceNotice.Missed(alarm: "07:15 (c\u{1b}[2J)", day: "today", message: nil)
        #expect(AdvanceNotice.missed([]) == nil)
        #expect(AdvanceNotice.missed([a]) == AdvanceNotice.missed(alarm: "06:30 (a)", day: "yesterday", message: "Train"))
        let two = AdvanceNotice.missed([a, b])
        #expect(two?.summary == "Missed 2 alarms: 06:30 (a) and 07:00 (b)")
        #expect(two?.body == "None of them rang between yesterday and today: the machine was asleep or off past their late limits.")
        #expect(two?.buttons.isEmpty == true && two?.resident == true && two?.urgency == .normal)
        let forty = AdvanceNotice.missed([b, c] + Array(repeating: a, count: 38))
        #expect(forty?.summary == "Missed 40 alarms: 07:00 (b), \(TerminalText.printable("07:15 (c\u{1b}[2J)")) and 38 more")
        #expect(forty?.summary.contains("\u{1b}") == false, "escaped: \(String(describing: forty))")
        #expect(forty?.body.contains("between today and yesterday") == true, "the first and the last as given: \(String(describing: forty))")
        let three = AdvanceNotice.missed([b, c, b])
        #expect(three?.summary.hasSuffix(" and 1 more") == true && three?.body.contains("rang today:") == true, "\(String(describing: three))")
    }
}
