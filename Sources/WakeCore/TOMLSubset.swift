/// The TOML subset both wake files use: blank lines, `#` comments, `[a.b]` table headers with
/// bare keys, and `key = value` lines where a value is a basic string or a one-line array of
/// them. (The text forms of times, dates and instants the files hold: TOMLSubset+Time.swift.)
enum TOMLSubset {
    enum Value: Equatable {
        case string(String)
        case array([String])
        /// Only where the caller allows scalars (the config file): `volume = 60`.
        case integer(Int)
        case boolean(Bool)
    }

    enum Line: Equatable {
        case blank
        case table([String])
        case pair(String, Value)
    }

    typealias ParseError = AlarmBook.ParseError

    /// The lines of `text`, numbered from 1, split at LF with a CR before it dropped (a bare
    /// CR stays and is refused where it stands). A byte-order mark at the start is skipped.
    ///
    /// Each line is its UTF-8 bytes: the files are read every `wake list` and every reload, and
    /// an array of scalars (four bytes each, a copy of the whole file) cost a third of the parse.
    /// Every byte the format gives a meaning is ASCII, and no byte of a multi-byte character is,
    /// so the bytes split and scan as the scalars did; a string decodes its runs whole.
    static func lines(_ text: String) -> [(Int, ArraySlice<UInt8>)] {
        let bytes = Array(text.utf8)
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var result: [(Int, ArraySlice<UInt8>)] = []
        var number = 1
        var i = start
        while i < bytes.count {
            if bytes[i] == newline {
                var end = i
                if end > start, bytes[end - 1] == carriageReturn { end -= 1 }
                result.append((number, bytes[start..<end]))
                number += 1
                start = i + 1
            }
            i += 1
        }
        if start < bytes.count { result.append((number, bytes[start...])) }
        return result
    }

    static let newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r"), quote = UInt8(ascii: "\""),
               backslash = UInt8(ascii: "\\"), space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), hash = UInt8(ascii: "#")

    static func isBareKey(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-": return true
        default: return false
        }
    }

    static func isBareKey(_ b: UInt8) -> Bool {
        switch b {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "_"), UInt8(ascii: "-"): return true
        default: return false
        }
    }

    /// One line, parsed. `scalars` also accepts TOML's decimal integers and booleans as values.
    static func parseLine(_ line: ArraySlice<UInt8>, number: Int, scalars: Bool = false) throws(ParseError) -> Line {
        var s = Scanner(line, number)
        s.skipSpace()
        if s.atEndOrComment { return .blank }
        if s.peek == UInt8(ascii: "[") {
            s.advance()
            if s.peek == UInt8(ascii: "[") { throw s.fail("arrays of tables ([[...]]) are not part of this format") }
            var parts: [String] = []
            while true {
                s.skipSpace()
                let key = s.bareKey()
                if key.isEmpty {
                    throw s.fail(s.peek == quote || s.peek == UInt8(ascii: "'") ? "quoted table names are not part of this format"
                                                                              : "expected a table name, such as [alarms.work]")
                }
                parts.append(key)
                s.skipSpace()
                if s.peek == UInt8(ascii: ".") { s.advance(); continue }
                if s.peek == UInt8(ascii: "]") { s.advance(); break }
                throw s.fail("expected ']' to close the table name")
            }
            s.skipSpace()
            guard s.atEndOrComment else { throw s.fail("unexpected text after the table name") }
            return .table(parts)
        }
        if s.peek == quote || s.peek == UInt8(ascii: "'") { throw s.fail("quoted keys are not part of this format; write the key bare") }
        let key = s.bareKey()
        guard !key.isEmpty else { throw s.fail("expected key = value") }
        s.skipSpace()
        if s.peek == UInt8(ascii: ".") { throw s.fail("dotted keys are not part of this format; write '\(key)' inside its table") }
        guard s.peek == UInt8(ascii: "=") else { throw s.fail("expected key = value") }
        s.advance()
        s.skipSpace()
        let value: Value
        switch s.peek {
        case quote?:
            value = .string(try s.basicString())
        case UInt8(ascii: "[")?:
            s.advance()
            var items: [String] = []
            while true {
                s.skipSpace()
                if s.peek == UInt8(ascii: "]") { s.advance(); break }
                if s.atEnd { throw s.fail("the array of '\(key)' must close with ']' on the same line") }
                guard s.peek == quote else { throw s.fail("the array of '\(key)' may hold only strings in double quotes") }
                items.append(try s.basicString())
                s.skipSpace()
                if s.peek == UInt8(ascii: ",") { s.advance(); continue }
                if s.peek == UInt8(ascii: "]") { s.advance(); break }
                throw s.fail(s.atEnd ? "the array of '\(key)' must close with ']' on the same line"
                                     : "expected ',' or ']' in the array of '\(key)'")
            }
            value = .array(items)
        case UInt8(ascii: "'")?:
            throw s.fail("literal strings ('...') are not part of this format; use double quotes")
        case nil, hash?:
            throw s.fail("'\(key) =' has no value")
        default:
            guard scalars else { throw s.fail("the value of '\(key)' must be a string in double quotes") }
            value = try s.scalar(key)
        }
        s.skipSpace()
        guard s.atEndOrComment else { throw s.fail("unexpected text after the value of '\(key)'") }
        return .pair(key, value)
    }

    /// Reads one line's UTF-8 bytes.
    struct Scanner {
        let text: ArraySlice<UInt8>
        var i: Int
        let number: Int

        init(_ text: ArraySlice<UInt8>, _ number: Int) { self.text = text; self.i = text.startIndex; self.number = number }

        var atEnd: Bool { i >= text.endIndex }
        var peek: UInt8? { atEnd ? nil : text[i] }
        var atEndOrComment: Bool { atEnd || text[i] == hash }
        mutating func advance() { i += 1 }
        mutating func skipSpace() { while let c = peek, c == space || c == tab { i += 1 } }
        func fail(_ m: String) -> ParseError { ParseError(line: number, message: m) }

        /// The character starting at byte `j` (before the end), and how many bytes it takes.
        func character(at j: Int) -> (scalar: Unicode.Scalar, width: Int) {
            let lead = text[j]
            if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
            var bytes = text[j...].makeIterator()
            var decoder = UTF8()
            // The bytes came from a String, so they are valid UTF-8; a stray byte would read as U+FFFD.
            guard case .scalarValue(let c) = decoder.decode(&bytes) else { return ("\u{FFFD}", 1) }
            return (c, UTF8.width(c))
        }

        /// `true`, `false`, or a decimal integer as TOML writes one: an optional sign, no leading
        /// zeros, `_` only between digits. Anything else (floats, dates, hex) is named as such.
        mutating func scalar(_ key: String) throws(ParseError) -> Value {
            let start = i
            while let c = peek, c != space, c != tab, c != hash { i += 1 }
            let word = String(decoding: text[start..<i], as: UTF8.self)
            if word == "true" { return .boolean(true) }
            if word == "false" { return .boolean(false) }
            var digits = Substring(word)
            var negative = false
            if let sign = digits.first, sign == "+" || sign == "-" { negative = sign == "-"; digits = digits.dropFirst() }
            let parts = digits.split(separator: "_", omittingEmptySubsequences: false)
            let isInteger = !digits.isEmpty && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }
                && !(digits.count > 1 && digits.first == "0")
            guard isInteger else {
                throw fail("the value of '\(key)' must be a string in double quotes, a whole number or true/false, not '\(word)'")
            }
            guard let magnitude = Int(parts.joined()), magnitude <= Int(Int32.max) else { throw fail("the number for '\(key)' is too large") }
            return .integer(negative ? -magnitude : magnitude)
        }

        mutating func bareKey() -> String {
            let start = i
            while let c = peek, TOMLSubset.isBareKey(c) { i += 1 }
            return String(decoding: text[start..<i], as: UTF8.self)
        }

        /// Whether the character at byte `j` ends a plain run of a string: a quote, a backslash,
        /// or what must be escaped (a tab excepted); C1 controls are U+0080 to U+009F, `C2 80` to `C2 9F`.
        func endsRun(_ j: Int) -> Bool {
            let b = text[j]
            if b == quote || b == backslash || b == 0x7F || (b < 0x20 && b != tab) { return true }
            return b == 0xC2 && j + 1 < text.endIndex && (0x80...0x9F).contains(text[j + 1])
        }

        /// A basic string starting at the opening quote, with TOML's escapes.
        mutating func basicString() throws(ParseError) -> String {
            advance()
            if peek == quote, i + 1 < text.endIndex, text[i + 1] == quote {
                throw fail("multi-line strings (\"\"\"...\"\"\") are not part of this format")
            }
            var out = ""
            while true {
                guard let c = peek else { throw fail("the string has no closing '\"'") }
                if c == quote {
                    advance()
                    return out
                }
                if c == backslash {
                    advance()
                    guard !atEnd else { throw fail("the string has no closing '\"'") }
                    let (e, width) = character(at: i)
                    i += width
                    switch e {
                    case "\"": out += "\""
                    case "\\": out += "\\"
                    case "n": out += "\n"
                    case "t": out += "\t"
                    case "r": out.unicodeScalars.append("\r")
                    case "b": out += "\u{8}"
                    case "f": out += "\u{C}"
                    case "e": out += "\u{1B}"
                    case "u", "U":
                        let width = e == "u" ? 4 : 8
                        var v: UInt32 = 0
                        for _ in 0..<width {
                            guard let h = peek, let d = hexValue(h) else {
                                throw fail("\\\(e) needs \(width) hexadecimal digits")
                            }
                            v = v << 4 | d
                            advance()
                        }
                        guard let u = Unicode.Scalar(v) else {
                            throw fail("\\\(e)\(String(v, radix: 16, uppercase: true)) is not a Unicode character")
                        }
                        out.unicodeScalars.append(u)
                    default:
                        throw fail("unknown escape '\\\(String(e).printable)' in a string (use \\\" \\\\ \\n \\t \\uXXXX)")
                    }
                    continue
                }
                let here = character(at: i).scalar
                if TOMLSubset.mustEscape(here) && here != "\t" {
                    throw fail("a control character (U+\(hex4(here.value))) in a string: write it as \\u\(hex4(here.value))")
                }
                // The plain run from here on, decoded at once (a path is most of a line).
                var end = i + 1
                while end < text.endIndex, !endsRun(end) { end += 1 }
                out += String(decoding: text[i..<end], as: UTF8.self)
                i = end
            }
        }

        func hexValue(_ c: UInt8) -> UInt32? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(c) - 48
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(c) - 87
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(c) - 55
            default: return nil
            }
        }
    }

    static func hex4(_ v: UInt32) -> String { QuotedText.hex4(v, uppercase: true) }

    /// The C0 controls, DEL and the C1 controls: TOML forbids the first two raw in a string
    /// (a tab excepted); wake escapes all three when writing, so the file stays readable.
    static func mustEscape(_ c: Unicode.Scalar) -> Bool { c.value < 0x20 || (0x7F...0x9F).contains(c.value) }

    /// `s` as a TOML basic string, quotes included.
    static func quoted(_ s: String) -> String { QuotedText.quote(s, QuotedText.toml) }
}
