import ArgumentParser
import WakeCore
import WakeRuntime
import WakeSystem

/// The command line's entry: the executable hands it its arguments (after the program name) and
/// the user's world, and exits with the code it gives back; a test hands in its own world and
/// reads the code and the lines.
public enum WakeMain {
    public static func run(_ arguments: [String], world: CommandWorld) -> Int32 {
        // The reader's clock (config.toml's `clock`, else the desktop's, else the locale's) and
        // language, bound for this run: every line for a person is written in them (`ClockStyle`,
        // `MessageCatalogue`).
        let clock = ConfigDefaults.loadTolerant(path: world.configPath).entry(AlarmOption.clock.name)?.value
        let desktop = clock == nil || clock == "locale" ? world.desktopClock() : nil
        let style = LocaleClock.style(setting: clock, formats: world.localeClock(), desktop: desktop)
        return MessageCatalogue.$current.withValue(world.messages()) {
            ClockStyle.$current.withValue(style) { dispatch(arguments, world: world) }
        }
    }

    static func dispatch(_ arguments: [String], world: CommandWorld) -> Int32 {
        let r = CommandRunner(world: world)
        let standing = world.standing
        // The commands a script or a key binding runs most, given plain words only, skip the parser: for
        // them it would return just those words, and parsing costs more than the command's own work
        // (`wake list` took 8 ms, most of it in swift-argument-parser's reflection and the runtime's
        // first conformance scan). A dash anywhere (`--help`, `-q`, `--`) or a word too many goes
        // through the parser as before, with its help and its errors.
        let rest = Array(arguments.dropFirst())
        let plainWords = rest.allSatisfy { !$0.hasPrefix("-") }

        /// `wake stop` and `wake cancel`: the world's control directory, zone and clock when it has its own.
        func control(_ command: AlarmCommand, id: String?, console: Console) throws(WakeFailure) -> CommandResult {
            guard let standing else { return try ControlActions.run(command, id: id, console: console) }
            return try ControlActions.run(command, id: id, console: console, directory: standing.controlDirectory, zone: standing.zone,
                                          now: standing.now())
        }

        // The first word picks a subcommand; anything else is `wake WHEN`.
        switch arguments.first {
        case "list" where rest.isEmpty || rest == ["--json"]:
            return r.execute { console, _ throws(WakeFailure) in
                try StandingAlarmActions.list(json: !rest.isEmpty, console: console, in: standing)
            }
        case "next" where rest.isEmpty || rest == ["--json"]:
            return r.execute { console, _ throws(WakeFailure) in
                try StandingAlarmActions.next(json: !rest.isEmpty, console: console, in: standing)
            }
        case "stop" where plainWords && rest.count <= 1:
            return r.execute { console, _ throws(WakeFailure) in try control(.stop, id: rest.first, console: console) }
        // A negative length (`wake snooze -5m`) is no option: its words say what is wrong with it.
        case "snooze" where rest.count <= 2 && rest.allSatisfy({ !$0.hasPrefix("-") || SnoozeRequest.readsAsNegativeLength($0) }):
            return r.execute { console, _ throws(WakeFailure) in
                try ControlActions.snooze(words: rest, until: nil, console: console, in: standing)
            }
        case "cancel" where plainWords && rest.count == 1:
            return r.execute { console, _ throws(WakeFailure) in try control(.cancel, id: rest[0], console: console) }
        case "add":
            return r.run(AddCommand.self, rest, readsConfig: true, quiet: \.quiet) { c, console, signals throws(WakeFailure) in
                let ring = try c.command.ring.settings(under: c.config, given: c.given)
                let request = StandingAlarmActions.AddRequest(when: c.command.when, days: c.command.days, name: c.command.name,
                                                              ring: ring, given: c.given, skipDays: c.command.skipDays,
                                                              rules: c.command.rules,
                                                              other: c.command.kept,
                                                              force: c.command.force)
                return try StandingAlarmActions.add(request, console: console, signals: signals, in: standing)
            }
        case "timer":
            return r.run(TimerCommand.self, rest, readsConfig: true, quiet: \.quiet) { c, console, signals throws(WakeFailure) in
                let ring = try c.command.ring.settings(under: c.config, given: c.given)
                _ = try StandingAlarmActions.timer(span: c.command.span, name: c.command.name, repeats: c.command.repeat, ring: ring,
                                                   given: c.given, console: console, signals: signals, in: standing)
                return .done
            }
        case "sleep":
            return r.run(SleepCommand.self, rest) { c, console, signals throws(WakeFailure) in
                let s = c.command
                return try SleepTimerAction.run(.init(span: s.span, sound: s.sound, device: s.device, sink: s.sink, volume: s.volume,
                                                      then: s.then, events: s.events, unpaced: s.unpaced), console: console,
                                                signals: signals)
            }
        case "extend":
            return r.run(ExtendCommand.self, rest, quiet: \.quiet) { c, console, _ throws(WakeFailure) in
                try StandingAlarmActions.extend(name: c.command.name, by: c.command.span, console: console, in: standing)
            }
        case "list":
            return r.run(ListCommand.self, rest) { c, console, _ throws(WakeFailure) in
                guard let order = StandingAlarmActions.ListOrder(rawValue: c.command.sort) else {
                    throw WakeFailure(.usage, "--sort: invalid order '\(c.command.sort.printable)'; give next or name")
                }
                return try StandingAlarmActions.list(json: c.command.json, order: order, console: console, in: standing)
            }
        case "next":
            return r.run(NextCommand.self, rest) { c, console, signals throws(WakeFailure) in
                let n = c.command
                guard n.follow || n.format != nil else {
                    return try StandingAlarmActions.next(json: n.json, console: console, in: standing)
                }
                return try NextFollower.follow(format: n.format, follow: n.follow, json: n.json, console: console, signals: signals)
            }
        case "skip":
            return r.run(SkipCommand.self, rest, quiet: \.quiet) { c, console, _ throws(WakeFailure) in
                let s = c.command
                // Without a name or group: the alarm that rings next (`SkipRequest.name`).
                guard s.name != nil || s.group != nil else {
                    return try StandingAlarmActions.skip(.init(name: nil, undo: s.undo, count: s.count, dates: s.on), console: console,
                                                         in: standing)
                }
                let request = StandingAlarmActions.SkipRequest(name: s.name, undo: s.undo, count: s.count, dates: s.on)
                guard let group = s.group else { return try StandingAlarmActions.skip(request, console: console, in: standing) }
                return try StandingAlarmActions.skipGroup(request, group: group, console: console, in: standing)
            }
        case "pause":
            return r.run(PauseCommand.self, rest, quiet: \.quiet) { c, console, _ throws(WakeFailure) in
                let names = try StandingAlarmActions.names(c.command.names, group: c.command.group, console: console, in: standing)
                guard let until = c.command.until else {
                    return try StandingAlarmActions.pauseTimers(names, console: console, in: standing)
                }
                return try StandingAlarmActions.pause(until: until, from: c.command.from, long: c.command.long, names: names,
                                                      console: console, in: standing)
            }
        case "resume":
            return r.run(ResumeCommand.self, rest, quiet: \.quiet) { c, console, _ throws(WakeFailure) in
                let names = try StandingAlarmActions.names(c.command.names, group: c.command.group, console: console, in: standing)
                return try StandingAlarmActions.resume(names: names, all: c.command.all, on: c.command.on, console: console,
                                                       in: standing)
            }
        case "remove":
            return r.run(RemoveCommand.self, rest, quiet: \.quiet) { c, console, _ throws(WakeFailure) in
                try StandingAlarmActions.eachOf(c.command.name, group: c.command.group, verb: "remove", console: console, in: standing) {
                    name throws(WakeFailure) in try StandingAlarmActions.remove(name: name, console: console, in: standing)
                }
            }
        case "change":
            return r.run(ChangeCommand.self, rest, readsConfig: true, quiet: \.quiet) { c, console, signals throws(WakeFailure) in
                let m = c.command
                let request = StandingAlarmActions.ChangeRequest(name: m.name, when: m.when, days: m.days, newName: m.newName,
                                                                 values: m.ring.values, given: c.given, skipDays: m.skipDays,
                                                                 kept: m.kept, rules: m.schedule.rules, reset: m.reset,
                                                                 force: m.force)
                return try StandingAlarmActions.change(request, console: console, signals: signals, in: standing)
            }
        case "on":
            return switchAlarms(OnCommand.self, on: true, rest, r, standing)
        case "off":
            return switchAlarms(OffCommand.self, on: false, rest, r, standing)
        case "stop":
            return r.run(StopCommand.self, rest) { c, console, _ throws(WakeFailure) in
                try control(.stop, id: c.command.id, console: console)
            }
        case "snooze":
            return r.run(SnoozeCommand.self, rest) { c, console, _ throws(WakeFailure) in
                try ControlActions.snooze(words: c.command.words, until: c.command.until, console: console, in: standing)
            }
        case "cancel":
            return r.run(CancelCommand.self, rest) { c, console, _ throws(WakeFailure) in
                try control(.cancel, id: c.command.id, console: console)
            }
        case "daemon":
            return r.run(DaemonCommand.self, rest, readsConfig: true, tolerant: true, daemon: true, quiet: \.quiet,
                         eventStream: { $0.events == "-" }) { c, console, signals throws(WakeFailure) in
                let d = c.command
                let options = DaemonOptions(events: d.events, inhibit: c.value(.inhibit, d.inhibit), notify: c.value(.notify, d.notify),
                                            wakeSystem: d.wakeSystem, noWakeSystem: d.noWakeSystem, unpaced: d.unpaced,
                                            noticeBefore: c.value(.noticeBefore, d.noticeBefore),
                                            notifyGiven: c.given.contains("--notify"))
                return try StandingAlarmDaemon.run(options, config: c.config, console: console, signals: signals)
            }
        case "doctor":
            // The daemon's environment first, before any thread (setenv), so the checks reach its sound
            // server and session bus.
            let source = world.daemonEnvironment()
            return r.run(DoctorCommand.self, rest) { c, console, signals throws(WakeFailure) in
                let context = try StandingContext.given(standing)
                return try Doctor.run(names: c.command.names, json: c.command.json, console: console,
                                      context: Doctor.Context(standing: context, environment: source, signals: signals))
            }
        case "test":
            return r.run(TestCommand.self, rest, readsConfig: true, eventStream: \.json) { c, console, signals throws(WakeFailure) in
                // --json is for programs: its ended_by and warnings stay English.
                let request = c.command.request(config: c.config, given: c.given)
                guard request.json else { return try AlarmTest.run(request, console: console, signals: signals, store: standing?.store) }
                return try MachineText.written { () throws(WakeFailure) in
                    try AlarmTest.run(request, console: console, signals: signals, store: standing?.store)
                }
            }
        case BedtimeCheckProcess.command:
            // The daemon's bedtime check, run apart from it; not a command for people (not in --help).
            // Its findings go into the bedtime_check event and its hooks' JSON: English, 24-hour.
            let config = ConfigDefaults.loadTolerant(path: world.configPath)
            return MachineText.written {
                r.execute { console, _ throws(WakeFailure) in
                    BedtimeCheckProcess.serve(input: StandardDescriptors.readInput(limit: BedtimeCheckProcess.inputLimit), config: config,
                                              console: console)
                }
            }
        case "holidays":
            return holidays(rest, r)
        case "help":
            return help(rest, r)
        case let first where WakeCommandTree.handles(first):
            // The completion scripts and the help dump, generated from the whole tree (they print and answer 0).
            do { _ = try r.parse(WakeCommandTree.self, arguments) } catch { return error.code }
            return ExitCode.usage
        default:
            let invocation: Invocation<WakeCommand>
            do { invocation = try r.parse(WakeCommand.self, arguments, readsConfig: true) } catch { return error.code }
            return oneOff(invocation, world)
        }
    }

    /// `wake on` and `wake off`: one switch, two words.
    static func switchAlarms<T: SwitchCommand>(_ type: T.Type, on: Bool, _ rest: [String], _ r: CommandRunner,
                                               _ standing: StandingContext?) -> Int32 {
        r.run(T.self, rest, quiet: \.quiet) { c, console, _ throws(WakeFailure) in
            try StandingAlarmActions.setSwitch(on: on, names: c.command.names, group: c.command.group, console: console, in: standing)
        }
    }

    /// `wake holidays ...`: the second word picks the subcommand, as the first word does in `run`;
    /// --help or anything else gets the group's help or wake's one-line error.
    static func holidays(_ rest: [String], _ r: CommandRunner) -> Int32 {
        let words = Array(rest.dropFirst())
        switch rest.first {
        case "import":
            // With -o -, the file is stdout and the lines about it go to stderr.
            return r.run(HolidaysImportCommand.self, words, parent: "holidays", eventStream: { $0.output == "-" }) {
                c, console, _ throws(WakeFailure) in
                let i = c.command
                return try HolidayImport.run(HolidayImport.Request(place: i.place, years: i.years, output: i.output), console: console)
            }
        case "list":
            return r.run(HolidaysListCommand.self, words, parent: "holidays") { _, console, _ throws(WakeFailure) in
                try HolidayImport.list(console: console)
            }
        default:
            if rest.first?.hasPrefix("-") == true {  // --help answers
                do { _ = try r.parse(HolidaysCommand.self, rest) } catch { return error.code }
            }
            r.world.plainConsole.error(
                rest.first.map { "no subcommand '\($0.printable)' of holidays; give import or list (see 'wake holidays --help')" }
                    ?? "holidays needs a subcommand: import COUNTRY[-REGION] or list (see 'wake holidays --help')")
            return ExitCode.usage
        }
    }

    /// `wake help [SUBCOMMAND]`, which the completion scripts offer: that subcommand's --help.
    static func help(_ rest: [String], _ r: CommandRunner) -> Int32 {
        guard let name = rest.first else { return r.help(WakeCommand.self) }
        guard let sub = WakeCommandTree.subcommands.first(where: { $0.configuration.commandName == name }) else {
            r.world.plainConsole.error("no subcommand '\(name.printable)'; see 'wake --help'")
            return ExitCode.usage
        }
        // `wake help holidays import`: a group's subcommand.
        let nested = rest.count == 2 ? sub.configuration.subcommands.first { $0.configuration.commandName == rest[1] } : nil
        guard rest.count == 1 || nested != nil else {
            r.world.plainConsole.error("help takes one subcommand, not '\(rest[1].printable)'; see 'wake --help'")
            return ExitCode.usage
        }
        /// Opened from the existential here.
        func help<T: ParsableCommand>(_ type: T.Type) -> Int32 { r.help(type) }
        let target: any ParsableCommand.Type = nested ?? sub
        return help(target)
    }

    /// `wake WHEN`: started, the options checked, then the runtime's one-off alarm.
    static func oneOff(_ invocation: Invocation<WakeCommand>, _ world: CommandWorld) -> Int32 {
        let signals: SignalChannel
        do { signals = try world.start(false) } catch {
            world.plainConsole.error(error.message)
            return ExitCode.of(error.kind)
        }
        let command = invocation.command
        let console = world.console(command.options.quiet, command.options.events == "-")
        if command.options.listDevices { return ExitCode.of(OneOffAlarm.listDevices(console)) }
        do {
            let options = try AlarmOptions(command, config: invocation.config, given: invocation.given)
            return ExitCode.of(try OneOffAlarm.arm(options, console: console, signals: signals, clock: world.clock, zone: world.zone))
        } catch {
            console.error(error.message)
            return ExitCode.of(error.kind)
        }
    }
}
