import WakeCore

/// `--mpris`: whether a ringing alarm is a media player on the session bus, and what the
/// player's Stop and Next do.
public enum MediaPlayerMode: String, CaseIterable, Sendable {
    /// Pause and PlayPause snooze; Stop and Next stop the alarm.
    case on
    /// Every button snoozes: a stray media key (a screen locker pausing every player, another
    /// alarm clock pausing what plays) can never silence the alarm for good.
    case snoozeOnly = "snooze-only"
    /// No player.
    case off

    /// What a Stop or a Next asks of the alarm.
    var stopCommand: AlarmCommand { self == .snoozeOnly ? .snooze : .stop }
}
