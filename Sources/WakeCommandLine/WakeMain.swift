import ArgumentParser
import Glibc
import WakeCore
import WakeRuntime
import WakeSystem

/// What the command line gave and the config file added under it.
struct Invocation<T> {
    var command: T
    var config = ConfigDefaults()
    /// The value options the command line itself gave (`--volume`).
    var given: Set<String> = []

    /// An option's value: the command line's when it gave one, else the config file's, else
    /// `commandLine` (the command's own default).
    func value(_ option: AlarmOption, _ commandLine: String) -> String {
        config.layered(option, over: commandLine, given: given)
    }
}

/// Parses `args` as `T`, with the config file read when `readsConfig` (its values are laid
/// under the command line's by `Invocation.value`, as values, never as more arguments), or exits
/// with wake's own one-line error (64 for usage, 78 for the config file).
/// `tolerant`: the daemon's read of the config file, which sets aside what it cannot use (and
/// says so) instead of refusing to start.
/// `parent`: the word before a nested subcommand's name (`holidays` of `wake holidays import`).
func parse<T: ParsableCommand>(_ type: T.Type, _ args: [String], readsConfig: Bool = false, tolerant: Bool = false,
                               parent: String? = nil) -> Invocation<T> {
    do {
        let given = try ArgumentChecks.checkRawArguments(args)
        // --help and --version answer whatever the config file says.
        let informational = args.contains { ["-h", "--help", "--version"].contains($0) || $0.hasPrefix("--generate-completion-script") }
        guard readsConfig, !informational else { return Invocation(command: try T.parse(args), given: given) }
        let config = tolerant ? ConfigDefaults.loadTolerant() : try ConfigDefaults.load()
        return Invocation(command: try T.parse(args), config: config, given: given)
    } catch let error as WakeFailure {
        Console(quiet: false).error(error.message)
        exit(ExitCode.of(error.kind))
    } catch {
        if T.exitCode(for: error) == .success { T.exit(withError: error) }  // --help, --version
        var message = T.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
        while message.hasSuffix(".") { message.removeLast() }
        let name = [parent, T.configuration.commandName].compactMap { $0 }.joined(separator: " ")
        let help = T.self == WakeCommand.self ? "wake --help" : "wake \(name) --help"
        Console(quiet: false).error("\(message); see '\(help)'")
        exit(ExitCode.usage)
    }
}

// Libraries that print their own lines to stderr (libmpg123, libpulse, JACK) would break ours.
// After parsing: ArgumentParser prints help and usage errors through stdio.
func startRunning() -> SignalChannel {
    ProcessStart.silenceLibraries()
    let signals: SignalChannel
    do {
        signals = try SignalChannel()
    } catch {
        Console(quiet: false).error("cannot set up signal handling: \(error); raise 'ulimit -n'")
        exit(ExitCode.osError)
    }
    // Mixer levels a wake killed mid-ring left raised are put back first, whatever the command.
    MixerCheck.restoreLeftovers()
    return signals
}

/// Sets up, runs a subcommand's body and exits with the code its result maps to; a failure
/// becomes its one line and its kind's code.
func execute(quiet: Bool = false, eventStream: Bool = false,
             _ body: (Console, SignalChannel) throws(WakeFailure) -> CommandResult) -> Never {
    let signals = startRunning()
    let console = Console(quiet: quiet, stdoutIsEventStream: eventStream)
    do { exit(ExitCode.of(try body(console, signals))) } catch {
        console.error(error.message)
        exit(ExitCode.of(error.kind))
    }
}

/// Parses a subcommand (`args`: the words after its name), then `execute`s its body.
func run<T: ParsableCommand>(_ type: T.Type, _ args: [String], parent: String? = nil, readsConfig: Bool = false, tolerant: Bool = false,
                             quiet: (T) -> Bool = { _ in false }, eventStream: (T) -> Bool = { _ in false },
                             _ body: (Invocation<T>, Console, SignalChannel) throws(WakeFailure) -> CommandResult) -> Never {
    let c = parse(T.self, args, readsConfig: readsConfig, tolerant: tolerant, parent: parent)
    execute(quiet: quiet(c.command), eventStream: eventStream(c.command)) { console, signals throws(WakeFailure) in
        try body(c, console, signals)
    }
}

/// The command line's entry: the executable hands it its arguments (after the program name).
public enum WakeMain {
    public static func dispatch(_ arguments: [String]) -> Never {
        // The commands a script or a key binding runs most, given plain words only, skip the parser: for
        // them it would return just those words, and parsing costs more than the command's own work
        // (`wake list` took 8 ms, most of it in swift-argument-parser's reflection and the runtime's
        // first conformance scan). A dash anywhere (`--help`, `-q`, `--`) or a word too many goes
        // through the parser as before, with its help and its errors.
        let rest = Array(arguments.dropFirst())
        let plainWords = rest.allSatisfy { !$0.hasPrefix("-") }

        // The first word picks a subcommand; anything else is `wake WHEN`.
        switch arguments.first {
        case "list" where rest.isEmpty || rest == ["--json"]:
            execute { console, _ throws(WakeFailure) in try StandingAlarmActions.list(json: !rest.isEmpty, console: console) }
        case "next" where rest.isEmpty || rest == ["--json"]:
            execute { console, _ throws(WakeFailure) in try StandingAlarmActions.next(json: !rest.isEmpty, console: console) }
        case "stop" where plainWords && rest.count <= 1:
            execute { console, _ throws(WakeFailure) in try ControlActions.run(.stop, id: rest.first, console: console) }
        // A negative length (`wake snooze -5m`) is no option: its words say what is wrong with it.
        case "snooze" where rest.count <= 2 && rest.allSatisfy({ !$0.hasPrefix("-") || SnoozeRequest.readsAsNegativeLength($0) }):
            execute { console, _ throws(WakeFailure) in try ControlActions.snooze(words: rest, until: nil, console: console) }
        case "cancel" where plainWords && rest.count == 1:
            execute { console, _ throws(WakeFailure) in try ControlActions.run(.cancel, id: rest[0], console: console) }
        case "add":
            run(AddCommand.self, rest, readsConfig: true, quiet: \.quiet) { c, console, signals throws(WakeFailure) in
                let request = StandingAlarmActions.AddRequest(when: c.command.when, days: c.command.days, name: c.command.name,
                                                              ring: try c.command.ring.settings(under: c.config, given: c.given), given: c.given,
                                                              skipDays: c.command.skipDays)
                return try StandingAlarmActions.add(request, console: console, signals: signals)
            }
        case "list":
            run(ListCommand.self, rest) { c, console, _ throws(WakeFailure) in try StandingAlarmActions.list(json: c.command.json, console: console) }
        case "next":
            run(NextCommand.self, rest) { c, console, signals throws(WakeFailure) in
                let n = c.command
                guard n.follow || n.format != nil else { return try StandingAlarmActions.next(json: n.json, console: console) }
                return try NextFollower.follow(format: n.format, follow: n.follow, json: n.json, console: console, signals: signals)
            }
        case "skip":
            run(SkipCommand.self, rest, quiet: \.quiet) { c, console, _ throws(WakeFailure) in
                let s = c.command
                return try StandingAlarmActions.skip(.init(name: s.name, undo: s.undo, count: s.count, dates: s.on), console: console)
            }
        case "pause":
            run(PauseCommand.self, rest, quiet: \.quiet) { c, console, _ throws(WakeFailure) in
                try StandingAlarmActions.pause(until: c.command.until, from: c.command.from, long: c.command.long, names: c.command.names, console: console)
            }
        case "resume":
            run(ResumeCommand.self, rest, quiet: \.quiet) { c, console, _ throws(WakeFailure) in
                try StandingAlarmActions.resume(names: c.command.names, all: c.command.all, on: c.command.on, console: console)
            }
        case "remove":
            run(RemoveCommand.self, rest, quiet: \.quiet) { c, console, _ throws(WakeFailure) in
                try StandingAlarmActions.remove(name: c.command.name, console: console)
            }
        case "stop":
            run(StopCommand.self, rest) { c, console, _ throws(WakeFailure) in try ControlActions.run(.stop, id: c.command.id, console: console) }
        case "snooze":
            run(SnoozeCommand.self, rest) { c, console, _ throws(WakeFailure) in
                try ControlActions.snooze(words: c.command.words, until: c.command.until, console: console)
            }
        case "cancel":
            run(CancelCommand.self, rest) { c, console, _ throws(WakeFailure) in try ControlActions.run(.cancel, id: c.command.id, console: console) }
        case "daemon":
            // A user service starts with a soft limit of 1024 descriptors: the alarms' timers share one
            // per clock, and the rest (the device, the files, the clients) get all the hard limit allows.
            ProcessStart.raiseDescriptorLimit()
            run(DaemonCommand.self, rest, readsConfig: true, tolerant: true, quiet: \.quiet,
                eventStream: { $0.events == "-" }) {
                c, console, signals throws(WakeFailure) in
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
            let source = Doctor.adoptDaemonEnvironment()
            run(DoctorCommand.self, rest) { c, console, signals throws(WakeFailure) in
                try Doctor.run(names: c.command.names, json: c.command.json, console: console,
                               context: Doctor.Context(standing: try StandingContext.standard(), environment: source, signals: signals))
            }
        case "test":
            run(TestCommand.self, rest, readsConfig: true, eventStream: \.json) { c, console, signals throws(WakeFailure) in
                try AlarmTest.run(c.command.request(config: c.config, given: c.given), console: console, signals: signals)
            }
        case "holidays":
            // The second word picks the subcommand, as the first word does here; --help or anything else
            // gets the group's help or wake's one-line error.
            let words = Array(rest.dropFirst())
            switch rest.first {
            case "import":
                // With -o -, the file is stdout and the lines about it go to stderr.
                run(HolidaysImportCommand.self, words, parent: "holidays", eventStream: { $0.output == "-" }) { c, console, _ throws(WakeFailure) in
                    try HolidayImport.run(HolidayImport.Request(place: c.command.place, years: c.command.years, output: c.command.output), console: console)
                }
            case "list":
                run(HolidaysListCommand.self, words, parent: "holidays") { _, console, _ throws(WakeFailure) in try HolidayImport.list(console: console) }
            default:
                if rest.first?.hasPrefix("-") == true { _ = parse(HolidaysCommand.self, rest) }  // --help answers and exits
                Console(quiet: false).error(rest.first.map { "no subcommand '\($0.printable)' of holidays; give import or list (see 'wake holidays --help')" }
                                            ?? "holidays needs a subcommand: import COUNTRY[-REGION] or list (see 'wake holidays --help')")
                exit(ExitCode.usage)
            }
        case "help":
            // `wake help [SUBCOMMAND]`, which the completion scripts offer: that subcommand's --help.
            guard let name = rest.first else { _ = parse(WakeCommand.self, ["--help"]); exit(ExitCode.usage) }
            guard let sub = WakeCommandTree.subcommands.first(where: { $0.configuration.commandName == name }) else {
                Console(quiet: false).error("no subcommand '\(name.printable)'; see 'wake --help'")
                exit(ExitCode.usage)
            }
            // `wake help holidays import`: a group's subcommand.
            let nested = rest.count == 2 ? sub.configuration.subcommands.first { $0.configuration.commandName == rest[1] } : nil
            guard rest.count == 1 || nested != nil else {
                Console(quiet: false).error("help takes one subcommand, not '\(rest[1].printable)'; see 'wake --help'")
                exit(ExitCode.usage)
            }
            /// Prints a subcommand's help (parse exits for --help); opened from the existential here.
            func help<T: ParsableCommand>(_ type: T.Type) { _ = parse(type, ["--help"]) }
            let target: any ParsableCommand.Type = nested ?? sub
            help(target)
            exit(ExitCode.usage)
        case let first where WakeCommandTree.handles(first):
            // The completion scripts and the help dump, generated from the whole tree (they print and exit).
            _ = parse(WakeCommandTree.self, arguments)
            exit(ExitCode.usage)
        default:
            let invocation = parse(WakeCommand.self, arguments, readsConfig: true)
            let signals = startRunning()
            exit(runOneOff(invocation, signals: signals))
        }
    }
}

/// `wake WHEN`: the options checked, then the runtime's one-off alarm.
func runOneOff(_ invocation: Invocation<WakeCommand>, signals: SignalChannel) -> Int32 {
    let command = invocation.command
    let console = Console(quiet: command.options.quiet, stdoutIsEventStream: command.options.events == "-")
    if command.options.listDevices { return ExitCode.of(OneOffAlarm.listDevices(console)) }
    do {
        let options = try AlarmOptions(command, config: invocation.config, given: invocation.given)
        return ExitCode.of(try OneOffAlarm.arm(options, console: console, signals: signals))
    } catch {
        console.error(error.message)
        return ExitCode.of(error.kind)
    }
}
