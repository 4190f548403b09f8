import ArgumentParser

/// What `stop` and `snooze` say alike about their ID.
private enum ControlHelp {
    static let id = ArgumentHelp("The alarm: a PID or a standing alarm's name.", valueName: "id")

    static func discussion(exitStatus: String) -> String {
        "ID is a one-off alarm's PID or a standing alarm's name, as 'wake list' shows them. Exit status: \(exitStatus)"
    }
}

/// `wake stop [ID]`: what rings or is snoozed, ended as a key would end it.
struct StopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stop",
        abstract: "Stop what is ringing or snoozed (every such alarm of yours without an ID).",
        discussion: ControlHelp.discussion(exitStatus: "0 something was stopped, 1 nothing matched."))

    @Argument(help: ControlHelp.id) var id: String?
}

/// `wake snooze [ID] [LENGTH] [--until TIME]`.
struct SnoozeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snooze",
        abstract: "Snooze what is ringing (every ringing alarm of yours without an ID), for its own snooze or a length you choose.",
        discussion: "ID is a one-off alarm's PID or a standing alarm's name, as 'wake list' shows them; a single word that reads as a "
            + "length (20m) is a length unless an alarm has that name. A length or --until is at most 12 hours away, and a "
            + "--snooze-limit still counts it. Exit status: 0 something was snoozed, 1 nothing matched, 64 a bad length or time.")

    @Argument(help: ControlHelp.id) var id: String?

    @Argument(help: ArgumentHelp("How long to snooze, more than zero and at most 12h (e.g. 20m); default: the alarm's --snooze.",
                                 valueName: "length"))
    var length: String?

    @Option(help: ArgumentHelp("Snooze until this time of day (e.g. 07:40), the next time the clock reads it, at most 12 hours away.",
                               valueName: "time"))
    var until: String?

    /// The words, as the plain-word path hands them over.
    var words: [String] { [id, length].compactMap { $0 } }
}

/// `wake cancel ID`: a one-off alarm ended before it rings, as `q` would end it.
struct CancelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cancel",
        abstract: "Cancel a one-off alarm before it rings (it exits 130, as for q).",
        discussion: "ID is the alarm's PID, as 'wake list' shows it. A standing alarm is skipped ('wake skip') or removed ('wake remove') instead. Exit status: 0 cancelled, 1 nothing matched.")

    @Argument(help: ArgumentHelp("The alarm's PID.", valueName: "id"))
    var id: String
}
