import Foundation
import Testing
@testable import WakeTestSupport

/// `--sink` on the command line (issue 52, item 3): what is refused before any sound server is
/// asked, the same for the one-off and `wake add`. The server's answers (a sink it lacks: 69
/// with the ones it has) are in Tests/WakeTests/SoundServer/SinkEndToEndTests.swift.
@Suite("--sink on the command line")
struct SinkCommandTests {
    @Test("an empty or control-character name is a usage error (64), as is --sink beside another --device")
    func refused() throws {
        let world = try TestWorld()
        for start in [["07:00", "--dry-run"], ["add", "07:00", "--days", "daily"]] {
            let empty = world.run(start + ["--sink", ""])
            #expect(empty.code == 64 && empty.err == ["wake: --sink: empty sink name; give a sink's name or description "
                + "('wake --list-devices' lists them), or leave it out"], "\(empty)")
            let control = world.run(start + ["--sink", "a\u{7}b"])
            #expect(control.code == 64 && control.stderr.contains("--sink: 'a\\x07b' holds a control character"), "\(control)")
            let both = world.run(start + ["--sink", "speaker", "-D", "null"])
            #expect(both.code == 64 && both.stderr.contains("--sink 'speaker' and --device 'null' both say where to ring"), "\(both)")
        }
        #expect(!FileManager.default.fileExists(atPath: world.alarmsFile))
    }

    @Test("config.toml's sink gives way to a --device on the command line: one choice of where to ring")
    func deviceOverConfigSink() throws {
        let world = try TestWorld()
        try world.writeConfig("sink = \"headphones\"\n")
        let r = world.run(["07:00", "--dry-run", "-D", "null", "--inhibit", "off"])
        #expect(r.code == 0 && r.stdout.contains("sink: the sound server's default sink"), "\(r)")
    }
}
