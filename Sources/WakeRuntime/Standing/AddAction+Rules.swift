import WakeCore
import WakeSystem

extension StandingAlarmActions {
    /// `wake add`'s (and the API's Add's) `--weeks`, `--every` and `--from` (`DayRules`), and
    /// `--before-first-event` with `--lead` (its file made absolute, read by `wake add`): each
    /// value checked by the option table, refused for an alarm on a date, `--from` only with
    /// `--every`; `--every` without `--from` counts from `today`. `stored`: what alarms.toml
    /// keeps, `from` as the date it names today, so `tomorrow` does not move. `days`: the alarm's
    /// weekdays, every day when a rule is given without `--days`.
    static func checkRules(_ given: [String: String], days: DaySet, dated: Bool,
                           today: CivilDate) throws(WakeFailure) -> (days: DaySet, stored: [String: String]) {
        let options = [AlarmOption.weeks, .every, .from, .beforeFirstEvent, .lead].filter { given[$0.name] != nil }
        guard !options.isEmpty else { return (days, [:]) }
        if dated {
            throw usage("\(options[0].flag) is for an alarm that repeats: one on a date or at a span from now rings once; "
                        + "give a time of day")
        }
        var stored: [String: String] = [:]
        for option in options {
            let text = given[option.name] ?? ""
            if case .failure(let problem) = option.parse(text) { throw usage(problem.message) }
            stored[option.name] = text
        }
        if (given[AlarmOption.beforeFirstEvent.name] == nil) != (given[AlarmOption.lead.name] == nil) {
            throw usage("--before-first-event and --lead go together: the calendar and how long before its first event, "
                        + "as --before-first-event work.ics --lead 90m")
        }
        if let file = stored[AlarmOption.beforeFirstEvent.name] {
            // Read later by the daemon, from its own working directory.
            do { stored[AlarmOption.beforeFirstEvent.name] = try WorkingDirectory.absolute(file) } catch {
                throw WakeFailure(.config, "--before-first-event: cannot make '\(file.printable)' an absolute name: \(error); "
                    + "give the calendar's full path")
            }
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

extension StandingAlarmActions {
    /// `--before-first-event`'s calendar read for `wake add`: exit 78 naming the file and the line.
    static func checkFirstEvent(_ alarm: StandingAlarm, zone: TimeZoneRules) throws(WakeFailure) -> FirstEventSchedule? {
        switch DayOffCalendars.firstEvent(of: alarm, zone: zone) {
        case .success(let s): return s
        case .failure(let f): throw f
        case nil: return nil
        }
    }

    /// `90m before the first event in work.ics on weekdays`, for add's line.
    static func firstEventRule(_ a: StandingAlarm, _ s: FirstEventSchedule) -> String {
        "\(DurationText.format(s.lead)) before the first event in \(s.label.printable) on \(a.daySet.canonical)"
    }
}
