import ArgumentParser
import WakeCore
import WakeRuntime

/// `wake add`: a standing alarm, checked exactly as a one-off alarm is.
struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add a standing alarm, rung by 'wake daemon'.",
        discussion: """
            WHEN is a time of day (06:30, 6:30am, 7:30 pm), or a day and a time (tomorrow 6:30, fri 7am, dec 24 8:00) or a local date and time (a one-off on that date). \
            Without --days it is a one-off at the next occurrence, removed once it has rung or been missed; \
            +25m or in 20 minutes is a one-off at that instant.

            DAYS: daily, weekdays, weekends, day names (mon...sun, full names, any case), ranges (mon-fri, \
            wrapping fri-mon) and lists (mon,wed,fri).
            """)

    @Argument(help: ArgumentHelp("A time of day, a day and a time, a local date and time, or +SPAN.", valueName: "when"),
              completion: CompletionValues.addWhen)
    var when: [String] = []

    @Option(help: "The days it rings on (default: once, at the next occurrence).", completion: CompletionValues.days)
    var days: String?

    @Option(help: "A unique name: lower-case letters, digits, - and _ (default: made from the time).")
    var name: String?

    @OptionGroup var ring: RingOptionGroup

    @Option(help: ArgumentHelp(AlarmOption.skipDays.help, valueName: "file"), completion: .file(extensions: ["ics"]))
    var skipDays: [String] = []

    @Flag(help: "Add it even beside an alarm that rings at the same time on the same days (without it, that is refused).")
    var force = false

    @OptionGroup var schedule: DayRuleOptionGroup
    /// The schedule's rules given, by option name, for `AddRequest.rules`.
    var rules: [String: String] { schedule.rules }

    @Option(help: ArgumentHelp(AlarmOption.group.help, valueName: "group"))
    var group: String?

    @Option(help: ArgumentHelp(AlarmOption.bedtime.help, valueName: "duration"))
    var bedtime: String?

    /// `AlarmOption.kept` given, by name.
    var kept: [String: String] { [AlarmOption.group.name: group, AlarmOption.bedtime.name: bedtime].compactMapValues { $0 } }

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false
}

/// `wake list`: every standing alarm, its next occurrence and state.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the standing alarms and every one-off alarm of yours that a wake process is running.")

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    @Option(help: ArgumentHelp("The order: next (by the next ring, the default) or name.", valueName: "order"),
            completion: .list(StandingAlarmActions.ListOrder.allCases.map(\.rawValue)))
    var sort: String = StandingAlarmActions.ListOrder.next.rawValue
}

/// `wake next`: the soonest alarm to ring, for a status bar.
struct NextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "next",
        abstract: "Print the next alarm that will ring, as '06:30 tomorrow (work), in 7h 12m', or the one ringing now.",
        discussion: """
            Standing alarms (skips and pauses passed over) and every running one-off of yours; one ringing now comes first ('ringing since 06:30 (work)'). Exit status: 0 printed, 1 no alarm will ring (nothing is printed).

            With --follow it keeps running for a status bar's persistent command: a line at the start, then one whenever the next alarm or its state changes (the line has no 'in 7h 12m'), and nothing otherwise; with no alarm, the format's empty form. It ends with 0 on SIGINT, SIGTERM or when its reader goes away.
            """)

    @Flag(help: "Print one JSON object instead of the line.")
    var json = false

    @Flag(help: "Keep running and print a line again whenever the answer changes (for a status bar).")
    var follow = false

    @Option(help: ArgumentHelp("With --follow, the form of each line: \(NextAlarmFeedFormat.names.joined(separator: ", ")) (default: plain).", valueName: "format"),
            completion: CompletionValues.feedFormat)
    var format: String?
}

/// `wake skip NAME`: pass over the next occurrence only (a holiday).
struct SkipCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "skip",
        abstract: "Skip the next occurrence of a standing alarm (or the next N, or those on dates).",
        discussion: "Occurrences already skipped, paused or on a holiday of its calendars are not counted by --count. 'wake list' and 'wake next' say which days are skipped and why. --undo takes back every skip ahead, or those --on the dates given.")

    @Argument(help: "The alarm's name (see 'wake list'; default: the alarm that rings next, or with --undo the one with skips ahead).")
    var name: String?

    @Option(help: ArgumentHelp("Every alarm of this group (see --group of 'wake add').", valueName: "group"))
    var group: String?

    @Option(help: ArgumentHelp("Skip the next N occurrences (1 to 366).", valueName: "n"))
    var count: Int?

    @Option(help: ArgumentHelp("Skip the occurrence on this local date, as 2026-12-24 (repeatable, or comma-separated).", valueName: "date"))
    var on: [String] = []

    @Flag(help: "Take the skips back: every one ahead, or those --on the dates given.")
    var undo = false

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false
}

/// `wake pause --until DATE [NAME...]`: a holiday for the standing alarms.
struct PauseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pause",
        abstract: "Keep every standing alarm (or the named ones) quiet until a date.",
        discussion: "DATE is a local date (2026-12-07: the alarms ring again from that day) or a local date and time (2026-12-07T12:00), "
            + "at most a year ahead without --long. --from DATE starts the pause later (a local date: from 00:00 that day), so a holiday "
            + "can be planned ahead; only occurrences from it up to --until are quiet. Occurrences inside the pause pass quietly, neither "
            + "rung nor missed; a one-off inside it is kept until the pause ends. A second pause is kept beside the first; one that "
            + "overlaps or touches a pause already there is joined with it (the line says so). The daemon honours it across restarts. "
            + "'wake resume' ends it early.")

    @Option(help: ArgumentHelp("The date (or date and time) the alarms ring again from (a timer, named, is held without it).",
                               valueName: "date"))
    var until: String?

    @Option(help: ArgumentHelp("The date (or date and time) the pause starts (default: now): a holiday planned ahead.", valueName: "date"))
    var from: String?

    @Flag(help: "Allow a pause of more than a year (without it, a later DATE is refused as a likely typo).")
    var long = false

    @Argument(help: ArgumentHelp("The alarms to pause (default: every standing alarm).", valueName: "name"))
    var names: [String] = []

    @Option(help: ArgumentHelp("Every alarm of this group (see --group of 'wake add').", valueName: "group"))
    var group: String?

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false
}

/// `wake resume [NAME...]`: the pause ends now.
struct ResumeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resume",
        abstract: "End the pause of every standing alarm (or the named ones) now.",
        discussion: "What passed during the pause stays quiet; the next occurrence rings. Without --all or --on it lifts only the pause on "
            + "now: a pause planned ahead stays (the line says which pause was lifted and which are left).")

    @Flag(help: "Lift every pause, those planned ahead too.")
    var all = false

    @Option(help: ArgumentHelp("Lift the pause this local date falls in, as 2026-12-21 (on now or planned ahead).", valueName: "date"))
    var on: String?

    @Argument(help: ArgumentHelp("The alarms to resume (default: every paused one).", valueName: "name"))
    var names: [String] = []

    @Option(help: ArgumentHelp("Every alarm of this group (see --group of 'wake add').", valueName: "group"))
    var group: String?

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false
}

/// `wake remove NAME`.
struct RemoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "remove", abstract: "Remove a standing alarm (or a group's).")

    @Argument(help: "The alarm's name (see 'wake list').")
    var name: String?

    @Option(help: ArgumentHelp("Every alarm of this group (see --group of 'wake add').", valueName: "group"))
    var group: String?

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false
}

/// `wake daemon`: rings the standing alarms, in the foreground (the systemd user unit runs it).
struct DaemonCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "daemon",
        abstract: "Ring the standing alarms, in the foreground; SIGHUP reloads, SIGTERM ends it.")

    @Option(help: "Append one JSON object per event to this file ('-' for stdout).", completion: .file())
    var events: String?

    @Option(help: ArgumentHelp(AlarmOption.inhibit.daemonHelp ?? AlarmOption.inhibit.help), completion: CompletionValues.inhibit)
    var inhibit: String = AlarmOption.inhibit.defaultText ?? ""

    @Option(help: ArgumentHelp(AlarmOption.notify.daemonHelp ?? AlarmOption.notify.help), completion: CompletionValues.notify)
    var notify: String = AlarmOption.notify.defaultText ?? ""

    @Flag(help: "Require the RTC to wake a suspended machine for each alarm (the default wherever it works; then no inhibitor is needed): exit 77 without the capability, 69 without an RTC.")
    var wakeSystem = false

    @Flag(help: "Arm the alarms on the ordinary clock and keep the machine awake in a window before each (--inhibit) instead.")
    var noWakeSystem = false

    @Option(help: ArgumentHelp(AlarmOption.noticeBefore.help))
    var noticeBefore: String = AlarmOption.noticeBefore.defaultText ?? ""

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    @Flag(help: .hidden)
    var unpaced = false
}

/// `wake add`'s and `wake change`'s day rules (`AlarmOption.dayRules`): which days an alarm rings on.
struct DayRuleOptionGroup: ParsableArguments {
    @Option(help: ArgumentHelp(AlarmOption.weeks.help, valueName: "odd|even"), completion: .list(AlarmOption.weeks.words))
    var weeks: String?
    @Option(help: ArgumentHelp(AlarmOption.every.help, valueName: "Nd"))
    var every: String?
    @Option(help: ArgumentHelp(AlarmOption.from.help, valueName: "date"))
    var from: String?
    @Option(help: ArgumentHelp(AlarmOption.beforeFirstEvent.help, valueName: "file"), completion: .file(extensions: ["ics"]))
    var beforeFirstEvent: String?
    @Option(help: ArgumentHelp(AlarmOption.lead.help, valueName: "duration"))
    var lead: String?

    /// The rules given, by option name.
    var rules: [String: String] {
        [AlarmOption.weeks.name: weeks, AlarmOption.every.name: every, AlarmOption.from.name: from,
         AlarmOption.beforeFirstEvent.name: beforeFirstEvent, AlarmOption.lead.name: lead].compactMapValues { $0 }
    }
}
