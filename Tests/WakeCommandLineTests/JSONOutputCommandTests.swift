import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// `wake list --json` and `wake next --json` stay valid JSON whatever a standing alarm's message,
/// path or device holds (issue 37 item 12): DEL, C1 controls and bidi marks come out as JSON
/// escapes, read back by Python's json module, an outside parser. (In process since issue 50; was
/// the standing half of Tests/WakeTests/JSONOutputTests.swift's listAndNext, whose running one-off
/// stays there.)
@Suite("JSON output: the command line")
struct JSONOutputCommandTests {
    /// What Python's json module reads from `text`, written back as ASCII-only JSON and parsed
    /// here; throws when Python refuses it.
    static func parsedByPython(_ text: String) async throws -> Any {
        let script = "import json, sys; print(json.dumps(json.loads(sys.stdin.buffer.read().decode('utf-8'))))"
        let p = try ChildProcess("/usr/bin/python3", ["-c", script], stdin: .text(text))
        let r = await p.wait()
        guard r.exitCode == 0 else { throw WakeTestError("python's json module refused it: \(r)\n\(text)") }
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
    }

    static let message = "שלום\u{200F} עולם \u{9B}31m\u{7F}\u{202E}"
    static let sound = "/nonexistent/\u{200F}song\u{9B}.flac"
    static let device = "plug\u{9B}hw\u{7F}"

    @Test("a Hebrew message with a right-to-left mark, a C1 control in a path and DEL in a device: valid JSON, values intact",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs python3"))
    func listAndNext() async throws {
        let world = try TestWorld()
        // Written by hand, as an editor would: TOML's escapes for the characters.
        try world.writeConfig("")
        try """
            [alarms.hebrew]
            time = "08:00:00"
            days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
            sound = "/nonexistent/\\u200Fsong\\u009B.flac"
            device = "plug\\u009Bhw\\u007F"
            message = "שלום\\u200F עולם \\u009B31m\\u007F\\u202E"
            created = "2026-01-01T00:00:00Z"

            """.write(toFile: world.alarmsFile, atomically: true, encoding: .utf8)
        chmod(world.alarmsFile, 0o600)

        let list = world.run(["list", "--json"])
        #expect(list.code == 0, "\(list)")
        for raw in ["\u{200F}", "\u{9B}", "\u{7F}", "\u{202E}"] {
            #expect(!list.stdout.contains(raw), "U+\(String(raw.unicodeScalars.first!.value, radix: 16)) left raw: \(list.stdout)")
        }
        #expect(list.stdout.contains("\\u200f") && list.stdout.contains("\\u009b") && list.stdout.contains("\\u007f"), "\(list.stdout)")
        #expect(!list.stdout.contains("\\x"), "the terminal's escapes are not JSON: \(list.stdout)")
        let entries = try #require(try await Self.parsedByPython(list.stdout) as? [[String: Any]])
        let standing = try #require(entries.first { $0["id"] as? String == "hebrew" }, "\(entries)")
        #expect(standing["message"] as? String == Self.message, "\(standing)")
        #expect(standing["sound"] as? String == Self.sound, "\(standing)")
        #expect(standing["device"] as? String == Self.device, "\(standing)")
        #expect((standing["options"] as? [String: String])?["message"] == Self.message, "\(standing)")

        // The table, on the other hand, shows them escaped for the terminal.
        let table = world.run(["list"])
        #expect(table.stdout.contains("\\u{200F}") && table.stdout.contains("\\x9b") && !table.stdout.contains("\u{9B}"), "\(table)")

        let next = world.run(["next", "--json"])
        #expect(next.code == 0, "\(next)")
        #expect(!next.stdout.contains("\u{200F}") && !next.stdout.contains("\u{9B}") && next.stdout.contains("\\u009b31m"),
                "\(next.stdout)")
        let obj = try #require(try await Self.parsedByPython(next.stdout) as? [String: Any])
        #expect(obj["id"] as? String == "hebrew" && obj["message"] as? String == Self.message, "\(obj)")
        // `text` is the line a status bar shows, terminal-escaped, then quoted as JSON.
        #expect((obj["text"] as? String)?.hasSuffix(": שלום\\u{200F} עולם \\x9b31m\\x7f\\u{202E}") == true, "\(obj)")
    }
}
