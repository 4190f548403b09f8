import ArgumentParser
import Glibc
import WakeCore
import WakeSystem

// Signals are blocked before anything else, so no thread ever exists with them unblocked:
// they arrive through the signalfd in the event loop instead (see SignalChannel).
SignalChannel.blockControlSignals()

// A closed stdin, stdout or stderr would hand its number to the next open(): the built-in
// sound's memfd could become "stdout" and wake's own messages would corrupt it. Fill the gaps.
StandardDescriptors.reopenClosed()

let arguments = Array(CommandLine.arguments.dropFirst())
let command: WakeCommand
do {
    try AlarmOptions.checkRepeats(arguments)
    command = try WakeCommand.parse(arguments)
} catch let error as ArmError {
    FileOutput.stderr("wake: \(error.message)\n")
    exit(error.status)
} catch {
    if WakeCommand.exitCode(for: error) == .success { WakeCommand.exit(withError: error) }  // --help, --version
    var message = WakeCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
    while message.hasSuffix(".") { message.removeLast() }
    FileOutput.stderr("wake: \(message); see 'wake --help'\n")
    exit(ExitStatus.usage)
}

exit(WakeMain.run(command, arguments: arguments))
