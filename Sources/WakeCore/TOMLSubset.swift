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
    static func lines(_ text: String) -> [(Int, ArraySlice<Unicode.Scalar>)] {
        var scalars = Array(text.unicodeScalars)
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        var result: [(Int, ArraySlice<Unicode.Scalar>)] = []
        var start = 0, number = 1
        for i in scalars.indices where scalars[i] == "\n" {
            var end = i
            if end > start, scalars[end - 1] == "\r" { end -= 1 }
            result.append((number, scalars[start..<end]))
            number += 1
            start = i + 1
        }
        if start < scalars.count { result.append((number, scalars[start...])) }
        return result
    }

    static func isBareKey(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "-": return true
        default: return false
        }
    }

    /// One line, parsed. `scalars` also accepts TOML's decimal integers and booleans as values.
    static func parseLine(_ line: ArraySlice<Unicode.Scalar>, number: Int, scalars: Bool = false) throws(ParseError) -> Line {
        var s = Scanner(line, number)
        s.skipSpace()
        if s.atEndOrComment { return .blank }
        if s.peek == "[" {
            s.advance()
            if s.peek == "[" { throw s.fail("arrays of tables ([[...]]) are not part of this format") }
            var parts: [String] = []
            while true {
                s.skipSpace()
                let key = s.bareKey()
                if key.isEmpty {
                    throw s.fail(s.peek == "\"" || s.peek == "'" ? "quoted table names are not part of this format"
                                                                  : "expected a table name, such as [alarms.work]")
                }
                parts.append(key)
                s.skipSpace()
                if s.peek == "." { s.advance(); continue }
                if s.peek == "]" { s.advance(); break }
                throw s.fail("expected ']' to close the table name")
            }
            s.skipSpace()
            guard s.atEndOrComment else { throw s.fail("unexpected text after the table name") }
            return .table(parts)
        }
        if s.peek == "\"" || s.peek == "'" { throw s.fail("quoted keys are not part of this format; write the key bare") }
        let key = s.bareKey()
        guard !key.isEmpty else { throw s.fail("expected key = value") }
        s.skipSpace()
        if s.peek == "." { throw s.fail("dotted keys are not part of this format; write '\(key)' inside its table") }
        guard s.peek == "=" else { throw s.fail("expected key = value") }
        s.advance()
        s.skipSpace()
        let value: Value
        switch s.peek {
        case "\"":
            value = .string(try s.basicString())
        case "[":
            s.advance()
            var items: [String] = []
            while true {
                s.skipSpace()
                if s.peek == "]" { s.advance(); break }
                if s.atEnd { throw s.fail("the array of '\(key)' must close with ']' on the same line") }
                guard s.peek == "\"" else { throw s.fail("the array of '\(key)' may hold only strings in double quotes") }
                items.append(try s.basicString())
                s.skipSpace()
                if s.peek == "," { s.advance(); continue }
                if s.peek == "]" { s.advance(); break }
                throw s.fail(s.atEnd ? "the array of '\(key)' must close with ']' on the same line"
                                     : "expected ',' or ']' in the array of '\(key)'")
            }
            value = .array(items)
        case "'":
            throw s.fail("literal strings ('...') are not part of this format; use double quotes")
        case nil, "#":
            throw s.fail("'\(key) =' has no value")
        default:
            guard scalars else { throw s.fail("the value of '\(key)' must be a string in double quotes") }
            value = try s.scalar(key)
        }
        s.skipSpace()
        guard s.atEndOrComment else { throw s.fail("unexpected text after the value of '\(key)'") }
        return .pair(key, value)
    }

    struct Scanner {
        let text: ArraySlice<Unicode.Scalar>
        var i: Int
        let number: Int

        init(_ text: ArraySlice<Unicode.Scalar>, _ number: Int) { self.text = text; self.i = text.startIndex; self.number = number }

        var atEnd: Bool { i >= text.endIndex }
        var peek: Unicode.Scalar? { atEnd ? nil : text[i] }
        var atEndOrComment: Bool { atEnd || text[i] == "#" }
        mutating func advance() { i += 1 }
        mutating func skipSpace() { while let c = peek, c == " " || c == "\t" { i += 1 } }
        func fail(_ m: String) -> ParseError { ParseError(line: number, message: m) }

        /// `true`, `false`, or a decimal integer as TOML writes one: an optional sign, no leading
        /// zeros, `_` only between digits. Anything else (floats, dates, hex) is named as such.
        mutating func scalar(_ key: String) throws(ParseError) -> Value {
            var word = ""
            while let c = peek, c != " ", c != "\t", c != "#" { word.unicodeScalars.append(c); i += 1 }
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
            var k = ""
            while let c = peek, TOMLSubset.isBareKey(c) { k.unicodeScalars.append(c); i += 1 }
            return k
        }

        /// A basic string starting at the opening quote, with TOML's escapes.
        mutating func basicString() throws(ParseError) -> String {
            advance()
            if peek == "\"", i + 1 < text.endIndex, text[i + 1] == "\"" {
                throw fail("multi-line strings (\"\"\"...\"\"\") are not part of this format")
            }
            var out = ""
            while true {
                guard let c = peek else { throw fail("the string has no closing '\"'") }
                advance()
                switch c {
                case "\"":
                    return out
                case "\\":
                    guard let e = peek else { throw fail("the string has no closing '\"'") }
                    advance()
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
                default:
                    if TOMLSubset.mustEscape(c) && c != "\t" {
                        throw fail("a control character (U+\(hex4(c.value))) in a string: write it as \\u\(hex4(c.value))")
                    }
                    // The plain run from here on, transcoded at once: appending scalar by scalar
                    // cost `wake list` a tenth of its start-up (a path is most of a line).
                    var end = i
                    while end < text.endIndex, text[end] != "\"", text[end] != "\\", (!TOMLSubset.mustEscape(text[end]) || text[end] == "\t") {
                        end += 1
                    }
                    var utf8: [UInt8] = []
                    utf8.reserveCapacity(end - i + 1)
                    for c in text[(i - 1)..<end] {
                        if c.isASCII { utf8.append(UInt8(truncatingIfNeeded: c.value)) } else { utf8.append(contentsOf: c.utf8) }
                    }
                    out += String(decoding: utf8, as: UTF8.self)
                    i = end
                }
            }
        }

        func hexValue(_ c: Unicode.Scalar) -> UInt32? {
            switch c {
            case "0"..."9": return c.value - 48
            case "a"..."f": return c.value - 87
            case "A"..."F": return c.value - 55
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
