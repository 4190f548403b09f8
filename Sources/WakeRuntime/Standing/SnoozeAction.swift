import WakeCore
import WakeSystem

extension ControlActions {
    /// `wake snooze [ID] [LENGTH] [--until TIME]`: the words read (`SnoozeRequest`), then asked
    /// of every running wake as `wake stop` is. `context`: the alarms' names (a word that reads
    /// as a length may be one), the clock, the zone and the control directory; the user's when nil.
    public static func snooze(words: [String], until: String?, console: Console,
                              in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        let request = try snoozeRequest(words: words, until: until, console: console, in: context)
        return try run(.snooze, id: request.id, length: request.length, console: console, directory: { () throws(WakeFailure) in
            if let context { return try context.controlDirectory() }
            return try directory()
        }, zone: context?.zone, now: context?.now())
    }

    static func snoozeRequest(words: [String], until: String?, console: Console,
                              in context: StandingContext?) throws(WakeFailure) -> SnoozeRequest {
        let now = context?.now() ?? SystemClock.realtime
        // The zone is read only for --until, and the alarms file only for a word that reads as
        // a length: a bare `wake snooze` touches no file.
        let zone = until == nil ? TimeZoneRules.utc : (context?.zone(console) ?? console.localZone())
        do {
            return try SnoozeRequest.parse(words: words, until: until, isAlarmName: { word in
                // A standing alarm of that name, as the daemon reads the file; a one-off's ID is
                // its PID, which never reads as a length. No file (no HOME) names no alarm.
                guard let store = context?.store ?? (try? AlarmStore.standard()) else { return false }
                return store.loadTolerant().alarms?.contains { $0.name == word } ?? false
            }, now: now, zone: zone)
        } catch {
            throw WakeFailure(.usage, error.description)
        }
    }
}
