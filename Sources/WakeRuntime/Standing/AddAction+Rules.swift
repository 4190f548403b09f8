import WakeCore

extension StandingAlarmActions {
    /// `wake add`'s (and the API's Add's) `--weeks`, `--every` and `--from` (`DayRules`): each
    /// value checked by the option table, refused for an alarm on a date, `--from` only with
    /// `--every`; `--every` without `--from` counts from `today`. `stored`: what alarms.toml
    /// keeps, `from` as the date it names today, so `tomorrow` does not move. `days`: the alarm's
    /// weekdays, every day when a rule is given without `--days`.
    static func checkRules(_ given: [String: String], days: DaySet, dated: Bool,
                           today: CivilDate) throws(WakeFailure) -> (days: DaySet, stored: [String: String]) {
        let options = [AlarmOption.weeks, .every, .from].filter { given[$0.name] != nil }
        guard !options.isEmpty else { return (days, [:]) }
        if dated {
            throw usage("\(options[0].flag) is for an alarm that repeats: an alarm on a date rings once; give a time of day")
        }
        var stored: [String: String] = [:]
        for option in options {
            let text = given[option.name] ?? ""
            if case .failure(let problem) = option.parse(text) { throw usage(problem.message) }
            stored[option.name] = text
        }
        if given[AlarmOption.every.name] == nil, given[AlarmOption.from.name] != nil {
            throw usage("--from goes with --every: it is the first of every Nth day; add --every 2d (or more), or leave out --from")
        }
        if stored[AlarmOption.every.name] != nil {
            let from = given[AlarmOption.from.name].flatMap { NamedDay.date(of: $0, today: today) } ?? today
            stored[AlarmOption.from.name] = from.isoText
        }
        return (days.isEmpty ? .daily : days, stored)
    }
}
