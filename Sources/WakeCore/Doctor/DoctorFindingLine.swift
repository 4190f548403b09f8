/// A finding as one line of text and back: how the daemon's bedtime check hears the findings of
/// the child process that ran them (`BedtimeCheckProcess`). Fields apart by tabs, each escaped
/// (`\\`, `\t`, `\n`), so any text a check found passes unchanged; the alarms last, one a field.
extension DoctorFinding {
    public var line: String {
        let fields = [area.rawValue, check, status.word, fix.map { "+" + $0 } ?? "-", found] + alarms
        return fields.map(Self.escaped).joined(separator: "\t")
    }

    /// nil for a line that is not one (a library's chatter on the same pipe).
    public init?(line: String) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map { Self.unescaped(String($0)) }
        guard fields.count >= 5, let area = Area(rawValue: fields[0]),
              let status = Status.allCases.first(where: { $0.word == fields[2] }), let mark = fields[3].first,
              mark == "+" || (mark == "-" && fields[3].count == 1) else { return nil }
        self.init(area, fields[1], alarms: Array(fields[5...]), status, fields[4], fix: mark == "+" ? String(fields[3].dropFirst()) : nil)
    }

    private static func escaped(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "\\": out += "\\\\"
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            default: out.append(c)
            }
        }
        return out
    }

    private static func unescaped(_ s: String) -> String {
        var out = "", escaping = false
        for c in s {
            if escaping {
                out.append(c == "t" ? "\t" : c == "n" ? "\n" : c)
                escaping = false
            } else if c == "\\" {
                escaping = true
            } else {
                out.append(c)
            }
        }
        return out
    }
}
