/// Durations as options take them: `9m`, `30s`, `1h30m`, `500ms`, or a bare number of seconds.
public enum DurationText {
    public struct ParseError: Error, Equatable, CustomStringConvertible {
        public var text: String
        public var description: String {
            "invalid duration '\(text.printable)'; use a number with units h, m, s or ms, as 9m, 90s, 1h30m, 500ms"
        }
    }

    public static func parse(_ text: String) throws(ParseError) -> Duration {
        let fail = ParseError(text: text)
        guard !text.isEmpty, text.count <= 32, text.allSatisfy({ $0.isASCII }) else { throw fail }
        if text.allSatisfy(\.isNumber) {
            guard let n = Int64(text), n <= WakeSpec.maximumRelativeSeconds else { throw fail }
            return .seconds(n)
        }
        let units: [(String, Int64)] = [("h", 3_600_000), ("ms", 1), ("m", 60_000), ("s", 1000)]
        var rest = Substring(text.lowercased())
        var totalMs: Int64 = 0
        var seen = Set<String>()
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isNumber }
            guard !digits.isEmpty, digits.count <= 12, let n = Int64(digits) else { throw fail }
            rest = rest[digits.endIndex...]
            guard let (unit, scale) = units.first(where: { rest.hasPrefix($0.0) }), !seen.contains(unit) else { throw fail }
            seen.insert(unit)
            rest = rest.dropFirst(unit.count)
            totalMs += n * scale
            guard totalMs <= WakeSpec.maximumRelativeSeconds * 1000 else { throw fail }
        }
        return .milliseconds(totalMs)
    }

    /// The shortest text `parse` reads back as the same duration.
    public static func format(_ d: Duration) -> String {
        let ms = d.milliseconds
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
