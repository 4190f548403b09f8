import ArgumentParser
import WakeCore

/// The command line. Values arrive as text and are checked by `AlarmOptions`, so every mistake
/// gets wake's own one-line message and exit code 64.
struct WakeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wake",
        abstract: "A command-line alarm clock: wait for a time, then ring a sound until stopped.",
        discussion: """
            WHEN is 07:00, 07:00:30, 7am, 7:30pm, +8h, +90m, +1h30m15s, now, or 2026-11-22T07:00.

            While ringing, s, z or space snoozes and any other key stops. While waiting, q cancels.

            Exit status: 0 rang and was stopped; 1 no sound could be made; 3 missed; 4 rang unstopped \
            for --ring-for; 64 usage error; 66 sound file unusable; 69 device or service unavailable; \
            73 event log not writable; 77 missing permission; 130, 143, 129 cancelled by Ctrl-C or q, \
            SIGTERM, SIGHUP.
            """,
        version: WakeVersion.string
    )

    @Argument(help: "When to ring (see below).")
    var when: String?

    @Flag(help: "Resolve the time and check the sound and device, print what would happen, and exit.")
    var dryRun = false

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    @Option(name: .shortAndLong, help: "Sound file to ring (WAV, FLAC, Ogg, Opus, MP3). Default: wake's own alarm sound.")
    var sound: String?

    @Option(name: [.customShort("D"), .long], help: "ALSA PCM to ring on, as aplay -D takes it.")
    var device: String = "default"

    @Option(help: "Software volume, 0 to 100.")
    var volume: String = "100"

    @Option(help: "Ramp the sound up from silence over this long (e.g. 30s).")
    var fadeIn: String = "0"

    @Option(help: "How long a snooze lasts.")
    var snooze: String = "9m"

    @Option(help: "Stop ringing after this long if nobody stops it (0: ring until stopped).")
    var ringFor: String = "10m"

    @Option(help: "Do not ring if the alarm is later than this (the machine was asleep); exit 3 instead.")
    var lateLimit: String = "30m"

    @Option(help: "Append one JSON object per event to this file ('-' for stderr).")
    var events: String?

    @Option(help: "Keep the machine from sleeping while the alarm is set: auto (try, warn if impossible), require (exit 69 if impossible), off.")
    var inhibit: String = "auto"

    @Flag(help: "Arm the deadline on the RTC so a suspended machine wakes up for the alarm (needs CAP_WAKE_ALARM).")
    var wakeSystem = false

    @Flag(help: "List the ALSA PCM devices, as aplay -L does, and exit.")
    var listDevices = false

    @Flag(help: .hidden)
    var unpaced = false
}

enum WakeVersion {
    static let string = "wake 0.1.0"
}
