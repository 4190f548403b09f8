import WakeCore
import WakeRuntime

/// Exit codes, as the README's table and docs/guide.md ("Exit codes") document them (sysexits.h
/// where one fits): the one place the library's meanings become numbers.
enum ExitCode {
    static let ok: Int32 = 0
    static let noSound: Int32 = 1
    /// `wake stop/snooze/cancel`: no alarm took the command (as pkill's 1).
    static let nothingMatched: Int32 = 1
    static let missed: Int32 = 3
    static let timedOut: Int32 = 4
    static let usage: Int32 = 64  // EX_USAGE
    static let noInput: Int32 = 66  // EX_NOINPUT: the sound file is unusable
    static let unavailable: Int32 = 69  // EX_UNAVAILABLE: device or service
    static let osError: Int32 = 71  // EX_OSERR: the system refused a resource the alarm needs
    static let cantCreate: Int32 = 73  // EX_CANTCREAT: the event log cannot be written
    static let config: Int32 = 78  // EX_CONFIG: the config file, the alarms file or a stored alarm is broken
    static let noPermission: Int32 = 77  // EX_NOPERM

    static func of(_ kind: WakeFailure.Kind) -> Int32 {
        switch kind {
        case .usage: return usage
        case .soundUnusable: return noInput
        case .unavailable: return unavailable
        case .resource: return osError
        case .cantCreate: return cantCreate
        case .permission: return noPermission
        case .config: return config
        case .nothingMatched: return nothingMatched
        case .noSound: return noSound
        case .interrupted(let signal): return 128 + signal
        }
    }

    /// A cancel by signal n exits 128 + n, as a death by that signal would read in a shell;
    /// `q` counts as Ctrl-C.
    static func of(_ outcome: Outcome) -> Int32 {
        switch outcome {
        case .stopped: return ok
        case .upAlready: return ok  // up already: the sleeper ended it, as a stop
        case .failed: return noSound
        case .missed: return missed
        case .timedOut: return timedOut
        case .cancelled(.signal(_, let number)): return 128 + number
        case .cancelled: return 130
        }
    }

    static func of(_ result: CommandResult) -> Int32 {
        switch result {
        case .done: return ok
        case .rang(let outcome): return of(outcome)
        case .endedBySignal(let signal): return 128 + signal
        case .doneWithProblems: return config
        case .failed(let kind): return of(kind)
        case .diagnosed(let worst): return Int32(worst.rawValue)  // 0 all passed, 1 a warning, 2 a failure
        }
    }
}
