/// Every default of an alarm, in one table: the command line, the help text and the engine
/// read them from here.
public enum Defaults {
    public static let device = "default"
    public static let volume = 100
    public static let fadeIn: Duration = .zero
    public static let snooze: Duration = .seconds(9 * 60)
    public static let ringFor: Duration = .seconds(10 * 60)
    /// How long a hook may run before it is killed (`--hook-timeout`).
    public static let hookTimeout: Duration = .seconds(60)
    public static let lateLimit: Duration = .seconds(30 * 60)
    /// The mixer guard's floor (`--min-volume`): a quieter or muted output is raised to it while ringing.
    public static let minVolume = 50
    /// While the terminal bell rings in place of sound, how often the devices are tried again.
    public static let bellRetry: Duration = .seconds(5)
    /// With no bell either (no terminal), how often the devices are tried again while the ring lasts.
    public static let silentRetry: Duration = .seconds(2)
    /// How long a sound output may accept no audio before it counts as failed.
    public static let stallLimit: Duration = .seconds(3)
    /// How much audio wake keeps queued ahead on a device, and the ALSA buffer it asks for.
    public static let latency: Duration = .milliseconds(100)
    /// The ALSA buffer on a device a sound server stands behind (ALSA's pulse or pipewire
    /// plugin), as aplay asks for: the server keeps a buffer of its own, so a longer one costs
    /// no reliability, and it wakes wake and the plugin's thread a fifth as often as `latency`
    /// would. A stop is no slower: the plugin's drop corks and flushes the server's stream.
    public static let serverLatency: Duration = .milliseconds(500)
    /// The pre-roll: how long before a deadline the device is opened and configured and the first
    /// audio decoded, so that the deadline itself only writes (and a cold page cache is met ahead
    /// of time, not at the deadline).
    public static let preroll: Duration = .seconds(1)
    /// How long a pre-rolled device waits for its deadline before it is closed again (a clock
    /// stepped back moved the deadline away; the ring then opens the device as usual).
    public static let prerollHoldLimit: Duration = .seconds(20)
    /// `--say on`: the alarm speaks after the first loop of its sound, then at the first seam
    /// once this much sound has played since it last spoke.
    public static let speechInterval: Duration = .seconds(20)
    /// `--check-up`: how long the quiet "are you up?" ring waits for an answer before the alarm
    /// rings again, and its share of the alarm's volume.
    public static let checkUpWindow: Duration = .seconds(60)
    public static let checkUpPercent = 20
    /// How long the end of a ring may take (the worker's fade and close) before wake exits anyway.
    public static let teardownLimit: Duration = .milliseconds(500)
}
