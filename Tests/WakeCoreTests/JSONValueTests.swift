import Testing
import WakeCore

/// JSON written once (issue 37 item 12, issue 50): what a terminal would act on comes out as a
/// JSON escape, so `wake list --json` on a terminal is both safe and valid JSON; every `--json`
/// and the event log are one typed value and one writer.
@Suite("JSON value")
struct JSONValueTests {
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
        #expect(JSONValue.string(raw).text == json)
    }

    @Test("no scalar a terminal acts on is left, so the terminal's sanitizer would change nothing")
    func terminalSafe() {
        for v in UInt32(0)...0x2100 {
            guard let s = Unicode.Scalar(v) else { continue }
            let q = JSONValue.object([("k" + String(Character(s)), .string("x" + String(Character(s)) + "y"))]).text
            #expect(q.unicodeScalars.allSatisfy { !TerminalText.needsEscape($0) }, "U+\(String(v, radix: 16))")
            #expect(TerminalText.sanitizeLine(q) == q, "U+\(String(v, radix: 16))")
            // Only JSON's own escapes: `\x` (the sanitizer's) is not one.
            #expect(!q.contains("\\x"), "U+\(String(v, radix: 16))")
        }
    }

    @Test("objects keep their keys in the order given, keys escaped too; no space anywhere")
    func documents() {
        let doc = JSONValue.object([("id", .string("w\u{9B}")), ("n", .int(1)), ("k\u{200F}", .array([.bool(true), .null])),
                                    ("a", .object([])), ("b", .array([]))])
        #expect(doc.text == "{\"id\":\"w\\u009b\",\"n\":1,\"k\\u200f\":[true,null],\"a\":{},\"b\":[]}")
        #expect(JSONValue.optional(nil as String?) == .null && JSONValue.optional(7 as Int?) == .int(7))
    }

    @Test("fixed-point numbers: exactly their places, the sign once; the event log's milliseconds to the microsecond",
          arguments: [
              (JSONValue.fixed(412, places: 3), "0.412"), (.fixed(-3000, places: 3), "-3.000"), (.fixed(-4, places: 1), "-0.4"),
              (.fixed(0, places: 1), "0.0"), (.fixed(7, places: 0), "7"), (.fixed(Int64.min, places: 3), "-9223372036854775.808"),
              (.milliseconds(.nanoseconds(412_499)), "0.412"), (.milliseconds(.nanoseconds(412_500)), "0.413"),
              (.milliseconds(.nanoseconds(-2_999_500)), "-3.000"), (.milliseconds(.seconds(2)), "2000.000"),
          ])
    func fixed(_ value: JSONValue, _ text: String) {
        #expect(value.text == text)
    }
}
