import WakeCore

extension HookFolder {
    /// What a `--hook` runs: the program's path, or the one line saying why it is not run.
    public enum Program: Sendable, Equatable {
        case runs(String)
        case refused(String)
    }

    /// The program of `command`, found on `path` (wake's `PATH`) as `execvp` finds it and judged as
    /// a folder's file is (`check(program:)`). The one check for the dispatcher, which runs what it
    /// finds, and for `wake doctor`, which says it: both refuse the same programs for the same reasons.
    public static func program(of command: HookCommand, path: String?) -> Program {
        guard let program = command.words.first else {
            return .refused("hook '\(command.text.printable)' has no command; give the program to run")
        }
        guard let found = resolve(program, path: path) else {
            return .refused("hook '\(command.text.printable)': no program '\(program.printable)' on PATH; give its full path or install it")
        }
        switch check(program: found) {
        case .runs: return .runs(found)
        case .unsafe(let why): return .refused(why)
        case .notExecutable:
            return .refused("hook '\(command.text.printable)': '\(found.printable)' is not executable, so it is not run; chmod u+x it")
        }
    }
}
