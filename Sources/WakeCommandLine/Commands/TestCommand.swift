import ArgumentParser
import WakeCore
import WakeRuntime

/// `wake test [NAME] [--for 10s] [--full] [ring options]`: an alarm's real path, rung now.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Ring an alarm's real path now, quietly, and report what reached the output.",
        discussion: """
            NAME is a standing alarm (see 'wake list'): its sound, device, volume and fade-in, message, notification and mixer \
            guard, read as the daemon reads them; ring options given here override its own for the test. Without NAME, the \
            ring options given (over config.toml) are tested, as 'wake add' would take them.

            Quiet unless --full: a fixed 15 % gain without a fade-in, and the output's mixer and sink left as they are (wake's \
            own stream on a sound server is still unmuted and raised, as at every ring); the report says what the mixer guard \
            does at the alarm. It rings for --for (1s to 5m), or until a key, 'wake stop', a signal or a snooze ends it.

            The report: the device that took the sound (after any fallback), the frames it accepted and for how long, the peak \
            level written (wake's own counters), whether a sound server muted or corked wake's stream, what the mixer guard did, \
            and whether the notification was shown, with buttons.

            Exit status: 0 audible sound reached the output; 1 nothing audible did; 64 usage error or no such alarm; 66, 69, \
            78 as for 'wake add'.
            """)

    @Argument(help: ArgumentHelp("The standing alarm to test (default: the ring options given).", valueName: "name"))
    var name: String?

    @Option(name: .customLong("for"), help: ArgumentHelp("How long to ring: 1s to 5m.", valueName: "duration"))
    var length: String = DurationText.format(AlarmTest.defaultLength)

    @Flag(help: "Ring at the alarm's own volume and fade-in, and let the mixer guard raise the output, as at the alarm.")
    var full = false

    @Flag(help: "Print one JSON object instead of the report (the ring's lines go to stderr).")
    var json = false

    @OptionGroup var ring: RingOptionGroup
}

extension TestCommand {
    /// What the runtime's test takes: the ring options the command line gave (the rest come from
    /// the alarm, config.toml or the defaults there), `--for` when given.
    func request(config: ConfigDefaults, given: Set<String>) -> AlarmTest.Request {
        AlarmTest.Request(name: name, commandLine: ring.values.filter { given.contains("--" + $0.key) },
                          length: given.contains("--for") ? length : nil, full: full, json: json, config: config)
    }
}
