import WakeCore
import WakeSystem

/// What `wake add`, `list`, `next`, `skip`, `pause`, `resume` and `remove` do, one file per verb
/// (`AddAction` ... `RemoveAction`, the list's rows in `ListRows`), with what they share here:
/// each reads and changes the alarms file under its lock, so two at once never lose a change,
/// and the daemon sees the change at once.
public enum StandingAlarmActions {
    static func usage(_ m: String) -> WakeFailure { WakeFailure(.usage, m) }

    static func storeError(_ error: StoreError) -> WakeFailure {
        WakeFailure(error.isCorrupt ? .config : .cantCreate, error.description)
    }

    /// `--on DATE` of `wake skip` and `wake resume`: a local date alone (`2026-12-24`), no time.
    /// `example`: the form the refusal shows, with what the verb does with it.
    static func onDate(_ text: String, example: String, today: CivilDate) throws(WakeFailure) -> CivilDate {
        guard let local = PauseEnd.parse(text, today: today), local.hour == 0, local.minute == 0, local.second == 0,
              !text.contains("T") else {
            throw usage("--on: invalid date '\(TerminalText.printable(text, limit: 40))'; give a local date or a day, as \(example)")
        }
        return local.date
    }

    /// The next ring as the daemon will plan it and `wake list` shows it: the alarm's own late
    /// limit, its skips and pause, and its calendars' days off passed over.
    static func nextRing(_ a: StandingAlarm, record: AlarmRecord?, config: ConfigDefaults, daysOff: AlarmDaysOff) -> Deadline? {
        StandingSchedule.plan(a, record: record ?? AlarmRecord(name: a.name), lateLimit: RingSettings.lateLimit(of: a, config: config),
                              now: daysOff.now, zone: daysOff.zone, dayOff: daysOff[a.name].dayOff,
                              firstEvent: daysOff[a.name].firstEvent).next
    }

    /// The named alarms (each must exist), or every one when no name is given.
    static func chosenAlarms(_ names: [String], store: AlarmStore, verb: String) throws(WakeFailure) -> [StandingAlarm] {
        let alarms: [StandingAlarm]
        do { alarms = try store.load() } catch { throw storeError(error) }
        guard !alarms.isEmpty else { throw usage("no standing alarms to \(verb); add one with 'wake add 06:30 --days weekdays'") }
        if names.isEmpty { return alarms }
        var chosen: [StandingAlarm] = []
        for name in names {
            guard let a = alarms.first(where: { $0.name == name }) else { throw unknown(name) }
            if !chosen.contains(where: { $0.name == name }) { chosen.append(a) }
        }
        return chosen
    }

    static func unknown(_ name: String) -> WakeFailure {
        usage("no standing alarm named '\(name.printable)'; see 'wake list'")
    }
}

extension String {
    func padding(to width: Int) -> String { count >= width ? self : self + String(repeating: " ", count: width - count) }
    /// Its width in a table: its characters, counted by bytes when they are all ASCII.
    var displayWidth: Int { utf8.allSatisfy { $0 < 0x80 } ? utf8.count : count }
    func replacingCommas() -> String { String(map { $0 == "," ? "-" : $0 }) }
}
