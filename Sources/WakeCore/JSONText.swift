/// JSON's string syntax, for the event log and `wake list --json`: one place that escapes.
public enum JSONText {
    public static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 { out += u.value < 0x10 ? "\\u000" : "\\u001"; out += String(u.value % 16, radix: 16) }
                else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }

    /// `{"a":1,"b":"x"}` from already-encoded values, keys in the order given.
    public static func object(_ fields: [(String, String)]) -> String {
        "{" + fields.map { quote($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    public static func array(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }
}
