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
let command: WakeCommand
do {
    try AlarmOptions.checkRawArguments(arguments)
    command = try WakeCommand.parse(arguments)
} catch let error as ArmError {
    Console(quiet: false).error(error.message)
    exit(error.status)
} catch {
    if WakeCommand.exitCode(for: error) == .success { WakeCommand.exit(withError: error) }  // --help, --version
    var message = WakeCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
    while message.hasSuffix(".") { message.removeLast() }
    Console(quiet: false).error("\(message); see 'wake --help'")
    exit(ExitStatus.usage)
}

// Libraries that print their own lines to stderr (libmpg123, libpulse, JACK) would break ours.
LibraryNoise.silence()

let signals: SignalChannel
do {
    signals = try SignalChannel()
} catch {
    Console(quiet: false).error("cannot set up signal handling: \(error); raise 'ulimit -n'")
    exit(ExitStatus.osError)
}
exit(WakeMain.run(command, signals: signals))
