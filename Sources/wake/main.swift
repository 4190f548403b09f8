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

let subcommand = arguments.first.flatMap { Subcommand.names[$0] }
let rest = Array(arguments.dropFirst())

// Libraries that print their own lines to stderr (libmpg123, libpulse, JACK) would break ours.
// After parsing: ArgumentParser prints help and usage errors through stdio.
func startRunning() -> SignalChannel {
    LibraryNoise.silence()
    do {
        return try SignalChannel()
    } catch {
        Console(quiet: false).error("cannot set up signal handling: \(error); raise 'ulimit -n'")
        exit(ExitStatus.osError)
    }
}

/// Runs a subcommand's body, turning its ArmError into the line and the code.
func finish(_ console: Console, _ body: () throws(ArmError) -> Int32) -> Never {
    do { exit(try body()) } catch {
        console.error(error.message)
        exit(error.status)
    }
}

switch subcommand {
case is AddCommand.Type:
    let c = parse(AddCommand.self, rest)
    let signals = startRunning()
    let console = Console(quiet: c.quiet)
    finish(console) { () throws(ArmError) -> Int32 in try StandingAlarmActions.add(c, console: console, signals: signals) }
case is ListCommand.Type:
    let c = parse(ListCommand.self, rest)
    _ = startRunning()
    let console = Console(quiet: false)
    finish(console) { () throws(ArmError) -> Int32 in try StandingAlarmActions.list(c, console: console) }
case is SkipCommand.Type:
    let c = parse(SkipCommand.self, rest)
    _ = startRunning()
    let console = Console(quiet: false)
    finish(console) { () throws(ArmError) -> Int32 in try StandingAlarmActions.skip(c, console: console) }
case is RemoveCommand.Type:
    let c = parse(RemoveCommand.self, rest)
    _ = startRunning()
    let console = Console(quiet: false)
    finish(console) { () throws(ArmError) -> Int32 in try StandingAlarmActions.remove(c, console: console) }
case is DaemonCommand.Type:
    let c = parse(DaemonCommand.self, rest)
    let signals = startRunning()
    let console = Console(quiet: c.quiet, stdoutIsEventStream: c.events == "-")
    finish(console) { () throws(ArmError) -> Int32 in try DaemonMain.run(c, console: console, signals: signals) }
default:
    let command = parse(WakeCommand.self, arguments)
    let signals = startRunning()
    exit(WakeMain.run(command, signals: signals))
}
