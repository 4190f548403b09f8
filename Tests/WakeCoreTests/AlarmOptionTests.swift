import Testing
@testable import WakeCore

/// The one description of every alarm option: each kind's checks and messages, and the lists
/// the rest of wake reads from it.
@Suite("AlarmOption: every option described once")
struct AlarmOptionTests {
    func problem(_ option: AlarmOption, _ text: String) -> String? {
        if case .failure(let p) = option.parse(text) { return p.message }
        return nil
    }

    @Test("every default is a value its own option accepts")
    func defaultsParse() {
        for option in AlarmOption.all {
            guard let d = option.defaultText else { continue }
            #expect(problem(option, d) == nil, "\(option.name)'s default '\(d)'")
        }
    }

    @Test("names are unique, short options too, and the scopes give the lists the files use")
    func lists() {
        #expect(Set(AlarmOption.all.map(\.name)).count == AlarmOption.all.count)
        let shorts = AlarmOption.all.compactMap(\.short)
        #expect(Set(shorts).count == shorts.count)
        // alarms.toml writes the stored options in the table's order, the message last.
        #expect(AlarmBook.optionOrder == AlarmOption.all(.stored).map(\.name) && AlarmBook.optionOrder.last == "message")
        #expect(!AlarmOption.all(.config).contains(.message), "a message belongs to one alarm")
        #expect(AlarmOption.all(.ring).allSatisfy { $0.scope.contains(.stored) }, "wake add stores every ring option")
    }

    @Test("each kind's checks, with the messages the command line gives")
    func checks() {
        #expect(problem(.sound, "") == "--sound: empty file name; give a sound file or leave the option out")
        #expect(problem(.device, "") == "--device: empty device name; try 'default', or see 'wake --list-devices'")
        #expect(problem(.volume, "0") == "--volume 0: the sound is silent; give a volume from 1 to 100")
        #expect(problem(.volume, "101") == "--volume: invalid value '101'; give a whole number from 1 to 100")
        #expect(problem(.volume, "+5") != nil)
        #expect(problem(.volume, "55") == nil)
        #expect(problem(.minVolume, "0") == "--min-volume: invalid value '0'; give a whole number from 1 to 100 (percent)")
        #expect(problem(.snooze, "0") == "--snooze: must be longer than zero, as 9m")
        #expect(problem(.snooze, "soon")?.hasPrefix("--snooze: ") == true)
        #expect(problem(.ringFor, "0") == nil && problem(.lateLimit, "0") == nil && problem(.fadeIn, "0") == nil)
        #expect(problem(.ringFor, "500ms")?.hasPrefix("--ring-for 500ms is shorter than a second") == true)
        #expect(problem(.lateLimit, "1ms")?.hasPrefix("--late-limit 1ms is shorter than a second") == true)
        #expect(problem(.ringFor, "1s") == nil)
        #expect(problem(.snoozeLimit, "0") == nil && problem(.snoozeLimit, "99") == nil)
        #expect(problem(.snoozeLong, "18m") == nil && problem(.snoozeLong, "0")?.hasPrefix("--snooze-long: must be longer than zero") == true)
        #expect(AlarmOption.snoozeLong.defaultText == nil, "unset, it follows --snooze")
        #expect(problem(.snoozeLimit, "100") == "--snooze-limit: invalid value '100'; give a whole number from 0 to 99")
        #expect(problem(.snoozeLimit, "two")?.hasPrefix("--snooze-limit: invalid value 'two'") == true)
        #expect(problem(.mixer, "on") == "--mixer: invalid mode 'on'; use auto (raise a muted or quiet output while ringing) or off")
        #expect(problem(.inhibit, "maybe") == "--inhibit: invalid mode 'maybe'; use auto, require or off")
        #expect(problem(.message, " ")?.hasPrefix("--message: empty message") == true)
        #expect(problem(.message, String(repeating: "x", count: 121))?.contains("more than the limit of 120") == true)
        // Untrusted text is escaped in the message.
        #expect(problem(.mixer, "\u{1B}[2J")?.contains("\u{1B}") == false)
    }

    @Test("a snooze, short or long, is at most 12h (SnoozeLength.longest), as 'wake snooze LENGTH' is: 90h for 90s is refused at arm time")
    func snoozeCeiling() {
        #expect(SnoozeLength.longest == .seconds(12 * 3600))
        for option in [AlarmOption.snooze, .snoozeLong] {
            #expect(problem(option, "12h") == nil && problem(option, "43200s") == nil, "\(option.name): 12h is the longest, and allowed")
            #expect(problem(option, "90h") == "\(option.flag) 90h is longer than 12h, the longest it may be; give 12h or less")
            #expect(problem(option, "12h1s") != nil && problem(option, "3650d") != nil)
            #expect(option.expects == "a duration up to 12h, as 9m")
        }
        // Left unset, the long button is twice the snooze, within the ceiling too.
        #expect(AlarmEngine.Settings(snooze: .seconds(12 * 3600)).snoozeLong == SnoozeLength.longest)
        #expect(AlarmEngine.Settings(snooze: .seconds(8 * 3600)).snoozeLong == SnoozeLength.longest)
        // The other durations have no ceiling.
        #expect(problem(.ringFor, "13h") == nil && problem(.lateLimit, "2d") == nil)
    }

    @Test("values come back typed")
    func typed() throws {
        #expect(try AlarmOption.volume.parse("40").get() == .number(40))
        #expect(try AlarmOption.ringFor.parse("2m").get() == .duration(.seconds(120)))
        #expect(try AlarmOption.device.parse("null").get() == .text("null"))
        #expect(AlarmOption.named("fade-in") == .fadeIn && AlarmOption.named("nope") == nil)
        #expect(AlarmOption.mixer.words == ["auto", "off"] && AlarmOption.volume.words.isEmpty)
        #expect(try AlarmOption.snoozeLimit.parse("3").get() == .number(3))
    }

    @Test("what each kind expects, for a value that is not one at all")
    func expects() {
        #expect(AlarmOption.volume.expects == "a whole number from 1 to 100")
        #expect(AlarmOption.snoozeLimit.expects == "a whole number from 0 to 99")
        #expect(AlarmOption.ringFor.expects == "a duration from zero up, as 9m")
        #expect(AlarmOption.inhibit.expects == "auto, require or off")
    }
}
