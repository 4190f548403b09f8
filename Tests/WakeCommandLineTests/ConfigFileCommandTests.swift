import Foundation
import Glibc
import Testing
@testable import WakeTestSupport

/// config.toml through the command line: defaults under the command line, refused with its line.
/// (In process since issue 50; were Tests/WakeTests/ConfigFileEndToEndTests.swift's cases but the
/// daemon's, which stays there.)
@Suite("Config file on the command line: precedence, the dry run's sources, and every kind of mistake")
struct ConfigFileCommandTests {
    /// A world whose config file holds `text` (none when nil).
    static func world(_ text: String?) throws -> TestWorld {
        let world = try TestWorld()
        if let text { try world.writeConfig(text) }
        return world
    }

    @Test("built-in < config file < command line, and the dry run says where each setting came from")
    func precedence() throws {
        let world = try Self.world("volume = 60\nsnooze = \"5m\"   # shorter mornings\ninhibit = \"off\"\n")
        let path = world.configFile
        var r = world.run(["07:00", "-D", "null", "--dry-run"])
        #expect(r.code == 0, "\(r)")
        #expect(r.stdout.contains("volume: 60 % (from \(path) line 1)"), "\(r)")
        #expect(r.stdout.contains("snooze: 5m (from \(path) line 2)"), "\(r)")
        #expect(r.stdout.contains("inhibit: off (from \(path) line 3)"), "\(r)")
        #expect(r.stdout.contains("device: null") && r.stdout.contains("(from the command line)"), "\(r)")
        #expect(r.stdout.contains("ring for: 10m\n"), "a built-in default names no source: \(r)")

        r = world.run(["07:00", "-D", "null", "--dry-run", "--volume", "100", "--snooze=9m"])
        #expect(r.stdout.contains("volume: 100 % (from the command line)") && r.stdout.contains("snooze: 9m (from the command line)"),
                "\(r)")

        let bare = try Self.world(nil)
        r = bare.run(["07:00", "-D", "null", "--dry-run", "--inhibit", "off"])
        #expect(r.code == 0 && r.stdout.contains("volume: 100 %\n"), "no file is no error: \(r)")
    }

    @Test("--snooze-volume through the table alone: config.toml's, the command line's over it, the dry run's line, 0 refused with 78")
    func snoozeVolume() throws {
        let world = try Self.world("snooze-volume = 30\n")
        let path = world.configFile
        var r = world.run(["07:00", "-D", "null", "--dry-run"])
        #expect(r.code == 0 && r.stdout.contains("snooze volume: 30 % (from \(path) line 1)\n"), "\(r)")
        r = world.run(["07:00", "-D", "null", "--dry-run", "--snooze-volume", "50"])
        #expect(r.code == 0 && r.stdout.contains("snooze volume: 50 % (from the command line)\n"), "\(r)")
        r = try Self.world(nil).run(["07:00", "-D", "null", "--dry-run"])
        #expect(r.code == 0 && r.stdout.contains("snooze volume: the alarm's --volume\n"), "unset: \(r)")
        r = try Self.world("snooze-volume = 0\n").run(["07:00", "-D", "null", "--dry-run"])
        #expect(r.code == 78 && r.stderr.contains("snooze-volume") && r.stderr.contains("silent"), "\(r)")
        r = world.run(["07:00", "-D", "null", "--dry-run", "--snooze-volume", "101"])
        #expect(r.code == 64 && r.stderr.contains("--snooze-volume: invalid value '101'; give a whole number from 1 to 100"), "\(r)")
    }

    @Test("a sound named relative to config.toml is read from its directory, by a one-off run anywhere and by wake add")
    func relativeSoundBesideTheFile() async throws {
        let world = try Self.world("sound = \"tone.wav\"\n")
        let dir = world.dir.file("config") + "/wake"
        _ = try await makeSound(in: world.dir, name: "tone.wav", rate: 22050, channels: 1, seconds: "1", synth: ["sine", "440"])
        #expect(rename(world.dir.file("tone.wav"), dir + "/tone.wav") == 0)
        let r = world.run(["07:00", "-D", "null", "--dry-run"])
        #expect(r.code == 0 && r.stdout.contains("sound: \(dir)/tone.wav (") && r.stdout.contains("(from \(world.configFile) line 1)"),
                "\(r)")
        // Stored alarms keep what their command line gave: the file's sound stays the file's.
        let add = world.run(["add", "07:00", "--days", "daily", "-D", "null"])
        #expect(add.code == 0, "\(add)")
        let list = try world.listJSON()
        #expect(list.first?["sound"] as? String == dir + "/tone.wav", "\(list)")
    }

    @Test("every kind of mistake: exit 78 before anything else, one line naming the file, the line and the key", arguments: [
        ("volume = 60\ntyme = \"07:00\"\n", "line 2: unknown key 'tyme'"),
        ("volume = \"loud\"\n", "line 1, volume: --volume: invalid value 'loud'"),
        ("volume = 0\n", "line 1, volume: --volume 0"),
        ("volume = 6.5\n", "line 1: the value of 'volume'"),
        ("snooze = 5\n", "line 1, snooze"),
        ("ring-for = \"1m\"\nfade-in = \"5m\"\n", "longer than --ring-for"),
        ("snooze = \"10m\"\nsnooze-long = \"5m\"\n", "--snooze-long 5m is shorter than --snooze 10m"),
        ("ring-for = \"1ms\"\n", "line 1, ring-for: --ring-for 1ms is shorter than a second"),
        ("late-limit = \"999ms\"\n", "line 1, late-limit: --late-limit 999ms is shorter than a second"),
        ("inhibit = \"sometimes\"\n", "line 1, inhibit: --inhibit: invalid mode"),
        ("[alarm]\n", "line 1: tables"),
        ("volume = 60\nvolume = 70\n", "line 2: key 'volume' is set again"),
        ("sound = \"unterminated\n", "line 1"),
        ("volume = 60\n\u{FF}\u{FE}\n", "line 2: expected key = value"),
    ])
    func mistakes(text: String, says: String) throws {
        let world = try Self.world(text)
        for args in [["07:00", "-D", "null", "--dry-run"], ["add", "06:30", "-D", "null"]] {
            let r = world.run(args)
            #expect(r.code == 78, "\(args): \(r)")
            #expect(r.stderrIsOneLine && r.stderr.contains(world.configFile) && r.stderr.contains(says), "\(args): \(r)")
        }
        #expect(!FileManager.default.fileExists(atPath: world.alarmsFile), "nothing stored")
        let version = world.run(["--version"])
        #expect(version.code == 0, "--version answers whatever the file says: \(version)")
    }

    @Test("a fade longer than the built-in ring is fine when the file rings longer too")
    func fadeWithItsRing() throws {
        let world = try Self.world("fade-in = \"20m\"\nring-for = \"30m\"\n")
        let r = world.run(["07:00", "-D", "null", "--dry-run", "--inhibit", "off"])
        #expect(r.code == 0 && r.stdout.contains("fading in over 20m") && r.stdout.contains("ring for: 30m"), "\(r)")
    }

    @Test("wake add stores what its command line gave, even a value equal to the built-in default, over the file's")
    func explicitDefaultIsStored() throws {
        let world = try Self.world("volume = 60\n")
        let r = world.run(["add", "06:30", "--name", "loud", "-D", "null", "--volume", "100"])
        #expect(r.code == 0, "\(r)")
        let stored = try #require(try world.listJSON().first)
        #expect(stored["options"] as? [String: String] == ["device": "null", "volume": "100"], "\(stored)")
    }

    @Test("a config file that is not a regular file is refused, not waited on")
    func notARegularFile() throws {
        let world = try Self.world(nil)
        try FileManager.default.createDirectory(atPath: world.configFile, withIntermediateDirectories: true)
        let r = world.run(["07:00", "-D", "null", "--dry-run"])
        #expect(r.code == 78 && r.stderrIsOneLine && r.stderr.contains("config file"), "\(r)")
    }

    // Was Tests/WakeTests/AdvanceNoticeTests.swift's off (its config half).
    @Test("notice-before in config.toml: a bad value refused (78) where a person is there; a good one ignored by the one-off")
    func noticeBefore() throws {
        // The daemon itself sets such a line aside and says so, as for every config key (issue 22).
        let r = try Self.world("notice-before = \"often\"\n").run(["07:00", "--dry-run", "-D", "null", "--inhibit", "off"])
        #expect(r.code == 78 && r.stderr.contains("notice-before"), "\(r)")
        let dry = try Self.world("notice-before = \"30m\"\n").run(["07:00", "--dry-run", "-D", "null", "--inhibit", "off"])
        #expect(dry.code == 0, "the one-off ignores the daemon's key: \(dry)")
    }
}
