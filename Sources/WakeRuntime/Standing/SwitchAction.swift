import WakeCore
import WakeSystem

extension StandingAlarmActions {
    /// `wake off NAME...` and `wake on NAME...` (or `--group NAME`): the alarm's switch, in
    /// alarms.toml (`switch = "off"`; on takes the key out). Off, it keeps its time, skips,
    /// pauses and history and never rings; switched on, it rings from its next occurrence on,
    /// none that passed while it was off (its `created` moves to now).
    public static func setSwitch(on: Bool, names: [String], group: String?, console: Console,
                                 in context: StandingContext? = nil) throws(WakeFailure) -> CommandResult {
        _ = try switchAlarms(on: on, names: names, group: group, console: console, in: context)
        return .done
    }

    /// The names switched (those already so are said, not counted as an error).
    @discardableResult
    public static func switchAlarms(on: Bool, names: [String], group: String?, console: Console,
                                    in context: StandingContext? = nil) throws(WakeFailure) -> [String] {
        let context = try StandingContext.given(context)
        let verb = on ? "on" : "off"
        let chosen = try alarms(named: names, group: group, store: context.store, verb: "switch \(verb)", console: console)
        let now = context.now()
        let key = AlarmOption.switchState.name
        var switched: [String] = []
        var already: [String] = []
        do {
            try context.store.update { alarms in
                for i in alarms.indices where chosen.contains(alarms[i].name) {
                    guard alarms[i].isOff == on else { already.append(alarms[i].name); continue }
                    if on {
                        alarms[i].options[key] = nil
                        alarms[i].created = now
                    } else {
                        alarms[i].options[key] = "off"
                    }
                    switched.append(alarms[i].name)
                }
            }
        } catch {
            throw storeError(error)
        }
        for name in chosen where switched.contains(name) {
            console.info("switched '\(name)' \(verb)"
                         + (on ? "" : ": it keeps its time, skips and pauses and does not ring until 'wake on \(name)'"))
        }
        for name in chosen where already.contains(name) { console.info("'\(name)' is \(verb) already") }
        return switched
    }

    /// The alarms `names` and `--group` choose (each must exist; a group must have an alarm),
    /// in order; the group's members said in one line. Neither: every alarm.
    static func alarms(named names: [String], group: String?, store: AlarmStore, verb: String,
                       console: Console) throws(WakeFailure) -> [String] {
        guard let group else { return try chosenAlarms(names, store: store, verb: verb).map(\.name) }
        var chosen = try chosenAlarms(names, store: store, verb: verb).filter { !names.isEmpty || $0.group == group }.map(\.name)
        let members = try groupMembers(group, store: store)
        console.info("group '\(group)': \(members.joined(separator: ", "))")
        for name in members where !chosen.contains(name) { chosen.append(name) }
        return chosen
    }

    /// The alarms of `group`, by name; an unknown group (or an invalid name) is a usage error naming it.
    static func groupMembers(_ group: String, store: AlarmStore) throws(WakeFailure) -> [String] {
        if case .failure(let problem) = AlarmOption.group.parse(group) { throw usage(problem.message) }
        let alarms: [StandingAlarm]
        do { alarms = try store.load() } catch { throw storeError(error) }
        let members = alarms.filter { $0.group == group }.map(\.name).sorted()
        guard !members.isEmpty else {
            let known = Set(alarms.compactMap(\.group)).sorted()
            throw usage("no alarm is in the group '\(group.printable)'; "
                        + (known.isEmpty ? "put one in it with 'wake change NAME --group \(group.printable)'"
                                         : "the groups are \(known.joined(separator: ", "))"))
        }
        return members
    }
}

extension StandingAlarmActions {
    /// `--group` of `wake pause` and `wake resume`: the names given and the group's (said in a
    /// line); without a group, the names as given (none: every alarm, as before).
    public static func names(_ names: [String], group: String?, console: Console,
                             in context: StandingContext? = nil) throws(WakeFailure) -> [String] {
        guard group != nil else { return names }
        let context = try StandingContext.given(context)
        return try alarms(named: names, group: group, store: context.store, verb: "change", console: console)
    }

    /// `wake skip` and `wake remove` of one alarm (`name`), or of every alarm of `group` in turn.
    public static func eachOf(_ name: String?, group: String?, verb: String, console: Console, in context: StandingContext? = nil,
                              _ body: (String) throws(WakeFailure) -> CommandResult) throws(WakeFailure) -> CommandResult {
        guard let group else {
            guard let name else { throw usage("\(verb) needs an alarm's NAME or --group NAME; see 'wake list'") }
            return try body(name)
        }
        let context = try StandingContext.given(context)
        let chosen = try alarms(named: name.map { [$0] } ?? [], group: group, store: context.store, verb: verb, console: console)
        var result = CommandResult.done
        for one in chosen { result = try body(one) }
        return result
    }
}
