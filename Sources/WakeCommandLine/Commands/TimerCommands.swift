import ArgumentParser
import WakeCore
import WakeRuntime

/// `wake timer SPAN [NAME]`: a standing one-off SPAN from now, with a timer's habits.
struct TimerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timer",
        abstract: "Start a timer, rung by 'wake daemon': 'wake pause NAME' holds it, 'wake resume NAME' starts it again, "
            + "'wake extend NAME 2m' adds time.",
        discussion: "SPAN is 4m, 90s, 1h30m (1s to 366d). The timer is kept in the alarms file as the instant it rings, so it outlives "
            + "the terminal, and a restart within its late limit. With --repeat it starts again, SPAN long, when each ring ends; "
            + "'wake remove NAME' ends it.")

    @Argument(help: ArgumentHelp("How long, as 4m, 90s or 1h30m.", valueName: "span"))
    var span: String

    @Argument(help: ArgumentHelp("A unique name (default: timer, timer-2, ...).", valueName: "name"))
    var name: String?

    @Flag(help: "Start again, SPAN long, each time a ring ends (until 'wake remove NAME').")
    var `repeat` = false

    @OptionGroup var ring: RingOptionGroup

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false
}

/// `wake extend NAME SPAN`: more time for a timer.
struct ExtendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extend",
        abstract: "Give a running or paused timer more time (and its rounds, with --repeat); a ring takes 'wake snooze'.")

    @Argument(help: "The timer's name (see 'wake list').")
    var name: String

    @Argument(help: ArgumentHelp("How much more, as 2m or 30s.", valueName: "span"))
    var span: String

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false
}
