import ArgumentParser

/// `wake doctor [NAME...]`: whether the next alarms will be heard, checked from the daemon's side.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check that the standing alarms (or the named ones) will ring and be heard.",
        discussion: """
            Runs every check between a set alarm and a heard one, from the daemon's point of view (its \
            environment: the running daemon's, else the systemd user manager's): the files, the daemon and its \
            unit, the clock and zone with each alarm's next three ring times, each alarm's sound, device and \
            output (a sound server's default sink and what it remembers of wake's stream, and what the mixer \
            guard will do), waking from suspend, and notifications. Each check is PASS, WARN (the alarm rings, but \
            see why) or FAIL (it may not be heard), with what to do. Nothing is changed. \
            Exit status: 0 all passed, 1 a warning, 2 a failure, 64 an unknown NAME.
            """)

    @Flag(help: "Print a JSON array, one object per check, instead of the lines.")
    var json = false

    @Argument(help: ArgumentHelp("The alarms to check (default: every standing alarm).", valueName: "name"))
    var names: [String] = []
}
