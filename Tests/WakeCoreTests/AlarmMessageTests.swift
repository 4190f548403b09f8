import Testing
import WakeCore

/// `--message`: one rule for its length, escaped wherever it is shown.
@Suite("Alarm message")
struct AlarmMessageTests {
    @Test("up to 120 characters is a message; 121 is refused, naming the limit; so is an empty one")
    func limit() throws {
        #expect(AlarmMessage.problem("Dentist at 9") == nil)
        #expect(AlarmMessage.problem(String(repeating: "é", count: 120)) == nil, "characters count, not bytes")
        let why = try #require(AlarmMessage.problem(String(repeating: "x", count: 121)))
        #expect(why.contains("121 characters") && why.contains("limit of 120"), "\(why)")
        #expect(!why.contains("\n"))
        #expect(AlarmMessage.problem("") != nil)
        #expect(AlarmMessage.problem("   ") != nil)
    }

    @Test("the console suffix is escaped: no control character or bidi mark reaches the terminal")
    func suffix() {
        #expect(AlarmMessage.suffix(nil) == "")
        #expect(AlarmMessage.suffix("Dentist") == ": Dentist")
        #expect(AlarmMessage.suffix("a\u{1B}[2Jb\nc\u{202E}d") == ": a\\x1b[2Jb\\x0ac\\u{202E}d")
    }

    @Test("the notification: the message opens the body, escaped as markup; the summary keeps the time")
    func notice() {
        let n = DesktopNotice.make(.ringing(since: "07:00:02"), alarm: "07:00", snooze: .seconds(540), message: "Dentist <b>&</b>\u{7}")
        #expect(n.summary == "Alarm 07:00")
        #expect(n.body == "Dentist &lt;b&gt;&amp;&lt;/b&gt;\\x07\nRinging since 07:00:02.")
        let plain = DesktopNotice.make(.snoozed(until: "07:09"), alarm: "07:00", snooze: .seconds(540), message: nil)
        #expect(plain.body == "Rings again at 07:09.")
    }

    @Test("alarms.toml keeps a message like the other options, escapes and all")
    func roundTrip() throws {
        var a = alarm("work")
        a.options = ["message": "Stand-up \"now\"\n\u{1B}", "volume": "80"]
        let text = AlarmBook.serialize([a])
        #expect(text.contains("message = \"Stand-up \\\"now\\\"\\n\\u001B\"\n"), "\(text)")
        #expect(try AlarmBook.parse(text) == [a])
        #expect(AlarmBook.header.contains("message ="))
    }
}
