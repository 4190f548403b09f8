import Testing
@testable import WakeTestSupport

/// Dry runs and refusals of the one-off's command line. (In process since issue 50; were
/// Tests/WakeTests/SoundDeviceErrorTests.swift's dryRunWithSound and HardeningEndToEndTests.swift's
/// volumeZero, bundledShortOptions, twoWordTime and explicitOffset. The refusals of `+1h` without
/// --dry-run stay end to end: their point is that the binary exits instead of waiting.)
@Suite("Dry runs and the one-off's refusals: the command line")
struct DryRunCommandTests {
    @Test("--dry-run with a good sound prints sound: and device: lines")
    func dryRunWithSound() async throws {
        let world = try TestWorld()
        let path = try await makeSound(in: world.dir, name: "good.wav", rate: 48000, channels: 2)
        let r = world.run(["07:00", "--dry-run", "-D", "null", "-s", path])
        #expect(r.code == 0, "\(r)")
        #expect(r.err.isEmpty, "\(r)")
        let sound = r.out.first { $0.hasPrefix("sound: ") }
        let device = r.out.first { $0.hasPrefix("device: ") }
        #expect(sound?.contains(path) == true, "\(r)")
        #expect(sound?.contains("2 ch") == true, "\(r)")
        #expect(sound?.contains("48000") == true, "\(r)")
        #expect(device?.contains("null") == true, "\(r)")
    }

    @Test("--volume 0 is refused (64): an alarm nobody can hear")
    func volumeZero() throws {
        let r = try runWake(["07:00", "--dry-run", "-D", "null", "--volume", "0"])
        #expect(r.code == 64, "wake accepted --volume 0, a silent alarm: \(r)")
        #expect(r.stderrIsOneLine, "\(r)")
    }

    @Test("bundled short options count: -D null -qD other is -D given twice (64)")
    func bundledShortOptions() throws {
        let r = try runWake(["07:00", "--dry-run", "-D", "null", "-qD", "other"])
        #expect(r.code == 64, "\(r)")
        #expect(r.stderr.contains("given more than once"), "\(r)")
    }

    @Test("'7:30 pm' as two words is a time (dry run: 0)")
    func twoWordTime() throws {
        let r = try runWake(["7:30", "pm", "--dry-run", "-D", "null", "--inhibit", "off"])
        #expect(r.code == 0, "docs/guide.md's '7:30 pm' form was refused: \(r)")
        #expect(r.stdout.contains("T19:30:00"), "7:30 pm is 19:30: \(r)")
    }

    @Test("a date and time with an offset or Z is that instant", arguments: [
        ("2030-01-01T07:00+01:00", "2030-01-01T06:00:00+00:00"), ("2030-01-01T07:00Z", "2030-01-01T07:00:00+00:00"),
    ])
    func explicitOffset(when: String, utc: String) throws {
        let r = try runWake([when, "--dry-run", "-D", "null", "--inhibit", "off"])
        #expect(r.code == 0, "\(r)")
        #expect(r.stdout.contains("wake time: \(utc)"), "\(when) should ring at \(utc): \(r)")
    }
}
