import Foundation
import Testing
import WakeCore
import WakeRuntime
@testable import WakeTestSupport

/// The options stored with a standing alarm, read as the daemon reads them (issue 37 item 8):
/// one it refuses is set aside alone, and the alarm keeps the rest, its device and sound above all.
@Suite("Stored ring options, read tolerantly")
struct StoredRingSettingsTests {
    static var config: ConfigDefaults {
        ConfigDefaults(path: "/home/ann/.config/wake/config.toml",
                       entries: [ConfigFile.Entry(key: "volume", value: "60", line: 1), ConfigFile.Entry(key: "ring-for", value: "2m", line: 2)])
    }

    @Test("a bad value is set aside alone: device, sound and the rest are kept, and the line says what it does instead")
    func oneValueSetAside() throws {
        let stored = ["device": "hw:1,0", "sound": "/music/birds.flac", "volume": "150", "snooze": "4m"]
        let read = try RingSettings.tolerating(stored: stored)
        #expect(read.settings.device == "hw:1,0" && read.settings.soundPath == "/music/birds.flac")
        #expect(read.settings.volume == 100 && read.settings.engine.snooze == .seconds(240))
        let a = try #require(read.adjustments.first)
        #expect(read.adjustments.count == 1 && a.option == "volume" && a.value == "150" && a.mark == "volume set aside")
        #expect(a.line(alarm: "work") == "alarm 'work': --volume: invalid value '150'; give a whole number from 1 to 100 "
                + "(volume = \"150\" in alarms.toml); it rings with volume 100 (wake's default) instead, and keeps its other options")
        // With a config file, its value stands in, and the line says so.
        let withConfig = try RingSettings.tolerating(stored: stored, defaults: Self.config)
        #expect(withConfig.settings.volume == 60 && withConfig.settings.device == "hw:1,0")
        #expect(withConfig.adjustments.first?.instead == "rings with volume 60 (from config.toml)")
    }

    @Test("a stored sink that is no name at all is set aside alone: the alarm rings on the default device, with its other options")
    func sinkSetAside() throws {
        let read = try RingSettings.tolerating(stored: ["sink": "ear\u{1}buds", "volume": "40"])
        #expect(read.settings.sink == nil && read.settings.device == Defaults.device && read.settings.volume == 40)
        let a = try #require(read.adjustments.first)
        #expect(read.adjustments.count == 1 && a.mark == "sink set aside" && a.instead == "rings without it", "\(read.adjustments)")
        #expect(a.reason.hasPrefix("--sink: 'ear\\x01buds' holds a control character"), "\(a.reason)")
        // A good one is kept, and rung on through ALSA's pulse PCM.
        #expect(try RingSettings.tolerating(stored: ["sink": "headphones"]).settings.device == "pulse:'headphones'")
    }

    @Test("a ring-for or late-limit under a second, an empty device, an unknown key: each set aside alone")
    func others() throws {
        let read = try RingSettings.tolerating(stored: ["ring-for": "1ms", "late-limit": "5ms", "device": "", "colour": "red", "volume": "80"])
        #expect(read.settings.engine.ringFor == Defaults.ringFor && read.settings.engine.lateLimit == Defaults.lateLimit)
        #expect(read.settings.device == Defaults.device && read.settings.volume == 80)
        #expect(read.adjustments.map(\.option) == ["colour", "device", "late-limit", "ring-for"])
        #expect(read.adjustments.first { $0.option == "ring-for" }?.reason.contains("--ring-for 1ms is shorter than a second") == true)
        #expect(read.adjustments.first { $0.option == "colour" }?.instead == "rings without it")
    }

    @Test("challenge: math is read into the engine's settings; a bad word is set aside alone, said, and it rings without (any key stops)")
    func challenge() throws {
        let math = try RingSettings.tolerating(stored: ["challenge": "math", "device": "null"])
        #expect(math.settings.engine.challenge && math.adjustments.isEmpty && math.settings.device == "null")
        let bad = try RingSettings.tolerating(stored: ["challenge": "Math", "device": "null", "volume": "70"])
        #expect(!bad.settings.engine.challenge && bad.settings.device == "null" && bad.settings.volume == 70)
        let a = try #require(bad.adjustments.first)
        #expect(bad.adjustments.count == 1 && a.option == "challenge" && a.mark == "challenge set aside", "\(bad.adjustments)")
        #expect(a.line(alarm: "work").hasPrefix("alarm 'work': --challenge: invalid mode 'Math'; use off or math"), "\(a.line(alarm: "work"))")
        #expect(try !RingSettings.tolerating(stored: [:]).settings.engine.challenge, "off by default")
    }

    @Test("a message over the limit is cut, and said; an empty one is set aside")
    func message() throws {
        let long = String(repeating: "Dentist at 9. ", count: 11)  // 154 characters
        let read = try RingSettings.tolerating(stored: ["message": long, "device": "null"])
        #expect(read.settings.message == String(long.prefix(119)) + "…")
        #expect(read.settings.message?.count == AlarmMessage.limit)
        #expect(read.settings.device == "null")
        let a = try #require(read.adjustments.first)
        #expect(a.mark == "message cut" && a.line(alarm: "work").contains("the message has 154 characters, more than the limit of 120"))
        #expect(a.instead == "shows its first 119 characters and …")
        let blank = try RingSettings.tolerating(stored: ["message": "   "])
        #expect(blank.settings.message == nil && blank.adjustments.first?.mark == "message set aside")
    }

    @Test("a fade longer than the ring (the alarm's fade, config.toml's ring-for) is cut to the ring; nothing else changes")
    func fadeCutToTheRing() throws {
        let read = try RingSettings.tolerating(stored: ["fade-in": "5m", "device": "hw:1,0"], defaults: Self.config)
        #expect(read.settings.fadeIn == .seconds(120) && read.settings.engine.ringFor == .seconds(120))
        #expect(read.settings.device == "hw:1,0" && read.settings.volume == 60)
        let a = try #require(read.adjustments.first)
        #expect(read.adjustments.count == 1 && a.option == "fade-in" && a.value == "5m" && a.mark == "fade-in cut to 2m")
        #expect(a.line(alarm: "work") == "alarm 'work': --fade-in 5m is longer than --ring-for 2m; shorten the fade or ring longer "
                + "(fade-in stored with the alarm, ring-for from config.toml); it fades in over 2m (the whole ring) instead, and keeps its other options")
    }

    @Test("a long snooze shorter than the snooze: refused on the command line, set aside by the daemon and config.toml's tolerant read")
    func longSnoozeShorterThanTheSnooze() throws {
        #expect(throws: WakeFailure.self) { _ = try RingSettings(values: ["snooze": "10m", "snooze-long": "5m"]) }
        #expect(try RingSettings(values: ["snooze": "10m", "snooze-long": "10m"]).engine.snoozeLong == .seconds(600), "as long is fine")
        #expect(RingSettings.longSnoozeProblem(["snooze-long": "1m"])?.hasPrefix("--snooze-long 1m is shorter than --snooze 9m") == true,
                "against the built-in snooze")
        let read = try RingSettings.tolerating(stored: ["snooze": "10m", "snooze-long": "5m", "device": "hw:1,0"])
        #expect(read.settings.engine.snoozeLong == .seconds(1200) && read.settings.device == "hw:1,0")
        let a = try #require(read.adjustments.first)
        #expect(read.adjustments.count == 1 && a.option == "snooze-long" && a.mark == "snooze-long set aside")
        #expect(a.line(alarm: "work").hasPrefix("alarm 'work': --snooze-long 5m is shorter than --snooze 10m; ")
                && a.line(alarm: "work").contains("(snooze-long stored with the alarm, snooze stored with the alarm); it snoozes twice the snooze"))

        let dir = try TestDirectory()
        let path = dir.file("config.toml")
        try "snooze = \"10m\"\nsnooze-long = \"5m\"\nvolume = 60\n".write(toFile: path, atomically: false, encoding: .utf8)
        let config = ConfigDefaults.loadTolerant(path: path)
        #expect(config.entry("snooze-long") == nil && config.entry("volume")?.value == "60")
        #expect(config.problems.count == 1 && config.problems[0].contains("--snooze-long 5m is shorter than --snooze 10m"), "\(config.problems)")
    }

    @Test("""
        a snooze over 12h (90h for 90s): refused by wake add and the API's Add (64) and config.toml's strict read (78); \
        set aside, said, by the daemon's reads
        """)
    func snoozeCeiling() throws {
        // `wake add` and the D-Bus API's Add read their options through this one path.
        for (key, value) in [("snooze", "90h"), ("snooze-long", "3650d")] {
            do {
                _ = try RingSettings(layering: [key: value], under: ConfigDefaults(), given: ["--" + key])
                Issue.record("\(key) \(value) accepted")
            } catch {
                #expect(error.kind == .usage
                        && error.message == "--\(key) \(value) is longer than 12h, the longest it may be; give 12h or less")
            }
        }
        #expect(try RingSettings(values: ["snooze": "12h"]).engine.snoozeLong == .seconds(12 * 3600), "twice 12h is cut to 12h")

        // A stored alarm: the snooze set aside alone, the default used, the rest kept.
        let read = try RingSettings.tolerating(stored: ["snooze": "90h", "device": "hw:1,0"])
        #expect(read.settings.engine.snooze == Defaults.snooze && read.settings.device == "hw:1,0")
        let a = try #require(read.adjustments.first)
        #expect(read.adjustments.count == 1 && a.option == "snooze" && a.mark == "snooze set aside")
        #expect(a.line(alarm: "work") == "alarm 'work': --snooze 90h is longer than 12h, the longest it may be; give 12h or less "
                + "(snooze = \"90h\" in alarms.toml); it rings with snooze 9m (wake's default) instead, and keeps its other options")

        let dir = try TestDirectory()
        let path = dir.file("config.toml")
        try "snooze = \"90h\"\nvolume = 60\n".write(toFile: path, atomically: false, encoding: .utf8)
        do {
            _ = try ConfigDefaults.load(path: path)
            Issue.record("config.toml's snooze = \"90h\" accepted")
        } catch {
            #expect(error.kind == .config
                    && error.message.hasSuffix("line 1, snooze: --snooze 90h is longer than 12h, the longest it may be; give 12h or less"),
                    "\(error.message)")
        }
        let tolerant = ConfigDefaults.loadTolerant(path: path)
        #expect(tolerant.entry("snooze") == nil && tolerant.entry("volume")?.value == "60")
        #expect(tolerant.problems.count == 1 && tolerant.problems[0].contains("line 1, snooze: --snooze 90h is longer than 12h")
                && tolerant.problems[0].hasSuffix("wake's built-in value is used instead"), "\(tolerant.problems)")
        #expect(try RingSettings(values: tolerant.values(for: ConfigDefaults.ringKeys)).engine.snooze == Defaults.snooze)
    }

    @Test("a sound named relative to config.toml is read from the file's directory; an absolute one is left as it is")
    func configSoundAnchored() throws {
        let dir = try TestDirectory()
        let path = dir.file("config.toml")
        try "sound = \"tone.wav\"\npre-alarm-sound = \"/usr/share/sounds/a.wav\"\ndevice = \"null\"\n".write(toFile: path, atomically: false, encoding: .utf8)
        for config in [try ConfigDefaults.load(path: path), ConfigDefaults.loadTolerant(path: path)] {
            #expect(config.entry("sound")?.value == dir.file("tone.wav"))
            #expect(config.entry("pre-alarm-sound")?.value == "/usr/share/sounds/a.wav" && config.entry("device")?.value == "null")
        }
    }

    @Test("options that all check: the same settings as the command line's, and nothing said")
    func clean() throws {
        let stored = ["device": "null", "volume": "80", "fade-in": "30s", "message": "Stand-up"]
        let read = try RingSettings.tolerating(stored: stored, defaults: Self.config)
        #expect(read.adjustments.isEmpty)
        let strict = try RingSettings(values: Self.config.values(for: ConfigDefaults.ringKeys).merging(stored) { $1 })
        #expect(read.settings.values == strict.values && read.settings.engine == strict.engine && read.settings.message == "Stand-up")
    }

    @Test("a bad stored pre-alarm is set aside alone: the alarm rings without one and keeps the rest")
    func preAlarmSetAside() throws {
        let read = try RingSettings.tolerating(stored: ["device": "hw:1,0", "pre-alarm": "10m,0", "pre-alarm-sound": "/music/soft.flac"])
        #expect(read.settings.device == "hw:1,0" && read.settings.engine.preAlarm == nil)
        let a = try #require(read.adjustments.first)
        #expect(read.adjustments.count == 1 && a.option == "pre-alarm" && a.mark == "pre-alarm set aside")
        #expect(a.line(alarm: "work").hasPrefix("alarm 'work': --pre-alarm: invalid volume '0'"))
        #expect(a.line(alarm: "work").hasSuffix("it rings without a pre-alarm instead, and keeps its other options"))
        let good = try RingSettings.tolerating(stored: ["pre-alarm": "5m,30"])
        #expect(good.adjustments.isEmpty && good.settings.engine.preAlarm == PreAlarm(lead: .seconds(300), percent: 30))
    }
}
