import ArgumentParser
import Glibc
import WakeCore
import WakeRuntime

/// The command line. Values arrive as text and are checked by `AlarmOptions`, so every mistake
/// gets wake's own one-line message and exit code 64. Defaults come from the core's one table.
struct WakeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wake",
        abstract: "A command-line alarm clock: wait for a time, then ring a sound until stopped.",
        usage: """
            wake WHEN [--sound FILE] [--device PCM] [options]
              wake --list-devices
            """,
        discussion: """
            WHEN is 07:00, 07:00:30, 7am, 7:30pm, 7:30 pm, noon, midnight, tomorrow 7am, mon 6:30, \
            dec 24 8:00, +8h, +90m, +1h30m15s, in 20 minutes, now, \
            2026-11-22T07:00, or 2026-11-22T07:00+01:00.

            While ringing, s, z or space snoozes and any other key stops. While waiting, q cancels.

            The RTC wakes a suspended machine (a closed lid) for the alarm wherever it can, through \
            wake-alarm-timer, the installed helper that holds CAP_WAKE_ALARM; where it cannot, the armed line says why.

            \(CommandList.block)

            Exit status: 0 rang and was stopped; 1 no sound could be made; 3 missed; 4 rang unstopped \
            for --ring-for; 64 usage error; 66 sound file unusable; 69 device or service unavailable; \
            71 the system refused a resource (descriptors); 73 event log not writable; 77 missing \
            permission; 78 config or alarms file broken; 128+n cancelled by signal n (130 Ctrl-C or q, 143 SIGTERM, 129 SIGHUP).
            """,
        version: WakeVersion.string
    )

    @Argument(help: ArgumentHelp("When to ring: a time of day, a day and a time, +SPAN or in SPAN, now, or a date and time.", valueName: "when"),
              completion: CompletionValues.when)
    var when: [String] = []

    @OptionGroup var options: OneOffOptions

    /// Tests only (write as fast as the device takes it); not in the completion tree.
    @Flag(help: .hidden)
    var unpaced = false
}

/// `wake WHEN`'s options, declared once: the command that runs and the completion tree
/// (`WakeCommandTree`) both take them as a group.
struct OneOffOptions: ParsableArguments {
    @Flag(help: "Run every check the alarm would (time, sound, device, inhibitor, event log), print what would happen, and exit.")
    var dryRun = false

    @Flag(name: .shortAndLong, help: "Print only errors and warnings.")
    var quiet = false

    @OptionGroup var ring: RingOptionGroup

    @Option(help: "Append one JSON object per event to this file ('-' for stdout: human lines then go to stderr).", completion: .file())
    var events: String?

    @Option(help: ArgumentHelp(AlarmOption.inhibit.help), completion: CompletionValues.inhibit)
    var inhibit: String = AlarmOption.inhibit.defaultText ?? ""

    @Option(help: ArgumentHelp(AlarmOption.notify.help), completion: CompletionValues.notify)
    var notify: String = AlarmOption.notify.defaultText ?? ""

    @Flag(help: "Require the RTC to wake a suspended machine for the alarm (the default wherever it works): exit 77 without the capability, 69 without an RTC.")
    var wakeSystem = false

    @Flag(help: "Arm the deadline on the ordinary clock: a closed lid or a suspend delays the alarm.")
    var noWakeSystem = false

    @Flag(help: "List the ALSA PCM devices, as aplay -L does, and exit.")
    var listDevices = false

}

/// How an alarm rings: the options a one-off alarm and a standing one (`wake add`) share.
/// Each is declared from its description in the core (`AlarmOption`): its help, its default
/// and its name; `values` finds them by reflection, so a new ring option is its line in
/// `AlarmOption.all` and one declaration here (`RingOptionTests` checks the two agree).
struct RingOptionGroup: ParsableArguments {
    @Option(name: .shortAndLong, help: ArgumentHelp(AlarmOption.sound.help), completion: .file())
    var sound: String?

    @Option(name: [.customShort("D"), .long], help: ArgumentHelp(AlarmOption.device.help))
    var device: String = AlarmOption.device.defaultText ?? ""

    @Option(help: ArgumentHelp(AlarmOption.sink.help))
    var sink: String?

    @Option(help: ArgumentHelp(AlarmOption.volume.help))
    var volume: String = AlarmOption.volume.defaultText ?? ""

    @Option(help: ArgumentHelp(AlarmOption.fadeIn.help))
    var fadeIn: String = AlarmOption.fadeIn.defaultText ?? ""

    @Option(help: ArgumentHelp(AlarmOption.snooze.help))
    var snooze: String = AlarmOption.snooze.defaultText ?? ""

    @Option(help: ArgumentHelp(AlarmOption.snoozeLong.help))
    var snoozeLong: String?

    @Option(help: ArgumentHelp(AlarmOption.snoozeLimit.help))
    var snoozeLimit: String = AlarmOption.snoozeLimit.defaultText ?? ""

    @Option(help: ArgumentHelp(AlarmOption.snoozeVolume.help))
    var snoozeVolume: String?

    @Option(help: ArgumentHelp(AlarmOption.ringFor.help))
    var ringFor: String = AlarmOption.ringFor.defaultText ?? ""

    @Option(help: ArgumentHelp(AlarmOption.unattended.help), completion: .list(AlarmOption.unattended.words))
    var unattended: String?

    @Option(help: ArgumentHelp(AlarmOption.unattendedRounds.help))
    var unattendedRounds: String = AlarmOption.unattendedRounds.defaultText ?? ""

    @Option(help: ArgumentHelp(AlarmOption.escalate.help), completion: .list(AlarmOption.escalate.words))
    var escalate: String = AlarmOption.escalate.defaultText ?? ""

    @Option(help: ArgumentHelp(AlarmOption.checkUp.help))
    var checkUp: String = AlarmOption.checkUp.defaultText ?? ""

    @Option(help: ArgumentHelp(AlarmOption.lateLimit.help))
    var lateLimit: String = AlarmOption.lateLimit.defaultText ?? ""

    @Option(help: ArgumentHelp(AlarmOption.minVolume.help))
    var minVolume: String = AlarmOption.minVolume.defaultText ?? ""

    @Option(help: ArgumentHelp(AlarmOption.mixer.help), completion: .list(AlarmOption.mixer.words))
    var mixer: String = AlarmOption.mixer.defaultText ?? ""

    @Option(help: ArgumentHelp(AlarmOption.mpris.help), completion: .list(AlarmOption.mpris.words))
    var mpris: String = AlarmOption.mpris.defaultText ?? ""

    @Option(help: ArgumentHelp(AlarmOption.message.help))
    var message: String?

    @Option(help: ArgumentHelp(AlarmOption.challenge.help), completion: .list(AlarmOption.challenge.words))
    var challenge: String = AlarmOption.challenge.defaultText ?? ""
    @Option(help: ArgumentHelp(AlarmOption.say.help), completion: .list(AlarmOption.say.words))
    var say: String = AlarmOption.say.defaultText ?? ""
    @Option(help: ArgumentHelp(AlarmOption.light.help, valueName: "light"))
    var light: String = AlarmOption.light.defaultText ?? ""

    @Option(help: ArgumentHelp(AlarmOption.preAlarm.help, valueName: "duration[,percent]"))
    var preAlarm: String = AlarmOption.preAlarm.defaultText ?? ""

    @Option(help: ArgumentHelp(AlarmOption.preAlarmSound.help), completion: .file())
    var preAlarmSound: String?

    @Option(help: ArgumentHelp(AlarmOption.hook.help, valueName: "event=command"))
    var hook: [String] = []
    @Option(help: ArgumentHelp(AlarmOption.hookTimeout.help))
    var hookTimeout: String = AlarmOption.hookTimeout.defaultText ?? ""
}

public enum WakeVersion {
    static let string = "wake 0.2.0"

    /// The version line on stdout, as `--version` prints it.
    public static func write() { Console.write(STDOUT_FILENO, string + "\n") }
}
