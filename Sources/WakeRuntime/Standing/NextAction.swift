import WakeCore
import WakeSystem

extension StandingAlarmActions {
    /// `wake next`: what rings now, else the soonest alarm to ring, one line (or one JSON
    /// object); exit 1 when none.
    public static func next(json asJSON: Bool, console: Console, in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        if asJSON && MessageCatalogue.current != nil {
            return try MachineText.written(keepingClock: true) { () throws(WakeFailure) in try next(json: true, console: console,
                                                                                                    in: context) }
        }
        let look = try soonest(console: console, in: try StandingContext.given(context))
        guard let next = look.alarm else { return .failed(.nothingMatched) }
        if asJSON {
            console.json(next.json(now: look.now, zone: look.zone))
        } else {
            console.result(next.line(now: look.now, zone: look.zone))
        }
        if let note = look.note { console.error(note) }
        return .done
    }

    /// What `wake next` answers, and when and where it looked.
    struct NextLook {
        var alarm: NextAlarm?
        var now: Instant
        var zone: TimeZoneRules
        /// Said under the answer: a standing alarm is next, but no daemon runs to ring it.
        var note: String?
    }

    /// The alarm that rings now, else the soonest to ring, of every standing alarm and running
    /// one-off; the files' problems said on `console` as warnings.
    static func soonest(console: Console, in context: StandingContext) throws(WakeFailure) -> NextLook {
        let o = try overview(console: console, in: context)
        let candidates = o.entries.compactMap { e -> NextAlarm? in
            // A ringing alarm has no next time: it is the answer, since when it rings (a wake too
            // old to say since when: now).
            if e.phase == .ringing {
                return NextAlarm(id: e.id, standing: e.standing != nil, at: e.ringingSince ?? o.now, message: e.message, state: .ringing)
            }
            guard let at = e.next else { return nil }
            // Why the days before it do not ring (a snoozed alarm rings on the day it rang).
            let skipped = e.phase == .waiting ? e.standing?.reasons ?? [] : []
            return NextAlarm(id: e.id, standing: e.standing != nil, at: at, message: e.message, state: e.phase, skipped: skipped,
                             skippedAll: e.standing?.reasonsAll ?? true)
        }
        let next = NextAlarm.soonest(candidates)
        let note = next.map { $0.standing && !o.daemon } == true ? noDaemonNote : nil
        return NextLook(alarm: next, now: o.now, zone: o.zone, note: note)
    }
}
