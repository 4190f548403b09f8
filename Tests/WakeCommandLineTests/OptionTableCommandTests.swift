import Foundation
import Testing
import WakeCore
@testable import WakeTestSupport

/// The command line and both files against the one description of the options (`AlarmOption`):
/// an option added there and forgotten somewhere fails here. (In process since issue 50; were
/// Tests/WakeTests/OptionTableTests.swift's ringOptionsEverywhere and negativeValues. The guide's
/// and the manual's tables stay there.)
@Suite("Options on the command line: the command line and the files agree with the one table")
struct OptionTableCommandTests {
    static var sound: String { packageRoot + "/Resources/alarm.flac" }

    @Test("every ring option: in --help with its help, taken by wake add and stored, and a config key where the table says")
    func ringOptionsEverywhere() throws {
        let world = try TestWorld()
        let help = world.run(["--help"])
        let addHelp = world.run(["add", "--help"])
        #expect(help.code == 0 && addHelp.code == 0 && help.err.isEmpty, "\(help)")
        for option in AlarmOption.all(.ring) {
            // ArgumentParser wraps long lines: compare the first words of the help.
            let start = option.help.split(separator: " ").prefix(4).joined(separator: " ")
            #expect(help.stdout.contains(option.flag) && help.stdout.contains(start), "wake --help lacks \(option.flag)")
            #expect(addHelp.stdout.contains(option.flag), "wake add --help lacks \(option.flag)")
        }
        // Every stored option through wake add, each with a value of its own kind.
        let values: [String: String] = ["sound": Self.sound, "device": "null", "volume": "40", "fade-in": "1s", "snooze": "5m",
                                        "snooze-long": "12m", "snooze-limit": "2", "snooze-volume": "40", "ring-for": "2m",
                                        "unattended": "ring", "unattended-rounds": "2", "escalate": "on", "check-up": "5m",
                                        "late-limit": "10m", "min-volume": "30", "mixer": "off", "mpris": "snooze-only", "say": "on",
                                        "message": "Hi", "pre-alarm": "5m,30", "pre-alarm-sound": Self.sound,
                                        "challenge": "math", "hook": "ringing=true", "hook-timeout": "30s", "light": "flash"]
        var args = ["add", "06:30", "--name", "all", "--days", "daily"]
        // --sink goes with the sound server's device, not -D null, and needs a server to check it:
        // Tests/WakeTests/SoundServer/SinkEndToEndTests.swift adds one (its refusals: SinkCommandTests).
        for option in AlarmOption.all(.ring) where option != .sink {
            let value = try #require(values[option.name], "give \(option.name) a test value here")
            args += [option.flag, value]
        }
        // And the schedule's (wake add's alone), a holiday calendar.
        let calendar = world.dir.file("holidays.ics")
        try ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20261225\r\nSUMMARY:Christmas Day\r\nRRULE:FREQ=YEARLY\r\n"
             + "END:VEVENT\r\nEND:VCALENDAR\r\n")
            .write(toFile: calendar, atomically: true, encoding: .utf8)
        let schedule: [String: String] = ["skip-days": calendar, "weeks": "odd", "every": "3d", "from": "2026-12-07", "lead": "90m",
                                          "before-first-event": calendar, "group": "school", "bedtime": "8h"]
        // The first event's alarm has no WHEN: a second alarm.
        var byEvents = ["add", "--name", "events", "-D", "null"]
        for option in AlarmOption.all(.schedule) {
            let value = try #require(schedule[option.name], "give \(option.name) a test value here")
            if option == .beforeFirstEvent || option == .lead { byEvents += [option.flag, value] } else { args += [option.flag, value] }
        }
        let add = world.run(args)
        #expect(add.code == 0, "\(add)")
        try ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20270302T090000Z\r\nSUMMARY:Stand-up\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
            .write(toFile: calendar + "-events.ics", atomically: true, encoding: .utf8)
        byEvents[byEvents.firstIndex(of: calendar) ?? 0] = calendar + "-events.ics"
        let events = world.run(byEvents)
        #expect(events.code == 0, "\(events)")
        let stored = try String(contentsOfFile: world.alarmsFile, encoding: .utf8)
        for option in AlarmOption.all(.stored) where option != .sink && option != .switchState {
            #expect(stored.contains("\n\(option.name) = "), "alarms.toml lacks \(option.name): \(stored)")
        }
        // Each config key is read (a wrong value names it), and nothing else is a key.
        for option in AlarmOption.all(.config) {
            // Empty: no kind of value takes it.
            try world.writeConfig("\(option.name) = \"\"\n")
            let r = world.run(["07:00", "--dry-run", "-D", "null"])
            #expect(r.code == 78 && r.stderr.contains(option.name), "config key \(option.name): \(r)")
        }
        try world.writeConfig("message = \"Hi\"\n")
        let r = world.run(["07:00", "--dry-run", "-D", "null"])
        #expect(r.code == 78 && r.stderr.contains("unknown key 'message'"), "\(r)")
    }

    @Test("a negative value is refused with what the option takes, from the table")
    func negativeValues() throws {
        let world = try TestWorld()
        for option in AlarmOption.all(.ring) {
            switch option.kind {
            case .percent, .count, .duration, .choice, .preAlarm, .light: break
            // A name or a note: said as "looks like an option"; days and dates are wake add's alone.
            case .file, .files, .device, .sink, .message, .hooks, .days, .date, .name: continue
            }
            let r = world.run(["07:00", "--dry-run", "-D", "null", option.flag, "-1"])
            #expect(r.code == 64 && r.stderr.contains("\(option.flag): negative value '-1'; give \(option.expects)"),
                    "\(option.flag): \(r)")
        }
        // A command's own count too: `wake skip --count -1` was called a time in the past.
        let r = world.run(["skip", "work", "--count", "-1"])
        #expect(r.code == 64 && r.stderr.contains("--count -1: give a count from 1 to 366"), "\(r)")
    }
}

extension OptionTableCommandTests {
    @Test("wake --help lists every command in one block, each with its own abstract, within 80 columns")
    func helpListsEveryCommand() throws {
        let help = try TestWorld().run(["--help"])
        #expect(help.code == 0, "\(help)")
        let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "Commands (each takes --help):"), "\(help.stdout)")
        let block = lines[start...].prefix { !$0.isEmpty }
        let names = block.dropFirst().compactMap { $0.hasPrefix("  ") && !$0.hasPrefix("   ") ? $0.split(separator: " ").first : nil }
        #expect(names == ["add", "list", "next", "skip", "pause", "resume", "remove", "change", "on", "off", "timer", "extend", "sleep",
                          "stop",
                          "snooze", "cancel", "daemon", "doctor", "test", "holidays", "help"], "\(block)")
        #expect(block.allSatisfy { $0.count < 80 }, "\(block)")
        #expect(block.contains { $0.contains("doctor") && $0.contains("Check that the standing alarms") })
    }
}

extension OptionTableCommandTests {
    @Test("clock = \"12h\" in config.toml: add, list and next read 6:30 PM; their --json stays 24-hour; a locale's month first")
    func twelveHourClock() throws {
        var world = try TestWorld()
        try world.writeConfig("clock = \"12h\"\n")
        var r = world.run(["add", "18:30", "--days", "weekdays", "--name", "work", "-D", "null"])
        #expect(r.code == 0 && r.stdout.contains("added 'work': 6:30 PM on weekdays; next 6:30 PM today, in 13h 30m"), "\(r)")
        r = world.run(["list"])
        #expect(r.stdout.split(separator: "\n").contains { $0.hasPrefix("work  6:30 PM  weekdays  6:30 PM today") }, "\(r)")
        #expect(try world.listJSON().first?["time"] as? String == "18:30:00", "machines read 24-hour")
        r = world.run(["next", "--json"])
        #expect(r.stdout.contains("\"time\":\"18:30\"") && r.stdout.contains("\"text\":\"6:30 PM today (work), in 13h 30m\""), "\(r)")
        // en_US's formats: month first too; clock = "24h" keeps its dates and takes its hours.
        world.localeClock = ("%r", "%m/%d/%Y")
        r = world.run(["add", "2028-06-15T07:15", "--name", "trip", "-D", "null"])
        #expect(r.code == 0 && r.stdout.contains("next 7:15 AM Thu, Jun 15, 2028"), "\(r)")
        try world.writeConfig("clock = \"24h\"\n")
        r = world.run(["next", "--json"])
        #expect(r.stdout.contains("\"text\":\"18:30 today (work), in 13h 30m\""), "\(r)")
        r = world.run(["skip", "trip"])
        #expect(r.stdout.contains("skipping 'trip' at Thu, Jun 15, 2028 07:15"), "\(r)")
        try world.writeConfig("clock = \"13h\"\n")
        r = world.run(["list"])
        #expect(r.code == 78 && r.stderr.contains("clock"), "a bad value is the config file's mistake: \(r)")
    }
}
