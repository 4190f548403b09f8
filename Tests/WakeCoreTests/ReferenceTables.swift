import WakeCore

/// The reference's option and key tables, made from the option table (`AlarmOption`): the
/// manual's regions between `BEGIN GENERATED name` and `END GENERATED name` comments (the
/// guide has no option table: it explains, and links to the manual). `ReferenceTablesTests`
/// checks the manual holds exactly this and rewrites it when asked (`WAKE_REGENERATE=1`).
enum ReferenceTables {
    /// A generated region: its name in the markers, and its text.
    struct Region {
        var name: String
        var text: String
    }

    static let regenerate = "WAKE_REGENERATE=1 swift test --filter ReferenceTablesTests"

    // MARK: wake.1

    static var manual: [Region] {
        [Region(name: "RING OPTIONS", text: ringOptionSummary),
         Region(name: "ADD RING OPTIONS", text: flagList),
         Region(name: "TEST RING OPTIONS", text: flagList),
         Region(name: "BUS SCHEDULE KEYS", text: keyList(AlarmOption.all(.schedule), last: "")),
         Region(name: "CHANGE RING OPTIONS", text: flagList),
         Region(name: "TIMER RING OPTIONS", text: flagList),
         Region(name: "BUS ADD KEYS", text: keyList(AlarmOption.all(.ring), last: "")),
         Region(name: "CONFIG KEYS", text: keyList(AlarmOption.all(.config), last: " ;"))]
    }

    /// Every ring option with its value and default, a column list under OPTIONS (each an
    /// `.It Fl` item, so the manual's completeness check sees it).
    static var ringOptionSummary: String {
        var lines = ["Every ring option, its value and its default:",
                     ".Bl -column \"--pre-alarm-sound\" \"DURATION[,PERCENT]\" -offset indent"]
        for o in AlarmOption.all(.ring) {
            let flags = (o.short.map { "Fl \($0) , " } ?? "") + "Fl \(o.flag.dropFirst())"
            lines.append(".It \(flags) Ta Ar \(o.valueName) Ta \(roff(o.shownDefault))")
        }
        lines.append(".El")
        return lines.joined(separator: "\n")
    }

    /// `.Fl s , Fl -sound , ... and` then the last, a few to a line.
    static var flagList: String {
        var words: [String] = []
        for o in AlarmOption.all(.ring) {
            if let short = o.short { words.append("Fl \(short)") }
            words.append("Fl \(o.flag.dropFirst())")
        }
        let last = words.removeLast()
        var lines: [String] = []
        var line = ""
        for w in words {
            let next = (line.isEmpty ? "." : line + " ") + w + " ,"
            if next.count > 96 { lines.append(line); line = "." + w + " ," } else { line = next }
        }
        if !line.isEmpty { lines.append(line) }
        return (lines + ["and", "." + last]).joined(separator: "\n")
    }

    /// `.Ql sound ,` a line each, the last followed by `last`.
    static func keyList(_ options: [AlarmOption], last: String) -> String {
        options.enumerated().map { i, o in ".Ql \(o.name)" + (i == options.count - 1 ? last : " ,") }.joined(separator: "\n")
    }

    /// Text for a roff line: a leading dot or quote escaped, backslashes doubled.
    static func roff(_ text: String) -> String {
        let escaped = text.replacingAll("\\", with: "\\e").replacingAll("-", with: "\\-")
        return escaped.first == "." || escaped.first == "'" ? "\\&" + escaped : escaped
    }

    // MARK: the regions in a file

    /// `text` with each region's body replaced by its generated text; nil when a region's markers
    /// are missing. `comment` makes a marker line (`.\" X` in roff).
    static func fill(_ text: String, _ regions: [Region], comment: (String) -> String) -> String? {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for region in regions {
            let begin = comment("BEGIN GENERATED \(region.name): from the option table, " + regenerate)
            let end = comment("END GENERATED \(region.name)")
            guard let b = lines.firstIndex(of: begin), let e = lines[(b + 1)...].firstIndex(of: end) else { return nil }
            lines.replaceSubrange((b + 1)..<e, with: region.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init))
        }
        return lines.joined(separator: "\n")
    }

    static func roffComment(_ s: String) -> String { ".\\\" " + s }
}

private extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for ch in self { if ch == target { out += replacement } else { out.append(ch) } }
        return out
    }
}
