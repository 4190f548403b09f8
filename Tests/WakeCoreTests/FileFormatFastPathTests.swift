@testable import WakeCore
import Testing

/// The fast paths of issue 51 (`wake list` and `wake add` with thousands of alarms) give what the
/// code before them gave: the TOML subset scanned as UTF-8 bytes against the scalar scanner it
/// replaced, line by line and in its split into lines, on valid, mutated and hostile text; a
/// quoted value's printable-ASCII shortcut against the escaping loop; and `AlarmBook.serialize`'s
/// key order against the order it wrote in before.
@Suite("File format fast paths (seeded)")
struct FileFormatFastPathTests {
    /// One line's parse as text, error or not, so the two scanners' answers compare.
    static func outcome(_ parse: () throws(AlarmBook.ParseError) -> TOMLSubset.Line) -> String {
        do { return "\(try parse())" } catch { return "error \(error.line): \(error.message)" }
    }

    static func compare(_ text: String, _ note: @autoclosure () -> String) {
        let old = ScalarTOMLSubset.lines(text).map { ($0.0, String(String.UnicodeScalarView($0.1))) }
        let new = TOMLSubset.lines(text)
        #expect(old.map(\.0) == new.map(\.0), "line numbers: \(note())")
        #expect(old.map(\.1) == new.map { String(decoding: $0.1, as: UTF8.self) }, "lines: \(note())")
        let oldSlices = ScalarTOMLSubset.lines(text)
        for (k, (number, bytes)) in new.enumerated() where k < oldSlices.count {
            for scalars in [false, true] {
                let a = outcome { () throws(AlarmBook.ParseError) in
                    try ScalarTOMLSubset.parseLine(oldSlices[k].1, number: oldSlices[k].0, scalars: scalars)
                }
                let b = outcome { () throws(AlarmBook.ParseError) in try TOMLSubset.parseLine(bytes, number: number, scalars: scalars) }
                #expect(a == b, "line \(number) \(String(decoding: bytes, as: UTF8.self).debugDescription), scalars \(scalars): \(note())")
            }
        }
    }

    /// Pieces the format gives a meaning, and characters at the edges of its rules: the C0 and
    /// C1 controls and their neighbours (U+00A0 and U+0100 share a lead byte's neighbours with
    /// C1), DEL, a bare CR, a byte-order mark, a bidi mark, astral characters, escapes good and bad.
    static let pieces: [String] = [
        "[", "]", "[[", "]]", "\"", "'", "\\", "\\u", "\\U", "\\u00e9", "\\U0001F600", "\\uD800", "\\u12", "\\x", "\\é",
        "\\n", "\\t", "\\r", "\\b", "\\f", "\\e", "\\\"", "\\\\", "=", " = ", ".", "#", " ", "\t", "\r", ",", "a", "key",
        "alarms", "sound", "days", "time", "0", "7", "12", "+", "-", "_", "1_000", "true", "false", "2147483648", "06:30:00",
        "é", "😀", "\u{85}", "\u{80}", "\u{9F}", "\u{A0}", "\u{C2}", "\u{100}", "\u{7F}", "\u{1}", "\u{0}", "\u{1B}",
        "\u{FEFF}", "\u{200E}", "\u{2028}", "\u{FFFF}", "/home/me/a b.flac", "\"\"\"",
    ]

    static let validLines = [
        "[alarms.work]", "  [ alarms . work ]  # a comment", "time = \"06:30:00\"", "days = [\"mon\", \"tue\"]", "days = []",
        "sound = [\"/a.flac\", \"/b.ogg\"]", "message = \"Caf\\u00e9 \\\"ouvert\\\" 😀\"", "volume = 60", "on = true",
        "created = \"2026-11-23T03:00:00Z\"", "# comment", "", "   ", "\tkey\t=\t\"v\"\t#c", "n = -12", "n = +1_000",
    ]

    @Test("the byte scanner reads every line as the scalar scanner did")
    func byteScannerMatchesTheScalarOne() {
        var rng = PropertyRNG(seed: 0x5CA1_E051)
        // Files wake writes, and what a person might write.
        for round in 0..<40 {
            var alarms: [StandingAlarm] = []
            for k in 0..<(1 + rng.below(6)) {
                var options: [String: String] = [:]
                for key in AlarmBook.optionOrder where rng.chance(30) {
                    var v = ""
                    for _ in 0..<rng.below(6) { v += rng.pick(Self.pieces) }
                    options[key] = v
                }
                alarms.append(StandingAlarm(name: "a\(k)", hour: rng.below(24), minute: rng.below(60), second: 0,
                                            days: UInt8(1 + rng.below(127)), date: nil, options: options,
                                            created: Instant(nanoseconds: Int64(rng.below(1 << 40)) * 1_000_000)))
            }
            Self.compare(AlarmBook.serialize(alarms), "written file \(round)")
        }
        for line in Self.validLines { Self.compare(line, "valid line") }
        // Valid lines mutated: a piece put in, one taken out or put in place of one.
        for round in 0..<3000 {
            var scalars = Array(rng.pick(Self.validLines).unicodeScalars)
            for _ in 0..<(1 + rng.below(3)) {
                let at = rng.below(scalars.count + 1)
                switch rng.below(3) {
                case 0: scalars.insert(contentsOf: rng.pick(Self.pieces).unicodeScalars, at: at)
                case 1: if at < scalars.count { scalars.remove(at: at) }
                default:
                    if at < scalars.count { scalars.replaceSubrange(at...at, with: rng.pick(Self.pieces).unicodeScalars) }
                }
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            Self.compare(text, "mutated line \(round)")
        }
        // Pieces at random, whole files of them: line breaks, CRs and a mark at the start too.
        for round in 0..<1500 {
            var text = rng.chance(10) ? "\u{FEFF}" : ""
            for _ in 0..<rng.below(30) { text += rng.chance(8) ? rng.pick(["\n", "\r\n", "\r"]) : rng.pick(Self.pieces) }
            Self.compare(text, "random text \(round)")
        }
    }

    @Test("a quoted value's shortcut gives what the escaping loop gives")
    func quotingShortcutMatchesTheLoop() {
        var rng = PropertyRNG(seed: 0x0000_0A7E)
        for round in 0..<4000 {
            var s = ""
            for _ in 0..<rng.below(12) {
                s += rng.chance(60) ? String(UnicodeScalar(UInt8(32 + rng.below(95)))) : rng.pick(Self.pieces)
            }
            for rules in [QuotedText.toml, QuotedText.json] {
                #expect(QuotedText.quote(s, rules) == Self.quotedByTheLoop(s, rules), "round \(round): \(s.debugDescription)")
            }
        }
    }

    /// `QuotedText.quote` without its shortcut.
    static func quotedByTheLoop(_ s: String, _ rules: QuotedText.Rules) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r" where rules.namesReturn: out += "\\r"
            default:
                if rules.mustEscape(c) {
                    out += "\\u" + QuotedText.hex4(c.value, uppercase: rules.uppercaseHex)
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out + "\""
    }

    @Test("serialize writes the options in the order it wrote them before: the table's, then others by name")
    func serializeKeepsItsKeyOrder() {
        var rng = PropertyRNG(seed: 0x0000_5E71)
        let unknown = ["zeta", "alpha", "sound2", "a", "mixer-x", "~"]
        for round in 0..<300 {
            var options: [String: String] = [:]
            for key in AlarmBook.optionOrder + unknown where rng.chance(35) {
                options[key] = rng.chance(30) ? "/a.flac\n/b.flac" : rng.chance(10) ? "/a.flac\n" : rng.pick(Self.pieces)
            }
            let a = StandingAlarm(name: "r\(round)", hour: 6, minute: 30, second: 0, days: 0b0111110, date: nil, options: options,
                                  created: Instant(nanoseconds: 0))
            let text = AlarmBook.serialize([a])
            let optionLines = text.split(separator: "\n").compactMap { line -> String? in
                let key = line.prefix { $0 != " " }
                return options[String(key)] != nil ? String(key) : nil
            }
            let extra = options.keys.filter { !AlarmBook.optionKeys.contains($0) }.sorted()
            #expect(optionLines == (AlarmBook.optionOrder + extra).filter { options[$0] != nil }, "round \(round)")
        }
    }
}

/// wake's TOML subset as it was read before the files were scanned as UTF-8 bytes (issue 51): the
/// reference the byte scanner is held to, line by line, on files valid and broken.
enum ScalarTOMLSubset {
    typealias Value = TOMLSubset.Value
    typealias Line = TOMLSubset.Line
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
            guard let magnitude = Int(parts.joined()), magnitude <= Int(Int32.max) else {
                throw fail("the number for '\(key)' is too large")
            }
            return .integer(negative ? -magnitude : magnitude)
        }

        mutating func bareKey() -> String {
            var k = ""
            while let c = peek, ScalarTOMLSubset.isBareKey(c) { k.unicodeScalars.append(c); i += 1 }
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
                    while end < text.endIndex, text[end] != "\"", text[end] != "\\",
                          !TOMLSubset.mustEscape(text[end]) || text[end] == "\t" {
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

    static func hex4(_ v: UInt32) -> String { TOMLSubset.hex4(v) }
}
