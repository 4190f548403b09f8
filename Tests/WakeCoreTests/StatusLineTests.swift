import Testing
import WakeCore

/// The status line must fit the terminal (issue 12 item 20): in a 30-column terminal the full
/// line wrapped and scrolled a new line every second.
@Suite("Status line")
struct StatusLineTests {
    static let remaining = Duration.seconds(7 * 3600 + 12 * 60 + 28)

    func line(_ width: Int?, label: String = "alarm", remaining: Duration = remaining) -> String {
        StatusLine.render(label: label, deadline: "07:00:00", remaining: remaining, now: "23:47:32", width: width)
    }

    @Test("the full form when the width is unknown, zero, or enough")
    func full() {
        let full = "alarm 07:00:00 | in 7h 12m 28s | now 23:47:32"
        #expect(line(nil) == full)
        #expect(line(0) == full)
        #expect(line(-3) == full)
        #expect(line(120) == full)
        #expect(line(full.count + 1) == full)
        #expect(line(full.count) != full)  // the last column stays empty
    }

    @Test("shorter forms as the terminal narrows")
    func forms() {
        #expect(line(30) == "07:00:00 | in 7h 12m 28s")
        #expect(line(40) == "alarm 07:00:00 | in 7h 12m 28s")
        #expect(line(22) == "07:00:00 in 7h12m28s")
        #expect(line(12) == "7h12m28s")
        #expect(line(7) == "7h12m")
        #expect(line(4) == "7h")
        #expect(line(3) == "7h")
        #expect(line(2) == "…")
        #expect(line(1) == "")
        #expect(line(80, label: "snoozed until") == "snoozed until 07:00:00 | in 7h 12m 28s | now 23:47:32")
    }

    @Test("every width from 1 to 120 gets a line of at most width - 1 columns, the longest that fits")
    func everyWidth() {
        for remaining in [Self.remaining, .seconds(5), .zero, .milliseconds(300), .seconds(3 * 86_400 + 1), .seconds(-10),
                          .seconds(Int64.max)] {
            for label in ["alarm", "snoozed until", "\u{1B}[2J" + String(repeating: "L", count: 200)] {
                var previous = 0
                for width in 1...120 {
                    let s = line(width, label: label, remaining: remaining)
                    #expect(s.count <= width - 1, "width \(width): \(s)")
                    #expect(s.count >= previous, "width \(width): shorter than at a narrower width")
                    #expect(!s.unicodeScalars.contains { TerminalText.needsEscape($0) })
                    previous = s.count
                }
            }
        }
    }
}
