import WakeCore

/// `RingSettings.tolerating(stored:defaults:)` for many alarms under one config file, each set
/// of stored options read once: the alarms of a long file mostly share their options (a device,
/// a sound, a volume), and reading every alarm's anew was half of `wake list` with 2,000 alarms.
/// The read is a function of the options and the config file alone, so a kept one is the one a
/// fresh read would give; held for one run of `wake list` or one reload, never longer, so a
/// changed config file is read under a new reader.
struct StoredSettingsReader {
    /// What `tolerating` gives, with the engine's settings made once too (each use of
    /// `RingSettings.engine` parses the pre-alarm again).
    struct Read {
        var settings: RingSettings
        var adjustments: [RingSettings.Adjustment]
        var engine: AlarmEngine.Settings
    }

    let defaults: ConfigDefaults
    private var reads: [[String: String]: Result<Read, WakeFailure>] = [:]

    init(defaults: ConfigDefaults) { self.defaults = defaults }

    /// `RingSettings.tolerating(stored: stored, defaults: defaults)`, read once per distinct `stored`.
    mutating func read(_ stored: [String: String]) throws(WakeFailure) -> Read {
        if let kept = reads[stored] { return try kept.get() }
        let result: Result<Read, WakeFailure>
        do {
            let read = try RingSettings.tolerating(stored: stored, defaults: defaults)
            result = .success(Read(settings: read.settings, adjustments: read.adjustments, engine: read.settings.engine(standing: true)))
        } catch {
            result = .failure(error)
        }
        reads[stored] = result
        return try result.get()
    }

    /// The late limit the daemon plans the alarm with, as `RingSettings.lateLimit(of:config:)` gives it.
    mutating func lateLimit(of alarm: StandingAlarm) -> Duration {
        (try? read(alarm.options))?.engine.lateLimit ?? Defaults.lateLimit
    }
}
