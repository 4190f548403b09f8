import Foundation
import Testing
@testable import WakeTestSupport

/// Issue 38's example through the command line: a sound silent at the chosen volume, refused by
/// `wake add` exactly as by the one-off. (In process since issue 50; was
/// Tests/WakeTests/ArmChecksEndToEndTests.swift's refusedAlike. The check itself, in each mode:
/// Tests/WakeRuntimeTests/ArmChecksTests.swift; the daemon ringing the built-in stays end to end.)
@Suite("Arm checks on the command line: one rule for the one-off and wake add")
struct ArmChecksCommandTests {
    @Test("quiet.wav at --volume 5: the one-off and wake add both exit 66 with the same line; nothing is added")
    func refusedAlike() async throws {
        let world = try TestWorld()
        let quiet = try await makeSound(in: world.dir, name: "quiet.wav", rate: 22050, channels: 1, seconds: "2",
                                        synth: ["sine", "440", "vol", "-50dB"])
        let oneOff = world.run(["07:00", "--dry-run", "-s", quiet, "--volume", "5", "-D", "null"])
        let add = world.run(["add", "07:00", "--days", "daily", "-s", quiet, "--volume", "5", "-D", "null"])
        #expect(oneOff.code == 66 && add.code == 66, "\(oneOff)\n\(add)")
        #expect(oneOff.err == add.err && add.stderr.contains("the sound is silent") && add.stderr.contains("--volume 5"), "\(add)")
        #expect(!FileManager.default.fileExists(atPath: world.alarmsFile))
        // At full volume the same file is fine for both.
        let loud = world.run(["add", "07:00", "--days", "daily", "-s", quiet, "-D", "null"])
        #expect(loud.code == 0, "\(loud)")
    }

    @Test("a --hook whose program is not on PATH, or not executable, is refused alike (64) before the wait; one that runs is taken")
    func hookProgramRefused() throws {
        let world = try TestWorld()
        let plain = world.dir.file("lamp")
        try "#!/bin/sh\n".write(toFile: plain, atomically: true, encoding: .utf8)  // 0644: not executable
        for (hook, said) in [("ringing=wake-no-such-lamp on", "hook 'ringing=wake-no-such-lamp on': no program 'wake-no-such-lamp' on "
                                 + "PATH; give its full path or install it"),
                             ("stopped=\(plain)",
                              "hook 'stopped=\(plain)': '\(plain)' is not executable, so it is not run; chmod u+x it")] {
            let oneOff = world.run(["07:00", "--dry-run", "-D", "null", "--hook", hook])
            let add = world.run(["add", "07:00", "--days", "daily", "-D", "null", "--hook", hook])
            #expect(oneOff.code == 64 && add.code == 64 && oneOff.err == add.err, "\(oneOff)\n\(add)")
            #expect(add.stderr.contains(said), "\(add)")
        }
        #expect(!FileManager.default.fileExists(atPath: world.alarmsFile))
        #expect(world.run(["07:00", "--dry-run", "-D", "null", "--hook", "ringing=sh -c true"]).code == 0)
    }

    @Test("config.toml's hook whose program is missing is a config error (78) naming the file and line; a --hook given outweighs it")
    func configHookRefused() throws {
        let world = try TestWorld()
        try world.writeConfig("volume = \"80\"\nhook = [\"ringing=wake-no-such-lamp on\"]\n")
        let said = "config file '\(world.configFile)' line 2, hook: hook 'ringing=wake-no-such-lamp on': no program 'wake-no-such-lamp'"
        for args in [["07:00", "--dry-run", "-D", "null"], ["add", "07:00", "--days", "daily", "-D", "null"]] {
            let r = world.run(args)
            #expect(r.code == 78 && r.stderr.contains(said), "\(r)")
        }
        #expect(world.run(["07:00", "--dry-run", "-D", "null", "--hook", "ringing=sh -c true"]).code == 0)
    }
}
