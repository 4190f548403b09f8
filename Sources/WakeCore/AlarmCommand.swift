/// What someone asks of an alarm. The edges (keys, signals, control clients, notification
/// buttons) turn their raw input into one of these; the engine decides what it means in the
/// alarm's current state.
public enum AlarmCommand: String, Hashable, Sendable {
    /// Silence a ringing or snoozed alarm for good. Ignored while the alarm waits.
    case stop
    /// Silence a ringing alarm for the snooze time. Ignored otherwise.
    case snooze
    /// End the alarm whatever its state: before it rings it is cancelled, after that stopped.
    case cancel
    /// "Up already": during the pre-alarm, or once it was stopped, skip the alarm itself. While
    /// ringing or snoozed it stops; before any pre-ring it is ignored.
    case upAlready = "up"
}

/// Who asked: recorded with the outcome, so the log and the exit code can tell.
public enum Requester: Hashable, Sendable {
    /// A key on the terminal, by its printable name (`q`, `space`, `ctrl-d`).
    case key(String)
    /// A signal, by name and number (the command line turns a cancel by signal n into 128 + n).
    case signal(name: String, number: Int32)
    /// A control client (`wake stop`), described for the log.
    case control(String)
    /// A button on the desktop notification.
    case notification
    /// An MPRIS client (a media key, a headset button, the desktop's media widget, playerctl):
    /// any program on the session bus can send these, so the log keeps who.
    case mediaControl(caller: BusCaller)
    /// A client of wake's D-Bus API.
    case busAPI(caller: BusCaller)
    /// The right answer to the alarm's `--challenge` sum, typed on the terminal.
    case answer
    /// Nobody: the ring ran its `--ring-for` unanswered, and `--unattended snooze` snoozed it.
    case unattended

    /// How the log and the console name it: `key 'q'`, `SIGTERM`, `wake stop (pid 42)`.
    public var description: String {
        switch self {
        case .key(let k): return localized("key '{key}'", k)
        case .signal(let name, _): return name
        case .control(let who): return who
        case .notification: return localized("the notification")
        case .mediaControl(let caller): return localized("the media controls ({caller})", "\(caller)")
        case .busAPI(let caller): return localized("the D-Bus API ({caller})", "\(caller)")
        case .answer: return localized("the answer")
        case .unattended: return localized("nobody (unanswered)")
        }
    }

    /// The kind of asker, as the event log's `by` field names it.
    public var kind: String {
        switch self {
        case .key: return "key"
        case .signal: return "signal"
        case .control: return "control"
        case .notification: return "notification"
        case .mediaControl: return "mpris"
        case .busAPI: return "dbus"
        case .answer: return "answer"
        case .unattended: return "unattended"
        }
    }
}
