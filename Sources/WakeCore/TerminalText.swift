/// The one place untrusted text (names, paths, tokens, zone abbreviations, anything a user,
/// a file or another program supplied) is made safe to put on a terminal line.
///
/// Escaped, as `\xNN` (two lower-case hex digits) or `\u{NNNN}`:
/// - C0 controls U+0000–U+001F and DEL U+007F: ESC starts escape sequences, CR and BS rewrite
///   the line, LF splits it, BEL rings;
/// - C1 controls U+0080–U+009F: U+009B is a one-character CSI on terminals that honour C1;
/// - characters that reorder or break a line without being visible: the bidi marks, embeddings,
///   overrides and isolates (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and the
///   Unicode line and paragraph separators (U+2028, U+2029).
/// Everything else, backslash included, passes unchanged: escaping is for safety, not for
/// making the text reversible.
public enum TerminalText {
    /// How long a name may be inside a message before its middle is cut out: room for a whole
    /// path of the usual depth, and still one line in an 80-column terminal with the message.
    public static let nameLimit = 80

    /// Whether a scalar must be escaped before it reaches a terminal.
    public static func needsEscape(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// The escaped form of one scalar, or nil when it passes as it is.
    static func escaped(_ s: Unicode.Scalar) -> String? {
        guard needsEscape(s) else { return nil }
        let hex = String(s.value, radix: 16)
        return s.value <= 0xFF ? "\\x" + hex.leftPadded(to: 2) : "\\u{" + hex.uppercased().leftPadded(to: 4) + "}"
    }

    /// `text` with every character that could act on the terminal escaped.
    public static func escape(_ text: String) -> String {
        // Printable ASCII, nearly every name and path, passes as it is (bytes from 0x80 may start
        // a C1 control or a bidi mark, so they take the scalar-by-scalar path below).
        if !text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let e = escaped(scalar) { out += e } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// Escaped, then shortened to `limit` characters without cutting an escape in two: the
    /// form every untrusted string takes inside a message. A longer text loses its middle, marked
    /// by one "…", keeping its start (which names it) and its end (the file name of a path).
    public static func printable(_ text: String, limit: Int = nameLimit) -> String {
        // Lengths count scalars, never fewer than the characters a terminal shows, so the
        // result is never longer than `limit` characters.
        func length(_ s: Unicode.Scalar) -> Int { escaped(s)?.unicodeScalars.count ?? 1 }
        var total = 0
        for s in text.unicodeScalars {
            total += length(s)
            if total > limit { break }  // a 100 KB paste is not walked twice
        }
        if total <= limit { return escape(text) }
        guard limit > 1 else { return limit == 1 ? "…" : "" }
        let keep = limit - 1
        var head = "", tail: [Unicode.Scalar] = []
        var room = keep - keep / 2
        for s in text.unicodeScalars {
            guard length(s) <= room else { break }
            room -= length(s)
            if let e = escaped(s) { head += e } else { head.unicodeScalars.append(s) }
        }
        room = keep / 2
        for s in text.unicodeScalars.reversed() {
            guard length(s) <= room else { break }
            room -= length(s)
            tail.append(s)
        }
        var end = ""
        for s in tail.reversed() {
            if let e = escaped(s) { end += e } else { end.unicodeScalars.append(s) }
        }
        return head + "…" + end
    }

    /// A whole outgoing line, made safe as a console writes it: every control character in
    /// it escaped (newlines and tabs too, so one line stays one line), nothing shortened.
    /// Escaping leaves no control character behind, so applying it twice changes nothing more.
    public static func sanitizeLine(_ line: String) -> String { escape(line) }
}
