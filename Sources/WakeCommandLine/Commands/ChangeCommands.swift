import ArgumentParser
import WakeCore
import WakeRuntime

/// `wake change NAME [WHEN] [options]`: a standing alarm edited in place.
struct ChangeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change",
        abstract: "Change a standing alarm in place, keeping its skips, pauses and history.",
        discussion: """
            Options given replace those stored; the rest are kept. WHEN, if given, replaces the time (a new time keeps the days; \
            a date or a day and a time makes it a one-off). --reset OPTION takes an option back to its default (repeatable: \
            days makes it a one-off). A skip of a day the alarm no longer rings on is dropped, and said.
            """)

    @Argument(help: "The alarm's name (see 'wake list').")
    var name: String

    @Argument(help: ArgumentHelp("A new time of day, day and time, or local date and time.", valueName: "when"),
              completion: CompletionValues.addWhen)
    var when: [String] = []

    @Option(help: "The days it rings on from now.", completion: CompletionValues.days)
    var days: String?

    @Option(name: .customLong("name"), help: ArgumentHelp("Rename it (a name not taken; its history follows).", valueName: "new"))
    var newName: String?

    @OptionGroup var ring: RingOptionGroup

    @Option(help: ArgumentHelp(AlarmOption.skipDays.help, valueName: "file"), completion: .file(extensions: ["ics"]))
    var skipDays: [String] = []

    @Option(help: ArgumentHelp(AlarmOption.group.help, valueName: "group"))
    var group: String?

    @Option(help: ArgumentHelp(AlarmOption.bedtime.help, valueName: "duration"))
    var bedtime: String?

    /// `AlarmOption.kept` given, by name.
    var kept: [String: String] { [AlarmOption.group.name: group, AlarmOption.bedtime.name: bedtime].compactMapValues { $0 } }

    @OptionGroup var schedule: DayRuleOptionGroup

    @Flag(help: "Change it even to ring at the same time on the same days as another alarm (without it, that is refused).")
    var force = false

    @Option(help: ArgumentHelp("Take this option back to its default (its name without dashes, as volume; days: once).",
                               valueName: "option"), completion: CompletionValues.reset)
    var reset: [String] = []

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false
}

/// `wake off NAME...`: the alarm's switch off.
struct OffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "off",
        abstract: "Switch standing alarms off: kept, with their skips and pauses, but never rung until 'wake on'.")

    @Argument(help: ArgumentHelp("The alarms to switch off.", valueName: "name"))
    var names: [String] = []

    @Option(help: ArgumentHelp("Every alarm of this group (see --group of 'wake add').", valueName: "group"))
    var group: String?

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false
}

/// `wake on NAME...`: the alarm's switch on.
struct OnCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "on",
        abstract: "Switch standing alarms on again: each rings from its next occurrence (none that passed while off).")

    @Argument(help: ArgumentHelp("The alarms to switch on.", valueName: "name"))
    var names: [String] = []

    @Option(help: ArgumentHelp("Every alarm of this group (see --group of 'wake add').", valueName: "group"))
    var group: String?

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false
}

/// What `wake on` and `wake off` share, for one dispatch.
protocol SwitchCommand: ParsableCommand {
    var names: [String] { get }
    var group: String? { get }
    var quiet: Bool { get }
}
extension OnCommand: SwitchCommand {}
extension OffCommand: SwitchCommand {}
