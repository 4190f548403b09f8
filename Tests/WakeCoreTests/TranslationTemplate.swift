import Foundation

/// po/wake.pot made from the code: every `localized("...")` under Sources/, its English text the
/// msgid, each file it is in a reference. `TranslationTemplateTests` checks po/ against it and
/// rewrites the template when asked (`WAKE_REGENERATE=1`); a translator then runs `make po`
/// (msgmerge) to bring each catalogue up to it.
enum TranslationTemplate {
    static let regenerate = "WAKE_REGENERATE=1 swift test --filter TranslationTemplateTests"
    static let call = "localized("

    struct Message: Equatable {
        var id: String
        var files: [String]
    }

    enum Problem: Error, CustomStringConvertible {
        case notLiteral(file: String, line: Int)
        var description: String {
            switch self {
            case .notLiteral(let file, let line):
                "\(file):\(line): localized( takes a string literal first (one line, or a \"\"\" one; no #\"...\"#), "
                    + "so po/wake.pot can be made from it"
            }
        }
    }

    /// The messages of `sources` (path, text), in the order first met.
    static func messages(_ sources: [(path: String, text: String)]) throws -> [Message] {
        var found: [Message] = []
        for (path, text) in sources {
            var lineNumber = 0
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
            while let line = lines.popFirst() {
                lineNumber += 1
                let code = line.drop { $0 == " " }
                if code.hasPrefix("//") { continue }
                var rest = line[...]
                while let r = rest.range(of: call) {
                    defer { rest = rest[r.upperBound...] }
                    if let before = line[..<r.lowerBound].last, before.isLetter || before.isNumber || before == "_" { continue }
                    if line[..<r.lowerBound].hasSuffix("func ") { continue }
                    let after = line[r.upperBound...]
                    let id: String?
                    if after.hasPrefix("\"\"\"") {
                        let before = lines.count
                        id = multiLineLiteral(&lines)
                        lineNumber += before - lines.count
                    } else {
                        id = literal(at: after)
                    }
                    guard let id else { throw Problem.notLiteral(file: path, line: lineNumber) }
                    if let i = found.firstIndex(where: { $0.id == id }) {
                        if !found[i].files.contains(path) { found[i].files.append(path) }
                    } else {
                        found.append(Message(id: id, files: [path]))
                    }
                }
            }
        }
        return found
    }

    /// A `\"\"\"` literal whose lines follow (taken from `lines`), its closing line's indentation
    /// taken off each and a `\\` at a line's end joining it to the next, as Swift reads it.
    static func multiLineLiteral(_ lines: inout ArraySlice<Substring>) -> String? {
        var body: [Substring] = []
        while let line = lines.popFirst() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("\"\"\"") {
                let indent = line.count - trimmed.count
                var out = ""
                for (i, l) in body.enumerated() {
                    let text = l.dropFirst(min(indent, l.prefix { $0 == " " }.count))
                    if text.hasSuffix("\\") && !text.hasSuffix("\\\\") {
                        out += text.dropLast()
                    } else {
                        out += text + (i == body.count - 1 ? "" : "\n")
                    }
                }
                return literal(at: Substring("\"" + out.replacingOccurrences(of: "\"", with: "\\\"") + "\""))
            }
            body.append(line)
        }
        return nil
    }

    /// The string a Swift literal at the start of `text` holds (its escapes read); nil when there is none.
    static func literal(at text: Substring) -> String? {
        guard text.first == "\"", !text.hasPrefix("\"\"\"") else { return nil }
        var out = ""
        var i = text.index(after: text.startIndex)
        while i < text.endIndex {
            let c = text[i]
            if c == "\"" { return out }
            if c == "\\" {
                i = text.index(after: i)
                guard i < text.endIndex else { return nil }
                switch text[i] {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "0": out.append("\0")
                case "\"", "\\", "'": out.append(text[i])
                case "u":
                    guard let close = text[i...].firstIndex(of: "}"),
                          let v = UInt32(text[text.index(i, offsetBy: 2)..<close], radix: 16), let s = Unicode.Scalar(v) else { return nil }
                    out.unicodeScalars.append(s)
                    i = close
                default: return nil  // an interpolation cannot be a msgid
                }
            } else {
                out.append(c)
            }
            i = text.index(after: i)
        }
        return nil
    }

    static let header = """
        # wake's messages for translators, made from the code: do not edit, remake it with
        # \(regenerate)
        # and bring a catalogue up to it with 'make po'. A {name} in braces is a value wake fills in:
        # keep each one (in any order) and translate the rest.
        msgid ""
        msgstr ""
        "Project-Id-Version: wake\\n"
        "MIME-Version: 1.0\\n"
        "Content-Type: text/plain; charset=UTF-8\\n"
        "Content-Transfer-Encoding: 8bit\\n"

        """

    static func template(_ messages: [Message]) -> String {
        header + "\n" + messages.map { m in
            m.files.map { "#: \($0)\n" }.joined() + "msgid " + quoted(m.id) + "\nmsgstr \"\"\n"
        }.joined(separator: "\n")
    }

    /// A PO string: one line, or (with a newline in it) an empty first line and one per line.
    static func quoted(_ s: String) -> String {
        func escape(_ part: String) -> String {
            "\"" + part.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
                .replacingOccurrences(of: "\t", with: "\\t").replacingOccurrences(of: "\n", with: "\\n") + "\""
        }
        guard s.contains("\n") else { return escape(s) }
        var parts: [String] = []
        var current = ""
        for c in s {
            current.append(c)
            if c == "\n" { parts.append(current); current = "" }
        }
        if !current.isEmpty { parts.append(current) }
        return "\"\"\n" + parts.map(escape).joined(separator: "\n")
    }

    // MARK: - Reading a catalogue

    struct Entry {
        var id: String
        var translation: String
        var fuzzy: Bool
    }

    /// The entries of a PO file (the header's left out); nil when it cannot be read as one.
    static func entries(ofPO text: String) -> [Entry]? {
        var entries: [Entry] = []
        var fuzzy = false
        var target: WritableKeyPath<(String?, String?), String?>?
        var pair: (String?, String?) = (nil, nil)
        func finish() {
            if let i = pair.0, let t = pair.1, !i.isEmpty { entries.append(Entry(id: i, translation: t, fuzzy: fuzzy)) }
            pair = (nil, nil); fuzzy = false; target = nil
        }
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty { finish(); continue }
            if line.hasPrefix("#,") { if line.contains("fuzzy") { fuzzy = true }; continue }
            if line.hasPrefix("#") { continue }
            var rest = Substring(line)
            if line.hasPrefix("msgid ") { if pair.1 != nil { finish() }; target = \.0; rest = rest.dropFirst(6); pair.0 = "" }
            else if line.hasPrefix("msgstr ") { target = \.1; rest = rest.dropFirst(7); pair.1 = "" }
            guard let target, rest.hasPrefix("\""), rest.hasSuffix("\""), rest.count >= 2,
                  let part = unescapePO(rest.dropFirst().dropLast()) else { return nil }
            pair[keyPath: target]! += part
        }
        finish()
        return entries
    }

    static func unescapePO(_ s: Substring) -> String? {
        var out = "", escaped = false
        for c in s {
            if escaped {
                switch c {
                case "n": out.append("\n")
                case "t": out.append("\t")
                case "\\", "\"": out.append(c)
                default: return nil
                }
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        return escaped ? nil : out
    }
}
