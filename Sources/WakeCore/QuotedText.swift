/// The double-quoted string syntax JSON and TOML share, written once: `"` and `\` escaped, the
/// usual controls by name, and any other character the format's rules name as `\uXXXX`.
enum QuotedText {
    struct Rules: Sendable {
        /// `\r` written by name (JSON) rather than as `\u000D` (wake's TOML files).
        var namesReturn: Bool
        var mustEscape: @Sendable (Unicode.Scalar) -> Bool
        var uppercaseHex: Bool
    }

    /// JSON (RFC 8259) requires only the C0 controls escaped; wake also escapes every character
    /// a terminal acts on (DEL, the C1 controls, the bidi marks: `TerminalText.needsEscape`), so
    /// JSON printed on a terminal is safe as it is and never needs the terminal's sanitizer,
    /// whose `\x9b` would not be JSON.
    static let json = Rules(namesReturn: true, mustEscape: TerminalText.needsEscape, uppercaseHex: false)
    /// wake's TOML files: C0, DEL and C1 escaped, so the file stays readable in any editor.
    static let toml = Rules(namesReturn: false, mustEscape: TOMLSubset.mustEscape, uppercaseHex: true)

    static func quote(_ s: String, _ rules: Rules) -> String {
        // Printable ASCII but the quote and the backslash passes as it is under both rules: most
        // values (times, paths, device names) are that, and `wake add` quotes every value of a
        // long alarms file again when it rewrites it.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x5C }) { return "\"" + s + "\"" }
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r" where rules.namesReturn: out += "\\r"
            default:
                if rules.mustEscape(c) { out += "\\u" + hex4(c.value, uppercase: rules.uppercaseHex) } else { out.unicodeScalars.append(c) }
            }
        }
        return out + "\""
    }

    static func hex4(_ v: UInt32, uppercase: Bool) -> String {
        let h = String(v, radix: 16, uppercase: uppercase)
        return String(repeating: "0", count: max(0, 4 - h.count)) + h
    }
}
