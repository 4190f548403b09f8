import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// `$XDG_CONFIG_HOME/wake/config.toml` under the daemon. Precedence, the dry run's sources and the
/// mistakes run in process (Tests/WakeCommandLineTests/ConfigFileCommandTests.swift).
@Suite("Config file: precedence, the dry run's sources, and every kind of mistake")
struct ConfigFileEndToEndTests {
    /// A home whose config file holds `text` (none when nil).
    static func home(_ text: String?) throws -> AlarmHome {
        let home = try AlarmHome()
        if let text {
            let dir = home.dir.file("config") + "/wake"
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            try text.write(toFile: dir + "/config.toml", atomically: false, encoding: .utf8)
        }
        return home
    }

    @Test("a standing alarm stores only what its command line gave; the daemon rings it with the file's defaults")
    func standingAlarms() async throws {
        let home = try Self.home("volume = 60\nring-for = \"2s\"\nunattended = \"stop\"\n")
        var r = try await home.run(["add", AlarmHome.soon(15), "--name", "soon", "-D", "null", "--snooze", "4m"])
        #expect(r.exitCode == 0, "\(r)")
        let stored = try #require(try await home.listJSON().first)
        #expect(stored["options"] as? [String: String] == ["device": "null", "snooze": "4m"], "\(stored)")
        // 15 s of lead: `wake add` checks the device, which under ASan on a starved machine
        // has taken over 5 s, and a one-off whose time has passed is for tomorrow.
        let daemon = try home.daemon()
        defer { daemon.send(SIGKILL) }
        try await daemon.waitForEvent("ringing", timeout: .seconds(60))
        let ended = try await daemon.waitForEvent("timed_out", timeout: .seconds(60))
        #expect(ended["alarm"] == "soon", "the file's ring-for = 2s ended it: \(daemon.eventLogText)")
        r = try await home.run(["list"])
        #expect(r.exitCode == 0, "\(r)")
    }
}
