import ArgumentParser
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

/// A command line answered before any command ran: help printed (0) or a refusal said (64, 78).
struct Answered: Error {
    let code: Int32
}

/// Parses and runs one command in a world, and gives the exit code its result maps to.
struct CommandRunner {
    let world: CommandWorld

    /// Parses `args` as `T`, with the config file read when `readsConfig` (its values are laid
    /// under the command line's by `Invocation.value`, as values, never as more arguments), or
    /// throws the exit code of wake's own one-line error (64 for usage, 78 for the config file),
    /// said; --help and --version are printed and answer 0.
    /// `tolerant`: the daemon's read of the config file, which sets aside what it cannot use (and
    /// says so) instead of refusing to start.
    /// `parent`: the word before a nested subcommand's name (`holidays` of `wake holidays import`).
    func parse<T: ParsableCommand>(_ type: T.Type, _ args: [String], readsConfig: Bool = false, tolerant: Bool = false,
                                   parent: String? = nil) throws(Answered) -> Invocation<T> {
        do {
            let given = try ArgumentChecks.checkRawArguments(args)
            // --help and --version answer whatever the config file says.
            let informational = args.contains { ["-h", "--help", "--version"].contains($0) || $0.hasPrefix("--generate-completion-script") }
            guard readsConfig, !informational else { return Invocation(command: try T.parse(args), given: given) }
            let config = try world.config(tolerant: tolerant)
            return Invocation(command: try T.parse(args), config: config, given: given)
        } catch let error as WakeFailure {
            world.plainConsole.error(error.message)
            throw Answered(code: ExitCode.of(error.kind))
        } catch {
            throw answer(T.self, error, parent: parent)
        }
    }

    /// swift-argument-parser's error as wake's answer: its help, version or completion script
    /// printed as its own `exit(withError:)` prints them (0), or wake's one line (64).
    func answer<T: ParsableCommand>(_ type: T.Type, _ error: any Error, parent: String? = nil) -> Answered {
        let code = T.exitCode(for: error)
        if code == .success {  // --help, --version, a completion script
            let text = T.fullMessage(for: error)
            if !text.isEmpty { world.plainConsole.text(text + "\n") }
            return Answered(code: code.rawValue)
        }
        var message = T.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
        while message.hasSuffix(".") { message.removeLast() }
        let name = [parent, T.configuration.commandName].compactMap { $0 }.joined(separator: " ")
        let help = T.self == WakeCommand.self ? "wake --help" : "wake \(name) --help"
        world.plainConsole.error(localized("{problem}; see '{help}'", ParserMessages.translated(message), help))
        return Answered(code: ExitCode.usage)
    }

    /// Starts the command (`CommandWorld.start`), runs its body and gives the code its result
    /// maps to; a failure becomes its one line and its kind's code.
    func execute(quiet: Bool = false, eventStream: Bool = false, daemon: Bool = false,
                 _ body: (Console, SignalChannel) throws(WakeFailure) -> CommandResult) -> Int32 {
        let signals: SignalChannel
        do { signals = try world.start(daemon) } catch {
            world.plainConsole.error(error.message)
            return ExitCode.of(error.kind)
        }
        let console = world.console(quiet, eventStream)
        do { return ExitCode.of(try body(console, signals)) } catch {
            console.error(error.message)
            return ExitCode.of(error.kind)
        }
    }

    /// Parses a subcommand (`args`: the words after its name), then `execute`s its body.
    func run<T: ParsableCommand>(_ type: T.Type, _ args: [String], parent: String? = nil, readsConfig: Bool = false, tolerant: Bool = false,
                                 daemon: Bool = false, quiet: (T) -> Bool = { _ in false }, eventStream: (T) -> Bool = { _ in false },
                                 _ body: (Invocation<T>, Console, SignalChannel) throws(WakeFailure) -> CommandResult) -> Int32 {
        let c: Invocation<T>
        do { c = try parse(T.self, args, readsConfig: readsConfig, tolerant: tolerant, parent: parent) } catch { return error.code }
        return execute(quiet: quiet(c.command), eventStream: eventStream(c.command), daemon: daemon) {
            console, signals throws(WakeFailure) in try body(c, console, signals)
        }
    }

    /// Prints `T`'s help as --help does, and gives its code (0).
    func help<T: ParsableCommand>(_ type: T.Type) -> Int32 {
        do { _ = try parse(type, ["--help"]) } catch { return error.code }
        return ExitCode.usage
    }
}
