import ArgumentParser
import Glibc
import WakeCore
import WakeSystem

// Signals are blocked before anything else, so no thread ever exists with them unblocked:
// they arrive through the signalfd in the event loop instead (see SignalChannel).
SignalChannel.blockSignals()

// A closed stdin, stdout or stderr would hand its number to the next open(): the built-in
// sound's memfd could become "stdout" and wake's own messages would corrupt it. Fill the gaps.
StandardDescriptors.reopenClosed()

// From cron, ssh or a unit without XDG_RUNTIME_DIR, find the user's sound server where logind
// put it; before any thread starts, since it sets the environment. Why the server cannot be
// found is said only if a device behind it fails.
_ = SoundServerEnvironment.prepare()

let arguments = Array(CommandLine.arguments.dropFirst())

/// Parses `args` as `T`, or exits with wake's own one-line usage error (64).
func parse<T: ParsableCommand>(_ type: T.Type, _ args: [String]) -> T {
    do {
        try AlarmOptions.checkRawArguments(args)
        return try T.parse(args)
    } catch let error as ArmError {
        Console(quiet: false).error(error.message)
        exit(error.status)
    } catch {
        if T.exitCode(for: error) == .success { T.exit(withError: error) }  // --help, --version
        var message = T.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
        while message.hasSuffix(".") { message.removeLast() }
        let help = T.self == WakeCommand.self ? "wake --help" : "wake \(T.configuration.commandName ?? "") --help"
        Console(quiet: false).error("\(message); see '\(help)'")
        exit(ExitStatus.usage)
    }
}

let rest = Array(arguments.dropFirst())

// Libraries that print their own lines to stderr (libmpg123, libpulse, JACK) would break ours.
// After parsing: ArgumentParser prints help and usage errors through stdio.
func startRunning() -> SignalChannel {
    LibraryNoise.silence()
    let signals: SignalChannel
    do {
        signals = try SignalChannel()
    } catch {
        Console(quiet: false).error("cannot set up signal handling: \(error); raise 'ulimit -n'")
        exit(ExitStatus.osError)
    }
    // Mixer levels a wake killed mid-ring left raised are put back first, whatever the command.
    MixerCheck.restoreLeftovers()
    return signals
}

/// Parses a subcommand, sets up, runs its body and exits with its code; an ArmError becomes
/// its one line and code.
func run<T: ParsableCommand>(_ type: T.Type, quiet: (T) -> Bool = { _ in false }, eventStream: (T) -> Bool = { _ in false },
                             _ body: (T, Console, SignalChannel) throws(ArmError) -> Int32) -> Never {
    let c = parse(T.self, rest)
    let signals = startRunning()
    let console = Console(quiet: quiet(c), stdoutIsEventStream: eventStream(c))
    do { exit(try body(c, console, signals)) } catch {
        console.error(error.message)
        exit(error.status)
    }
}

// The first word picks a subcommand; anything else is `wake WHEN`.
switch arguments.first {
case "add":
    run(AddCommand.self, quiet: \.quiet) { c, console, signals throws(ArmError) in try StandingAlarmActions.add(c, console: console, signals: signals) }
case "list":
    run(ListCommand.self) { c, console, _ throws(ArmError) in try StandingAlarmActions.list(c, console: console) }
case "skip":
    run(SkipCommand.self) { c, console, _ throws(ArmError) in try StandingAlarmActions.skip(c, console: console) }
case "remove":
    run(RemoveCommand.self) { c, console, _ throws(ArmError) in try StandingAlarmActions.remove(c, console: console) }
case "daemon":
    run(DaemonCommand.self, quiet: \.quiet, eventStream: { $0.events == "-" }) { c, console, signals throws(ArmError) in
        try DaemonMain.run(c, console: console, signals: signals)
    }
default:
    let command = parse(WakeCommand.self, arguments)
    let signals = startRunning()
    exit(WakeMain.run(command, signals: signals))
}
