import Foundation
import Testing
@testable import WakeTestSupport

/// Dry runs and refusals of the one-off's command line. (In process since issue 50; were
/// Tests/WakeTests/SoundDeviceErrorTests.swift's dryRunWithSound and HardeningEndToEndTests.swift's
/// volumeZero, bundledShortOptions, twoWordTime and explicitOffset. The refusals of `+1h` without
/// --dry-run stay end to end: their point is that the binary exits instead of waiting. Also in
/// process since then: SoundServer/PreAlarmEndToEndTests.swift's longerThanLeft and badPreAlarmSound,
/// NotificationTests.swift's badMode.)
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

    @Test("a pre-alarm longer than the time left starts at once, and the dry run says so")
    func preAlarmLongerThanLeft() throws {
        let dry = try runWake(["+3s", "-D", "null", "--pre-alarm", "10m,30", "--dry-run"])
        let said = "pre-alarm: 10m before, at 30 % of the volume (30 %) (less than that is left: it starts at once)"
        #expect(dry.code == 0 && dry.stdout.contains(said), "\(dry)")
        let bad = try runWake(["+3s", "-D", "null", "--pre-alarm", "10m,0", "--dry-run"])
        #expect(bad.code == 64 && bad.stderrIsOneLine && bad.stderr.contains("--pre-alarm: invalid volume '0'"), "\(bad)")
    }

    @Test("""
        a pre-alarm sound that does not open, or is silent at the pre-alarm's volume: the one-off and wake add both exit 66, \
        one line; nothing added
        """)
    func badPreAlarmSound() async throws {
        let world = try TestWorld()
        let quiet = try await makeSound(in: world.dir, name: "quiet.wav", rate: 22050, channels: 1, seconds: "2",
                                        synth: ["sine", "440", "vol", "-40dB"])
        for sound in [quiet, world.dir.file("missing.wav")] {
            let common = ["-D", "null", "--pre-alarm", "10m,5", "--pre-alarm-sound", sound, "--volume", "50"]
            let oneOff = world.run(["07:00", "--dry-run"] + common)
            let add = world.run(["add", "07:00", "--days", "daily"] + common)
            #expect(oneOff.code == 66 && add.code == 66 && oneOff.stderrIsOneLine && oneOff.stderr == add.stderr, "\(oneOff)\n\(add)")
            #expect(add.stderr.contains("--pre-alarm-sound") && add.stderr.contains("leave --pre-alarm-sound out"), "\(add)")
        }
        #expect(!FileManager.default.fileExists(atPath: world.alarmsFile))
        // Without a pre-alarm the option is not checked (nothing plays it); with a loud enough one it is fine.
        let fine = world.run(["add", "07:00", "--days", "daily", "-D", "null", "--pre-alarm", "10m,100", "--pre-alarm-sound", quiet])
        #expect(fine.code == 0, "\(fine)")
    }

    @Test("--notify: a bad mode, or given twice, is a usage error",
          arguments: [["--notify", "maybe"], ["--notify", "off", "--notify=auto"]])
    func badNotifyMode(_ args: [String]) throws {
        let r = try runWake(["+1h", "-D", "null", "--dry-run"] + args)
        #expect(r.code == 64 && r.stderrIsOneLine && r.stderr.contains("--notify"), "\(r)")
    }
}
