/// JSON's string syntax, for the event log and `wake list --json`: one place that escapes.
public enum JSONText {
    public static func quote(_ s: String) -> String { QuotedText.quote(s, QuotedText.json) }

    /// `{"a":1,"b":"x"}` from already-encoded values, keys in the order given.
    public static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { quote($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    public static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }
}
