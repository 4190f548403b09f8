import WakeCore

/// What happened to an alarm: the one stream the console, the JSON log and later the notifier
/// and the control server observe.
public struct RuntimeEvent: Sendable {
    public enum Kind: Sendable {
        case armed(wait: Wait, wall: Instant)
        /// The engine started ringing; `late` is how far past the deadline.
        case ringStarted(late: Duration)
        /// The sound (or the bell) is audible, `late` past the deadline.
        case ringing(late: Duration)
        /// The pre-alarm started ringing quietly; the alarm itself rings at `main` (wall clock).
        case preRingStarted(main: Instant)
        /// `--light sunrise:SPAN`: the screen starts to brighten, `over` before the ring at `main`
        /// (wall clock); less when it started late (armed within its span).
        case sunrise(over: Duration, main: Instant)
        /// The pre-alarm was stopped by `by`; the alarm stays set for `main` (wall clock).
        case preRingStopped(by: Requester, main: Instant)
        case snoozed(until: Instant, by: Requester)
        /// The ring ran its `--ring-for` unanswered (`--unattended`): it rings again at `next`
        /// (snoozed: a `snoozed` event by `unattended` follows), or rings on until `next` (nil:
        /// until stopped), in round `ring.round`.
        case unanswered(UnansweredRing, next: Instant?)
        /// `--check-up`'s steps (wall-clock instants).
        case checkUp(CheckUpStep)
        case finished(Outcome)
        case clockChanged
        case suspended
        case resumed(slept: Duration)
        /// A command that meant nothing in the alarm's state.
        case ignored(AlarmCommand, by: Requester)
        /// A snooze refused because the occurrence's snoozes are used up (`--snooze-limit`): it rings on.
        case snoozeRefused(SnoozeCount, by: Requester)
        case sound(OutputEvent)
        /// `--challenge math`: the sum that stops the ring, asked when it starts and again after
        /// a wrong answer.
        case challenge(question: String)
        /// A wrong answer to `question`: the alarm rings on, and a fresh sum is asked.
        case challengeWrong(question: String, answer: String)
        /// Something went wrong that does not end the alarm.
        case problem(String)
    }

    public var alarm: String
    public var time: ClockReading
    public var kind: Kind
    /// Why it happened, when that is not the usual: an `armed` event of an alarm re-armed
    /// because the machine's zone changed has "zone".
    public var reason: String?

    public init(alarm: String, time: ClockReading, kind: Kind, reason: String? = nil) {
        self.alarm = alarm; self.time = time; self.kind = kind; self.reason = reason
    }
}

/// `--check-up`: the alarm was stopped by `by` and asks at `at` whether they are up; it asks
/// (a short quiet ring) until `until`; nobody answered, so the alarm rings again.
public enum CheckUpStep: Sendable {
    case set(at: Instant, by: Requester)
    case asking(until: Instant)
    case unanswered
}

public protocol RuntimeObserver: AnyObject {
    func observe(_ event: RuntimeEvent)
}
