/// A folder or an M3U/M3U8 list given as the sound (`-s DIR`, `-s LIST.m3u`): which paths it
/// names, by rules written once and tested without a file. Reading the folder or the list is
/// the system layer's; this only decides.
public enum SoundList {
    /// What `-s PATH` is, by what the path is on disk and its name.
    public enum Kind: Sendable, Equatable {
        case file, folder, playlist
    }

    /// The most entries a folder or a list is taken with: more are left out, and said.
    public static let maxEntries = 1000

    /// The most missing files of a list named one by one; more are said as one line with a count.
    public static let missingNamed = 3

    /// A list's entries that do not exist, as warnings end (each line says they are left out):
    /// one line each when they are few, else one line with the count and the first few names,
    /// so a list of 5,000 moved files is one line, not 5,000.
    public static func missingLines(_ missing: [String]) -> [String] {
        func quoted(_ path: String) -> String { "'" + TerminalText.printable(path) + "'" }
        guard missing.count > missingNamed else { return missing.map { quoted($0) + ": no such file; it is left out" } }
        let named = missing.prefix(missingNamed).map(quoted).joined(separator: "; ")
        return ["\(grouped(missing.count)) of its files are missing, e.g. \(named); they are left out"]
    }

    /// `4998` as `4,998`.
    static func grouped(_ n: Int) -> String {
        var digits = String(n.magnitude)
        var out = ""
        while digits.count > 3 {
            out = "," + digits.suffix(3) + out
            digits.removeLast(3)
        }
        return (n < 0 ? "-" : "") + digits + out
    }

    /// The extensions (case ignored) a folder's files are taken with.
    public static let extensions = ["wav", "flac", "ogg", "oga", "opus", "mp3", "aif", "aiff"]

    /// `isDirectory`: the path is a directory (or a link to one). A regular file whose name ends
    /// `.m3u` or `.m3u8` (case ignored) is a list; anything else is one sound file.
    public static func kind(of path: String, isDirectory: Bool) -> Kind {
        if isDirectory { return .folder }
        return isPlaylistName(path) ? .playlist : .file
    }

    public static func isPlaylistName(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".m3u") || lower.hasSuffix(".m3u8")
    }

    /// Whether a folder's file named `name` is taken: not hidden, with a sound file's extension.
    public static func isSoundName(_ name: String) -> Bool {
        guard !name.hasPrefix("."), let dot = name.lastIndex(of: ".") else { return false }
        return extensions.contains(name[name.index(after: dot)...].lowercased())
    }

    /// A folder's names in the order they are listed: by their bytes, with no locale.
    public static func sortedNames(_ names: [String]) -> [String] {
        names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    }

    /// What a list said: the paths, in order and without duplicates, and one line per line refused.
    public struct Parsed: Sendable, Equatable {
        public var entries: [String] = []
        public var problems: [String] = []
    }

    /// The entries of an M3U/M3U8 list whose bytes are `bytes`, with relative paths taken from
    /// `listDirectory` (textually: no `~`, no link resolved). A UTF-8 BOM and CRLF are
    /// accepted; blank lines and every `#` line (`#EXTM3U`, `#EXTINF:…`) are skipped;
    /// `file://` URLs are taken as paths; other URLs, lists within lists and lines that are not
    /// UTF-8 are refused, each with its line number.
    public static func parseM3U(bytes: [UInt8], listDirectory: String) -> Parsed {
        var result = Parsed()
        var seen: Set<String> = []
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        var number = 0
        for rawLine in body.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            guard let text = String(validating: rawLine, as: UTF8.self) else {
                result.problems.append("line \(number): not UTF-8 text; save the list as UTF-8 (M3U8)")
                continue
            }
            let line = trimmed(text)
            if line.isEmpty || line.hasPrefix("#") { continue }
            var path = line
            if let scheme = urlScheme(line) {
                guard scheme == "file", let local = filePath(line) else {
                    result.problems.append("line \(number): '\(TerminalText.printable(line))' is a URL: wake plays local files only")
                    continue
                }
                path = local
            }
            if isPlaylistName(path) {
                result.problems.append("line \(number): '\(TerminalText.printable(path))' is a list: lists within lists are not followed")
                continue
            }
            let resolved = path.hasPrefix("/") ? path : join(listDirectory, path)
            if seen.insert(resolved).inserted { result.entries.append(resolved) }
        }
        return result
    }

    /// `base/relative`, with `.` parts dropped and `..` taking off the part before it.
    public static func join(_ base: String, _ relative: String) -> String {
        var parts: [Substring] = []
        let absolute = base.hasPrefix("/")
        for part in (base + "/" + relative).split(separator: "/") {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty && parts.last != ".." { parts.removeLast() } else if !absolute { parts.append(part) }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    /// The directory part of `path` (`.` for none), for a list's relative entries.
    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func trimmed(_ s: String) -> String {
        let scalars = s.unicodeScalars
        guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(scalars[first...last])
    }

    private static func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\r" || c == "\u{FEFF}" }

    /// Where `://` starts in `line`, as bytes.
    private static func schemeEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 3 else { return nil }
        for i in 0...(bytes.count - 3) where bytes[i] == UInt8(ascii: ":") && bytes[i + 1] == UInt8(ascii: "/") && bytes[i + 2] == UInt8(ascii: "/") {
            return i
        }
        return nil
    }

    private static func isSchemeByte(_ b: UInt8, first: Bool) -> Bool {
        let letter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(b | 0x20)
        if first { return letter }
        return letter || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b) || b == UInt8(ascii: "+") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".")
    }

    /// `http` for `http://…`: a scheme of letters, digits, `+`, `-`, `.` (a letter first) before `://`.
    private static func urlScheme(_ line: String) -> String? {
        let bytes = Array(line.utf8)
        guard let end = schemeEnd(bytes), end > 0 else { return nil }
        for (i, b) in bytes[..<end].enumerated() where !isSchemeByte(b, first: i == 0) { return nil }
        return String(decoding: bytes[..<end], as: UTF8.self).lowercased()
    }

    /// The path of a `file://` URL (host empty or `localhost`), percent-decoded; nil when it is
    /// not a local file's, or decodes to something that is not UTF-8 or holds a NUL.
    private static func filePath(_ url: String) -> String? {
        let all = Array(url.utf8)
        guard let end = schemeEnd(all) else { return nil }
        let rest = all[(end + 3)...]
        guard let slash = rest.firstIndex(of: UInt8(ascii: "/")) else { return nil }
        let host = String(decoding: rest[..<slash], as: UTF8.self).lowercased()
        guard host.isEmpty || host == "localhost" else { return nil }
        var bytes: [UInt8] = []
        var utf8 = rest[slash...]
        while let b = utf8.popFirst() {
            if b == UInt8(ascii: "%"), utf8.count >= 2, let hi = hexValue(utf8[utf8.startIndex]), let lo = hexValue(utf8[utf8.startIndex + 1]) {
                bytes.append(hi << 4 | lo)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(b)
            }
        }
        guard !bytes.contains(0) else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
