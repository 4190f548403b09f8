/// Reading a file a daemon depends on without letting one mistake silence the rest: on a
/// parse error the line (or the table) it names is set aside and the rest is read again.
/// `wake add` and the one-off still refuse a broken file at once; the daemon, which nobody
/// watches, rings with what it can read and says what it set aside.
public enum TolerantParse {
    public enum Unit: Sendable {
        /// Each line stands alone (the config file).
        case line
        /// A line belongs to the `[table]` above it (the alarms file): a broken alarm is set
        /// aside whole, never read half.
        case table
    }

    /// What could be read, and each problem set aside (its line, its message). The result is
    /// nil only when nothing could be read even with every named part set aside.
    /// `unreadable`: lines already known to be broken (not UTF-8, emptied by the reader but for
    /// a table header's `[`), set aside with their unit before anything is parsed.
    public static func parse<T>(_ text: String, dropping unit: Unit, unreadable: [AlarmBook.ParseError] = [],
                                _ parse: (String) throws(AlarmBook.ParseError) -> T) -> (value: T?, problems: [AlarmBook.ParseError]) {
        // A healthy file (the usual case) is parsed as it is: splitting it into lines and joining
        // them again cost as much as the parse itself (`wake list` reads the alarms every call).
        var error: AlarmBook.ParseError
        var problems: [AlarmBook.ParseError] = []
        var lines: [String]
        if unreadable.isEmpty {
            do { return (try parse(text), []) } catch let first { error = first }
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        } else {
            lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            for broken in unreadable where lines.indices.contains(broken.line - 1) {
                problems.append(broken)
                // Its table's header and keys go with it.
                for i in range(of: broken.line - 1, in: lines, unit: unit) { lines[i] = "" }
            }
            do { return (try parse(lines.joined(separator: "\n")), problems) } catch let first { error = first }
        }
        // Each round sets aside at least one line, so this ends; the bound is for safety.
        for _ in 0...lines.count {
            problems.append(error)
            let index = error.line - 1
            guard lines.indices.contains(index) else { return (nil, problems) }
            let aside = range(of: index, in: lines, unit: unit)
            // An error on what is already set aside would never end: give up instead.
            guard aside.contains(where: { !lines[$0].isEmpty }) else { return (nil, problems) }
            for i in aside { lines[i] = "" }
            do { return (try parse(lines.joined(separator: "\n")), problems) } catch let next { error = next }
        }
        return (nil, problems)
    }

    /// The lines to set aside for an error on line `index`.
    static func range(of index: Int, in lines: [String], unit: Unit) -> Range<Int> {
        guard unit == .table else { return index..<(index + 1) }
        func isTable(_ i: Int) -> Bool { lines[i].drop { $0 == " " || $0 == "\t" }.first == "[" }
        // A key before the first table belongs to none: only its line goes.
        guard let start = (0...index).reversed().first(where: isTable) else { return index..<(index + 1) }
        let end = ((start + 1)..<lines.count).first(where: isTable) ?? lines.count
        return start..<max(end, index + 1)
    }
}
