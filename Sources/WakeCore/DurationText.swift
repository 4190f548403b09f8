/// Durations as options take them: `9m`, `30s`, `1h30m`, `500ms`, `1d2h`, or a bare `0`
/// (the span grammar of `SpanGrammar`, the same one `+SPAN` uses in WHEN).
public enum DurationText {
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var text: String
        /// What is wrong with it, in words.
        public var reason: String
        public init(text: String, reason: String = "not a duration") { self.text = text; self.reason = reason }
        public var description: String {
            "invalid duration '\(TerminalText.printable(text, limit: 40))': \(reason); use a number with units d, h, m, s or ms, largest first, as 9m, 90s, 1h30m, 500ms, 1d2h, or 0"
        }
    }

    public static func parse(_ text: String) throws(ParseError) -> Duration {
        // Longer than any span the limit allows (`3660d`, `316224000000ms`, `1d2h3m4s5ms`), with room.
        guard text.utf8.count <= 32 else { throw ParseError(text: text, reason: "too long") }
        switch SpanGrammar.parse(Substring(text), allowBareZero: true) {
        case .success(let ms): return .milliseconds(ms)
        case .failure(let e): throw ParseError(text: text, reason: e.reason)
        }
    }

    /// The shortest text `parse` reads back as the same duration (whole milliseconds).
    public static func format(_ d: Duration) -> String {
        let ms = d.milliseconds
        // Negative spans never come from `parse`; they print with a sign rather than as nothing.
        if ms < 0 { return "-" + format(.milliseconds(ms == .min ? Int64.max : -ms)) }
        if ms % 1000 != 0 { return "\(ms)ms" }
        let s = ms / 1000
        if s == 0 { return "0s" }
        var out = ""
        if s >= 3600 { out += "\(s / 3600)h" }
        if s % 3600 >= 60 { out += "\(s / 60 % 60)m" }
        if s % 60 != 0 { out += "\(s % 60)s" }
        return out
    }
}
