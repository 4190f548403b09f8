import Testing
import WakeCore

/// Untrusted strings made safe for a terminal in one place (issue 12 items 16 and 25).
@Suite("Terminal text")
struct TerminalTextTests {
    @Test("control, C1 and bidi characters are escaped", arguments: [
        ("\u{1B}[2J", "\\x1b[2J"), ("bell\u{07}", "bell\\x07"), ("two\nlines", "two\\x0alines"), ("cr\r", "cr\\x0d"),
        ("tab\t", "tab\\x09"), ("nul\0", "nul\\x00"), ("del\u{7F}", "del\\x7f"), ("csi\u{9B}31m", "csi\\x9b31m"),
        ("\u{80}\u{9F}", "\\x80\\x9f"), ("\u{202E}txt.exe", "\\u{202E}txt.exe"), ("a\u{200E}b\u{200F}", "a\\u{200E}b\\u{200F}"),
        ("\u{202A}\u{202B}\u{202C}\u{202D}", "\\u{202A}\\u{202B}\\u{202C}\\u{202D}"),
        ("\u{2066}\u{2067}\u{2068}\u{2069}", "\\u{2066}\\u{2067}\\u{2068}\\u{2069}"), ("\u{061C}", "\\u{061C}"),
        ("line\u{2028}sep\u{2029}", "line\\u{2028}sep\\u{2029}"),
        // Passed as they are: printable text, whatever its script, and the backslash.
        ("Europe/Berlin", "Europe/Berlin"), ("٧:٠٠ ü 日本 🕖", "٧:٠٠ ü 日本 🕖"), ("a\\x1b", "a\\x1b"), ("\u{A0}\u{A1}", "\u{A0}\u{A1}"),
        ("e\u{301}", "e\u{301}"), ("\u{200D}", "\u{200D}"),
    ])
    func escape(_ raw: String, _ escaped: String) {
        #expect(TerminalText.escape(raw) == escaped)
        #expect(TerminalText.sanitizeLine(raw) == escaped)
    }

    @Test("every scalar that needs escaping is escaped, and nothing that acts on a terminal is left")
    func allScalars() {
        for v in UInt32(0)...0x2100 {
            guard let s = Unicode.Scalar(v) else { continue }
            let out = TerminalText.escape(String(Character(s)))
            let dangerous = v < 0x20 || (0x7F...0x9F).contains(v) || [0x061C, 0x200E, 0x200F, 0x2028, 0x2029].contains(v)
                || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
            #expect(TerminalText.needsEscape(s) == dangerous, "U+\(String(v, radix: 16))")
            #expect(out.unicodeScalars.allSatisfy { !TerminalText.needsEscape($0) }, "U+\(String(v, radix: 16))")
        }
    }

    @Test("printable of plain text cuts the middle, keeping start and end, to the limit exactly")
    func shortened() {
        let name = String(repeating: "a", count: 2500) + String(repeating: "z", count: 2500)
        for limit in 0...200 {
            let s = TerminalText.printable(name, limit: limit)
            #expect(s.count == limit)
            if limit >= 3 {
                #expect(s.hasPrefix("a") && s.hasSuffix("z") && s.contains("…"))
            }
        }
        #expect(TerminalText.printable("short", limit: 80) == "short")
        #expect(TerminalText.printable("abcdefghij", limit: 5) == "ab…ij")
        #expect(TerminalText.printable("abcdefghij", limit: 10) == "abcdefghij")
        #expect(TerminalText.printable("abcdefghij", limit: -1) == "")
    }

    @Test("printable: escaped, then at most the limit, escapes never cut in two")
    func printable() {
        let path = "/home/me/" + String(repeating: "very-long-directory/", count: 250) + "alarm.flac"
        let p = path.printable
        #expect(p.count == TerminalText.nameLimit)
        #expect(p.hasPrefix("/home/me/"))
        #expect(p.hasSuffix("alarm.flac"))
        #expect(p.contains("…"))
        // 5,000 escapes: each kept whole or dropped whole.
        let hostile = String(repeating: "\u{1B}", count: 5000)
        for limit in [1, 2, 5, 9, 10, 11, 40, 80] {
            let s = TerminalText.printable(hostile, limit: limit)
            #expect(s.count <= limit)
            #expect(!s.unicodeScalars.contains { TerminalText.needsEscape($0) })
            let pieces = s.replacing("…", with: "").replacing("\\x1b", with: "")
            #expect(pieces.isEmpty, "limit \(limit): \(s)")
        }
        #expect("name\u{9B}".printable == "name\\x9b")
        #expect("\u{202E}gnp.exe".printable == "\\u{202E}gnp.exe")
        // Long and hostile mixed: no raw control character survives.
        let mixed = String(repeating: "ab\u{1B}[31m\u{202E}\n\u{9B}", count: 1000)
        #expect(!mixed.printable.unicodeScalars.contains { TerminalText.needsEscape($0) })
        #expect(mixed.printable.count <= TerminalText.nameLimit)
    }

    @Test("sanitizeLine escapes every control character, once")
    func sanitizeLine() {
        let line = "alarm set for 07:00 (\u{1B}]0;pwned\u{07})\n\u{9B}2J"
        let safe = TerminalText.sanitizeLine(line)
        #expect(!safe.unicodeScalars.contains { TerminalText.needsEscape($0) })
        #expect(TerminalText.sanitizeLine(safe) == safe)
        #expect(safe == "alarm set for 07:00 (\\x1b]0;pwned\\x07)\\x0a\\x9b2J")
    }

    @Test("messages quoting untrusted text use it")
    func messages() {
        let evil = "\u{1B}[2J\u{9B}\u{202E}" + String(repeating: "x", count: 5000)
        for message in [WakeSpec.ParseError(token: evil, reason: "r").description,
                        ScheduleError.inThePast(evil, local(2020, 1, 1)).description,
                        PosixTimeZoneRule.ParseError.invalid(evil).description,
                        DurationText.ParseError(text: evil).description] {
            #expect(!message.unicodeScalars.contains { TerminalText.needsEscape($0) }, "\(message.prefix(60))")
            #expect(message.count < 600, "\(message.count) characters")
        }
    }
}

