/// Which of a process's alarms a control command is for, and why one named by ID is passed
/// over. Without an ID a command goes to every alarm it means something to (`wake stop` stops
/// what rings and leaves tomorrow's alarm alone); with one, the named alarm gets it or a reason.
public enum ControlRouting {
    public enum Phase: String, Sendable {
        case waiting, ringing, snoozed, finished
        /// The pre-alarm rings quietly; the alarm itself is still to come.
        case preRinging = "pre-ringing"
    }

    public struct Alarm: Equatable, Sendable {
        public var id: String
        public var phase: Phase
        /// A standing alarm (the daemon's): it cannot be cancelled, only skipped or removed.
        public var standing: Bool
        /// The snoozes its occurrence has used, of its limit (`--snooze-limit`).
        public var snoozes: SnoozeCount
        public init(id: String, phase: Phase, standing: Bool, snoozes: SnoozeCount = SnoozeCount()) {
            self.id = id; self.phase = phase; self.standing = standing; self.snoozes = snoozes
        }
    }

    /// Why a named alarm does not take the command: the client words it.
    public enum Refusal: String, Equatable, Sendable {
        /// It waits: nothing to stop or snooze yet.
        case waiting
        /// Snoozed already (a snooze does not stack).
        case snoozed
        /// It has ended; the process is on its way out.
        case finished
        /// A standing alarm cannot be cancelled: `wake skip` or `wake remove` it.
        case standing
        /// It rings with every snooze it may take used (`--snooze-limit`): it rings on until stopped.
        case snoozeLimit = "snooze-limit"
    }

    public enum Verdict: Equatable, Sendable {
        case apply
        case refuse(Refusal)
    }

    /// Without an ID, the alarms a command applies to, and those ringing with their snoozes used
    /// up: "nothing is ringing" would be untrue of them.
    public static func route(_ command: AlarmCommand, id: String?, alarms: [Alarm]) -> [(id: String, verdict: Verdict)] {
        let candidates = alarms.filter { id == nil || $0.id == id }
        let verdicts = candidates.map { ($0.id, verdict(command, $0)) }
        return id == nil ? verdicts.filter { $0.1 == .apply || $0.1 == .refuse(.snoozeLimit) } : verdicts
    }

    static func verdict(_ command: AlarmCommand, _ alarm: Alarm) -> Verdict {
        switch (command, alarm.phase) {
        case (_, .finished): return .refuse(.finished)
        // The pre-ring stops; the alarm stays set (a snooze says the same).
        case (.stop, .preRinging), (.snooze, .preRinging), (.upAlready, .preRinging): return .apply
        case (.upAlready, .ringing), (.upAlready, .snoozed): return .apply
        case (.upAlready, .waiting): return .refuse(.waiting)
        case (.snooze, .ringing): return alarm.snoozes.isUsedUp ? .refuse(.snoozeLimit) : .apply
        case (.stop, .ringing), (.stop, .snoozed): return .apply
        case (.snooze, .snoozed): return .refuse(.snoozed)
        case (.snooze, .waiting), (.stop, .waiting): return .refuse(.waiting)
        case (.cancel, _): return alarm.standing ? .refuse(.standing) : .apply
        }
    }
}
