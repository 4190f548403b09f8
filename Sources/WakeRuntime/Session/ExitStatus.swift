import WakeCore
import WakeSystem

/// Exit codes, as the README's table and docs/guide.md ("Exit codes") document them (sysexits.h
/// where one fits). The core reports outcomes; this is where the runtime turns them into codes.
public enum ExitStatus {
    public static let ok: Int32 = 0
    public static let noSound: Int32 = 1
    /// `wake stop/snooze/cancel`: no alarm took the command (as pkill's 1).
    public static let nothingMatched: Int32 = 1
    public static let missed: Int32 = 3
    public static let timedOut: Int32 = 4
    public static let usage: Int32 = 64  // EX_USAGE
    public static let noInput: Int32 = 66  // EX_NOINPUT: the sound file is unusable
    public static let unavailable: Int32 = 69  // EX_UNAVAILABLE: device or service
    public static let osError: Int32 = 71  // EX_OSERR: the system refused a resource the alarm needs
    public static let cantCreate: Int32 = 73  // EX_CANTCREAT: the event log cannot be written
    public static let config: Int32 = 78  // EX_CONFIG: the config file, the alarms file or a stored alarm is broken
    public static let noPermission: Int32 = 77  // EX_NOPERM

    /// A cancel by signal n exits 128 + n, as a death by that signal would read in a shell;
    /// `q` counts as Ctrl-C.
    public static func code(for outcome: Outcome) -> Int32 {
        switch outcome {
        case .stopped: return ok
        case .failed: return noSound
        case .missed: return missed
        case .timedOut: return timedOut
        case .cancelled(.signal(_, let number)): return 128 + number
        case .cancelled: return 130
        }
    }
}

/// An error that ends wake before the alarm is armed: one line, and its exit code.
public struct ArmError: Error {
    public var message: String
    public var status: Int32
    /// Set when a signal ended the checks: the alarm counts as cancelled by it.
    public var signal: Int32? = nil
    /// What the interrupted check was doing ("checking the mixer"), to say it again for a command
    /// whose outcome has another name (`asAdding`).
    private var interruptedDuring: String? = nil

    /// A signal ended the arm-time checks `during` (a phrase: "checking the mixer"): 128 + n.
    public static func interrupted(by signal: Int32, during: String, nothing: String = "set") -> ArmError {
        var error = ArmError(message: "interrupted by \(SignalChannel.name(of: signal)) while \(during); nothing was \(nothing)",
                             status: 128 + signal, signal: signal)
        error.interruptedDuring = during
        return error
    }

    /// For `wake add`, whose checks are a one-off alarm's: an interruption says nothing was added.
    public var asAdding: ArmError {
        guard let signal, let during = interruptedDuring else { return self }
        return .interrupted(by: signal, during: during, nothing: "added")
    }

    public init(message: String, status: Int32, signal: Int32? = nil) {
        self.message = message
        self.status = status
        self.signal = signal
    }
}
