/// Standing alarms that ring at the same moments: one time of day, the same days (or date, or
/// neither: a one-off at its next occurrence) and the same day rules. A copy defeats `wake skip
/// NAME` and `wake pause NAME`, since the other still rings, so `wake add` and the API's Add
/// refuse one without `--force`, and `wake doctor` names those that exist.
public enum DuplicateAlarms {
    /// The options that choose which days an alarm rings on (`AlarmOption.dayRules`): not the
    /// holiday calendars or the group (two alarms that differ there ring together on most days).
    static let dayRuleKeys = AlarmOption.dayRules.map(\.name)

    /// Whether `a` and `b` ring at the same moments.
    /// A timer is never a copy: two of one length started at once are two timers, by name.
    public static func same(_ a: StandingAlarm, _ b: StandingAlarm) -> Bool {
        a.timer == nil && b.timer == nil && a.at == b.at
            && a.hour == b.hour && a.minute == b.minute && a.second == b.second && a.days == b.days && a.date == b.date
            && dayRuleKeys.allSatisfy { a.options[$0] == b.options[$0] }
    }

    /// The first of `alarms`, by name, that `alarm` would copy (never itself, by name).
    public static func existing(_ alarm: StandingAlarm, among alarms: [StandingAlarm]) -> StandingAlarm? {
        alarms.filter { $0.name != alarm.name && same($0, alarm) }.min { $0.name < $1.name }
    }

    /// The names of each set of copies among `alarms`, two or more, in name order.
    public static func copies(in alarms: [StandingAlarm]) -> [[String]] {
        var sets: [[StandingAlarm]] = []
        for alarm in alarms.sorted(by: { $0.name < $1.name }) {
            if let i = sets.firstIndex(where: { same($0[0], alarm) }) { sets[i].append(alarm) } else { sets.append([alarm]) }
        }
        return sets.filter { $0.count > 1 }.map { $0.map(\.name) }
    }
}
