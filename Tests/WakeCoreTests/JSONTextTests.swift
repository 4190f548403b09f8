import Testing
import WakeCore

/// JSON's strings, written once (issue 37 item 12): what a terminal would act on comes out as a
/// JSON escape, so `wake list --json` on a terminal is both safe and valid JSON.
@Suite("JSON text")
struct JSONTextTests {
    @Test("DEL, the C1 controls, the bidi marks and the line separators are \\u escapes", arguments: [
        ("del\u{7F}", "\"del\\u007f\""), ("csi\u{9B}31m", "\"csi\\u009b31m\""), ("\u{80}\u{9F}", "\"\\u0080\\u009f\""),
        ("שלום\u{200F}", "\"שלום\\u200f\""), ("a\u{200E}b", "\"a\\u200eb\""), ("\u{202E}txt.exe", "\"\\u202etxt.exe\""),
        ("\u{2066}\u{2069}", "\"\\u2066\\u2069\""), ("\u{061C}", "\"\\u061c\""), ("l\u{2028}p\u{2029}", "\"l\\u2028p\\u2029\""),
        // The C0 controls, as JSON requires, the usual ones by name.
        ("\u{1B}[2J", "\"\\u001b[2J\""), ("nul\0", "\"nul\\u0000\""), ("a\nb\tc\rd", "\"a\\nb\\tc\\rd\""),
        ("say \"hi\" \\ bye", "\"say \\\"hi\\\" \\\\ bye\""),
        // Printable text in any script passes as it is.
        ("٧:٠٠ ü 日本 🕖", "\"٧:٠٠ ü 日本 🕖\""), ("\u{A0}e\u{301}\u{200D}", "\"\u{A0}e\u{301}\u{200D}\""),
    ])
    func quote(_ raw: String, _ json: String) {
        #expect(JSONText.quote(raw) == json)
    }

    @Test("no scalar a terminal acts on is left, so the terminal's sanitizer would change nothing")
    func terminalSafe() {
        for v in UInt32(0)...0x2100 {
            guard let s = Unicode.Scalar(v) else { continue }
            let q = JSONText.quote("x" + String(Character(s)) + "y")
            #expect(q.unicodeScalars.allSatisfy { !TerminalText.needsEscape($0) }, "U+\(String(v, radix: 16))")
            #expect(TerminalText.sanitizeLine(q) == q, "U+\(String(v, radix: 16))")
            // Only JSON's own escapes: `\x` (the sanitizer's) is not one.
            #expect(!q.contains("\\x"), "U+\(String(v, radix: 16))")
        }
    }

    @Test("objects and arrays are assembled from encoded values, keys quoted too")
    func documents() {
        let doc = JSONText.object([("id", JSONText.quote("w\u{9B}")), ("n", "1"), ("k\u{200F}", JSONText.array(["true", "null"]))])
        #expect(doc == "{\"id\":\"w\\u009b\",\"n\":1,\"k\\u200f\":[true,null]}")
        #expect(JSONText.array([]) == "[]")
    }
}
