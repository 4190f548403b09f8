import ArgumentParser
import WakeCore
import WakeRuntime

/// `wake sleep SPAN`: a sleep sound that fades away, then a suspend only when an alarm survives it.
struct SleepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sleep",
        abstract: "Play a sound to fall asleep to, fading away over its last minute; --then suspend only when the next alarm "
            + "will still wake you.",
        discussion: "SPAN is 30m, 1h, 90s (1s to 12h). The sound loops at 30 % (--volume), through the alarms' own sound path "
            + "(-D, --sink, the fallbacks), and never raises the mixer. A key fades it away over 3s, 'wake stop' ends it at once. "
            + "With --then suspend the "
            + "machine is suspended at the end (logind) only when the RTC wakes it for the next alarm, or no alarm is set; with "
            + "--then off it is powered off only when no alarm is set. Otherwise it stays awake and says why, at the start and at "
            + "the end.")

    @Argument(help: ArgumentHelp("How long, as 30m or 1h; +15m gives the one playing 15 minutes more.", valueName: "span"))
    var span: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The sound file (default: wake's built-in sound).", valueName: "file"),
            completion: .file())
    var sound: String?

    @Option(name: [.customShort("D"), .long], help: ArgumentHelp(AlarmOption.device.help, valueName: "device"))
    var device: String?

    @Option(help: ArgumentHelp(AlarmOption.sink.help, valueName: "sink"))
    var sink: String?

    @Option(help: ArgumentHelp("Percent of full scale, 1 to 100 (default: \(SleepTimer.defaultVolume)).", valueName: "percent"))
    var volume: String?

    @Option(help: ArgumentHelp("After the sound: stay (the default), suspend or off (power off).", valueName: "action"),
            completion: .list(SleepTimer.After.allCases.map(\.rawValue)))
    var then: String = SleepTimer.After.stay.rawValue

    /// The alarm's event log of the sound (`ringing`, `stopped`...), for the tests' terminal driver.
    @Option(help: .hidden)
    var events: String?

    @Flag(help: .hidden)
    var unpaced = false
}
