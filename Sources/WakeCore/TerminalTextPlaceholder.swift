// Placeholder until the core's TerminalText lands (helper branch h-core).
public enum TerminalText {
    public static func sanitizeLine(_ line: String) -> String {
        var out = ""
        for u in line.unicodeScalars {
            if u.value < 0x20 || (0x7F...0x9F).contains(u.value) { out += "\\x" + String(u.value, radix: 16) } else { out.unicodeScalars.append(u) }
        }
        return out
    }
}
