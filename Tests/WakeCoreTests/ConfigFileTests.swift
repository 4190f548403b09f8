import Testing
import WakeCore

/// The config file's TOML subset, case by case in the categories of the toml-test suite
/// (github.com/toml-lang/toml-test) that the subset covers: comments, bare keys, basic strings
/// and their escapes, integers (signs, underscores, leading zeros), booleans, whitespace, CRLF;
/// and what the subset leaves out (floats, dates, literal and multi-line strings, inline
/// tables, dotted and quoted keys, tables), which must be refused with the line.
@Suite("Config file: the TOML subset")
struct ConfigFileTests {
    static let known: Set<String> = ["volume", "sound", "fade-in", "inhibit", "snooze", "min-volume"]

    static func values(_ text: String) throws -> [String: String] {
        Dictionary(uniqueKeysWithValues: try ConfigFile.parse(text, known: known).map { ($0.key, $0.value) })
    }

    @Test("valid documents", arguments: [
        ("volume = 60", ["volume": "60"]),
        ("volume = +60", ["volume": "60"]),
        ("volume = 1_0", ["volume": "10"]),
        ("volume = 0", ["volume": "0"]),
        ("volume = -5", ["volume": "-5"]),
        ("volume=\"60\"", ["volume": "60"]),
        ("  volume\t=  60   # loud enough", ["volume": "60"]),
        ("# only a comment\n\n   \n", [:]),
        ("fade_in = \"30s\"", ["fade-in": "30s"]),
        ("fade-in = \"30s\"\r\nsnooze = \"5m\"\r\n", ["fade-in": "30s", "snooze": "5m"]),
        ("sound = \"/home/ann/My \\\"Alarm\\\".flac\"", ["sound": "/home/ann/My \"Alarm\".flac"]),
        ("sound = \"tab\\there \\u00e9 \\\\ end\"", ["sound": "tab\there é \\ end"]),
        ("sound = \"# not a comment\"", ["sound": "# not a comment"]),
        ("inhibit = true", ["inhibit": "true"]),
        ("\u{FEFF}volume = 7", ["volume": "7"]),
    ])
    func valid(text: String, expected: [String: String]) throws {
        #expect(try Self.values(text) == expected)
    }

    @Test("invalid documents name their line", arguments: [
        ("volume = 6.5", 1, "whole number"),
        ("volume = 1e3", 1, "whole number"),
        ("volume = 07", 1, "whole number"),
        ("volume = 1__0", 1, "whole number"),
        ("volume = _1", 1, "whole number"),
        ("volume = 99999999999999999999", 1, "too large"),
        ("volume = 0x10", 1, "whole number"),
        ("volume = 2026-11-23", 1, "whole number"),
        ("volume = True", 1, "whole number"),
        ("\nsound = 'literal'", 2, "literal strings"),
        ("sound = \"\"\"multi\"\"\"", 1, "multi-line"),
        ("sound = \"unterminated", 1, "closing"),
        ("sound = \"bad \\q escape\"", 1, "unknown escape"),
        ("sound = [\"a\"]", 1, "not an array"),
        ("volume = { a = 1 }", 1, "whole number"),
        ("a.b = 1", 1, "dotted keys"),
        ("\"volume\" = 1", 1, "quoted keys"),
        ("[wake]\nvolume = 1", 1, "tables"),
        ("volume =", 1, "has no value"),
        ("volume 60", 1, "key = value"),
        ("volume = 60 60", 1, "unexpected text"),
        ("tyme = \"07:00\"", 1, "unknown key 'tyme'"),
        ("volume = 1\nvolume = 2", 2, "set again (first on line 1)"),
        ("fade-in = \"1s\"\nfade_in = \"2s\"", 2, "set again"),
        ("sound = \"a\u{0}b\"", 1, "control character"),
    ])
    func invalid(text: String, line: Int, says: String) {
        do {
            _ = try ConfigFile.parse(text, known: Self.known)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.line == line, "\(error)")
            #expect(error.message.contains(says), "\(error)")
        }
    }

    @Test("random documents never trap, and what parses has only known keys")
    func randomDocuments() {
        var rng = PropertyRNG(seed: 17)
        let pieces = ["volume", "fade_in", "=", " ", "\"", "60", "-", "_", "#", "\n", "[", "]", "true", "0", "\\", "u00", "'", ".", "\r", "é"]
        for _ in 0..<20_000 {
            let text = (0..<rng.below(14)).map { _ in rng.pick(pieces) }.joined()
            if let entries = try? ConfigFile.parse(text, known: Self.known) {
                #expect(entries.allSatisfy { Self.known.contains($0.key) })
            }
        }
    }
}
