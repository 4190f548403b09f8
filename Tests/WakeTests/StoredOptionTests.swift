import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// One option the daemon refuses drops only itself (issue 37 item 8): it used to throw away every
/// option of the alarm, its device included, and ring on `default` with defaults, which for a
/// lingering daemon using `hw:` is silence, while `wake list` still showed the old device.
@Suite("Standing alarms: a refused stored option", .serialized)
struct StoredOptionTests {
    @Test("a fade longer than config.toml's ring-for, a message too long, a bad volume: each said, and it rings on its own device")
    func ringsOnItsDevice() async throws {
        let home = try AlarmHome()
        let capture = home.dir.file("capture.raw")
        let events = home.dir.file("events.jsonl")
        try home.writeConfigFile("ring-for = \"3s\"\nunattended = \"stop\"\n", name: "config.toml")
        let message = String(repeating: "Take the keys. ", count: 10)  // 150 characters
        // Written by hand (an editor, or an older wake), as `wake add` would refuse it now.
        try home.writeConfigFile("""
            [alarms.work]
            time = "\(AlarmHome.soon(8))"
            days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
            device = "file:'\(capture)',raw"
            volume = "150"
            fade-in = "5m"
            message = "\(message)"
            created = "2026-01-01T00:00:00Z"

            """)

        // wake list shows what the daemon will do, and warns of each option it sets aside (exit 78).
        let list = try await home.run(["list", "--json"])
        #expect(list.exitCode == 78, "\(list)")
        let entry = try #require((try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)) as? [[String: Any]])?.first, "\(list)")
        #expect(entry["device"] as? String == "file:'\(capture)',raw", "its own device, not 'default': \(entry)")
        #expect(entry["message"] as? String == String(message.prefix(119)) + "…", "\(entry)")
        let setAside = (entry["set_aside"] as? [[String: String]]) ?? []
        #expect(setAside.map { $0["option"] ?? "" } == ["fade-in", "message", "volume"], "\(entry)")
        #expect(setAside.first?["instead"] == "fades in over 3s (the whole ring)" && setAside.first?["value"] == "5m", "\(setAside)")
        #expect(list.stderr.contains("warning: alarm 'work': --fade-in 5m is longer than --ring-for 3s"), "\(list)")
        let table = try await home.run(["list"])
        #expect(table.stdout.contains("(fade-in cut to 3s, message cut, volume set aside)") && table.stdout.contains("file:'"), "\(table)")

        let daemon = try DetachedWake(["daemon", "--inhibit", "off", "--notify", "off", "--events", events], environment: home.environment,
                                      events: false, directory: home.dir)
        defer { daemon.send(SIGKILL) }
        let said = try await daemon.waitForOutput(containing: "(volume = \"150\" in alarms.toml)", onStderr: true)
        #expect(said.contains("alarm 'work': --fade-in 5m is longer than --ring-for 3s; shorten the fade or ring longer "
                              + "(fade-in stored with the alarm, ring-for from config.toml); it fades in over 3s (the whole ring) instead"), "\(said)")
        #expect(said.contains("alarm 'work': message in alarms.toml: the message has 150 characters, more than the limit of 120"), "\(said)")
        #expect(said.contains("it rings with volume 100 (wake's default) instead, and keeps its other options"), "\(said)")
        #expect(!said.contains("rings with wake's defaults"), "\(said)")
        for _ in 0..<150 where !ChildProcess.read(events).contains("\"timed_out\"") { try await Task.sleep(for: .milliseconds(200)) }
        let log = ChildProcess.read(events)
        #expect(log.contains("\"ringing\"") && log.contains("\"timed_out\""), "it rang for config.toml's 3s: \(log)")
        #expect(log.contains("\"device\":\"file:'"), "on its own device: \(log)")
        let audio = FileManager.default.contents(atPath: capture) ?? Data()
        #expect(audio.count > 44_100 && audio.contains { $0 != 0 }, "its device heard it: \(audio.count) bytes")
        daemon.send(SIGTERM)
        #expect(await daemon.wait().exitCode == 0)
    }
}
