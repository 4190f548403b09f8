import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// `wake list --json` stays valid JSON whatever a running wake's message holds (issue 37 item 12):
/// C1 controls and bidi marks come out as JSON escapes, read back by Python's json module, an
/// outside parser. A standing alarm's message, path and device, in `list` and `next`, run in
/// process (Tests/WakeCommandLineTests/JSONOutputCommandTests.swift).
@Suite("JSON output")
struct JSONOutputTests {
    /// What Python's json module reads from `text`, written back as ASCII-only JSON and parsed
    /// here; throws when Python refuses it.
    static func parsedByPython(_ text: String) async throws -> Any {
        let script = "import json, sys; print(json.dumps(json.loads(sys.stdin.buffer.read().decode('utf-8'))))"
        let p = try ChildProcess("/usr/bin/python3", ["-c", script], stdin: .text(text))
        let r = await p.wait()
        guard r.exitCode == 0 else { throw WakeTestError("python's json module refused it: \(r)\n\(text)") }
        return try JSONSerialization.jsonObject(with: Data(r.stdout.utf8))
    }

    @Test("a running one-off's message with a right-to-left mark and a C1 control, over the control socket: valid JSON, intact",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs python3"))
    func runningOneOff() async throws {
        let home = try AlarmHome()
        let oneOff = try DetachedWake(["+2h", "-D", "null", "--inhibit", "off", "--notify", "off", "--message", "tea\u{200F}\u{85}"],
                                      environment: home.environment, directory: home.dir)
        defer { oneOff.send(SIGTERM) }
        try await oneOff.waitForEvent("armed")

        let list = try await home.run(["list", "--json"])
        #expect(list.exitCode == 0, "\(list)")
        for raw in ["\u{200F}", "\u{85}"] {
            #expect(!list.stdout.contains(raw), "U+\(String(raw.unicodeScalars.first!.value, radix: 16)) left raw: \(list.stdout)")
        }
        #expect(!list.stdout.contains("\\x"), "the terminal's escapes are not JSON: \(list.stdout)")
        let entries = try #require(try await Self.parsedByPython(list.stdout) as? [[String: Any]])
        let running = try #require(entries.first { $0["kind"] as? String == "one-off" }, "\(entries)")
        #expect(running["message"] as? String == "tea\u{200F}\u{85}", "\(running)")
        oneOff.send(SIGTERM)
        _ = await oneOff.wait()
    }
}
