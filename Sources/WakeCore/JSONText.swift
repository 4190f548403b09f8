/// JSON's string syntax, for the event log, `wake list --json` and `wake next --json`: one place
/// that escapes. What it writes holds no character a terminal acts on (DEL, C1 controls and
/// bidi marks come out as `\u007f`, `\u009b`, `\u200f`), so its output goes to a terminal as
/// it is (`Console.json`), never through `TerminalText`.
public enum JSONText {
    public static func quote(_ s: String) -> String { QuotedText.quote(s, QuotedText.json) }

    /// `{"a":1,"b":"x"}` from already-encoded values, keys in the order given.
    public static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { quote($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    public static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }
}
