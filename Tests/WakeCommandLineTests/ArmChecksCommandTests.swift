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
}
