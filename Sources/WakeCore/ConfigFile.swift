/// The config file of defaults, `$XDG_CONFIG_HOME/wake/config.toml`: top-level `key = value`
/// lines of TOML, keys named after the long options (`fade-in`, or `fade_in`), values as on the
/// command line (`volume = 60` or `volume = "60"`, `snooze = "5m"`). Read with the same strict
/// TOML subset as the alarms file, plus whole numbers and booleans; the values are then checked
/// by the command line's own rules, so a config file can say nothing the command line could not.
public enum ConfigFile {
    public struct Entry: Equatable, Sendable {
        /// The long option's name, with dashes (`fade-in`).
        public var key: String
        /// The value as the command line would take it.
        public var value: String
        /// Where it was written (1-based).
        public var line: Int
        public init(key: String, value: String, line: Int) { self.key = key; self.value = value; self.line = line }
    }

    public typealias ParseError = AlarmBook.ParseError

    /// Reads `text`, accepting only `known` keys. Throws naming the line, and the key where there
    /// is one: malformed lines, tables, unknown or repeated keys, arrays.
    public static func parse(_ text: String, known: Set<String>) throws(ParseError) -> [Entry] {
        var entries: [Entry] = []
        for (number, scalars) in TOMLSubset.lines(text) {
            switch try TOMLSubset.parseLine(scalars, number: number, scalars: true) {
            case .blank:
                continue
            case .table(let parts):
                throw ParseError(line: number, message: "tables ([\(parts.joined(separator: "."))]) are not part of the config file; write 'key = value' lines at the top level")
            case .pair(let written, let value):
                let key = String(written.map { $0 == "_" ? "-" : $0 })
                guard known.contains(key) else {
                    throw ParseError(line: number, message: "unknown key '\(written)'; known keys: \(known.sorted().joined(separator: ", "))")
                }
                if let first = entries.first(where: { $0.key == key }) {
                    throw ParseError(line: number, message: "key '\(written)' is set again (first on line \(first.line)); keep one")
                }
                let text: String
                switch value {
                case .string(let s): text = s
                case .integer(let n): text = String(n)
                case .boolean(let b): text = b ? "true" : "false"
                case .array(let items):
                    // Only a list of files (`skip-days`) takes several values.
                    guard AlarmOption.named(key)?.kind.isList == true else {
                        throw ParseError(line: number, message: "'\(written)' takes one value, not an array")
                    }
                    guard !items.isEmpty, !items.contains(where: { $0.isEmpty || $0.contains(AlarmOption.listSeparator) }) else {
                        throw ParseError(line: number, message: "'\(written)' takes one or more values, each not empty")
                    }
                    text = items.joined(separator: String(AlarmOption.listSeparator))
                }
                entries.append(Entry(key: key, value: text, line: number))
            }
        }
        return entries
    }
}
