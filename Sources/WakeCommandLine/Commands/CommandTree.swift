import ArgumentParser
import WakeCore
import WakeRuntime

/// The whole command line as one ArgumentParser tree, for what is generated from it: the shell
/// completion scripts (`wake --generate-completion-script bash|zsh|fish`), `wake help SUBCOMMAND`,
/// and the help dump (`wake --experimental-dump-help`).
///
/// `WakeMain` does not run this tree: it picks a subcommand by its first word and parses
/// `WakeCommand` for anything else (`wake 07:00` must not be mistaken for a subcommand, and every
/// usage error gets wake's own line). The subcommands here are the very types WakeMain runs.
/// The root takes `WakeCommand`'s options (one `OneOffOptions` group) but not its WHEN: the generated bash script counts a
/// root's positional words before it looks for a subcommand, so with WHEN here `wake add 07:00
/// --days we<Tab>` would offer nothing. `InstallTests` checks that the root offers exactly the
/// options `wake --help` lists and that every subcommand WakeMain dispatches is here.
struct WakeCommandTree: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wake",
        abstract: WakeCommand.configuration.abstract,
        discussion: WakeCommand.configuration.discussion,
        subcommands: subcommands)

    /// The subcommands, each named by its first word on the command line.
    static let subcommands: [any ParsableCommand.Type] = [
        AddCommand.self, ListCommand.self, NextCommand.self, SkipCommand.self, PauseCommand.self, ResumeCommand.self, RemoveCommand.self,
        ChangeCommand.self, OnCommand.self, OffCommand.self,
        TimerCommand.self, ExtendCommand.self, SleepCommand.self,
        StopCommand.self, SnoozeCommand.self, CancelCommand.self, DaemonCommand.self, DoctorCommand.self, TestCommand.self,
        HolidaysCommand.self,
    ]

    // `wake WHEN [options]`'s options, the very group WakeCommand takes.
    @OptionGroup var options: OneOffOptions

    /// Only the root has --version (a version in the configuration would give every subcommand one).
    @Flag(help: "Show the version.")
    var version = false

    /// The first words that select this tree instead of `WakeCommand`.
    static func handles(_ firstArgument: String?) -> Bool {
        guard let a = firstArgument else { return false }
        return a == "--experimental-dump-help" || a == "--generate-completion-script"
            || a.hasPrefix("--generate-completion-script=")
    }
}

/// Values the completion scripts offer.
enum CompletionValues {
    /// `--days`: the keywords, then the short day names, Monday first (full names, ranges and
    /// lists are accepted too, but would only crowd the list).
    static let days: CompletionKind = .list(["daily", "weekdays", "weekends"] + DaySet.daily.names)
    static let inhibit: CompletionKind = .list(AlarmOption.inhibit.words)
    static let notify: CompletionKind = .list(AlarmOption.notify.words)
    /// `wake next --follow --format`.
    static let feedFormat: CompletionKind = .list(NextAlarmFeedFormat.names)
    /// `wake change --reset`: the options it takes back.
    static let reset: CompletionKind = .list(StandingAlarmActions.resettable)
    /// WHEN: the words of the time forms (a time itself is typed, not completed).
    static let when: CompletionKind = .list(["now", "noon", "midnight", "today", "tomorrow", "in"] + DaySet.daily.names)
    /// `wake add`'s WHEN: the same days, without `now` and `in` (a standing alarm has a time of day).
    static let addWhen: CompletionKind = .list(["noon", "midnight", "today", "tomorrow"] + DaySet.daily.names)
}
