import WakeCore
import WakeEngine
import WakeSystem

/// Why wake could not do what it was asked, by meaning, with the one line to say: the library
/// speaks in kinds, and each front end turns a kind into its own answer (the command line into
/// an exit code, `ExitCode` in Sources/wake; a bus API into an error name).
public struct WakeFailure: Error {
    public enum Kind: Equatable, Sendable {
        /// The command line is wrong: an option, a value, a time.
        case usage
        /// The sound file cannot be used (missing, undecodable, silent at the volume).
        case soundUnusable
        /// A device or a service is not there (logind, a notification server, an RTC, ALSA).
        case unavailable
        /// The system refused a resource (descriptors, threads).
        case resource
        /// A file cannot be written (the event log, the alarms or history file).
        case cantCreate
        /// A permission is missing (CAP_WAKE_ALARM), or a file is another user's.
        case permission
        /// A file's contents are broken (config.toml, alarms.toml, history.toml).
        case config
        /// `wake stop`, `snooze`, `cancel`: no alarm took the command.
        case nothingMatched
        /// No sound could be made (the event loop itself failed).
        case noSound
        /// A signal ended the checks: the alarm counts as cancelled by it.
        case interrupted(signal: Int32)
    }

    public var kind: Kind
    public var message: String
    /// What the interrupted check was doing ("checking the mixer"), to say it again for a command
    /// whose outcome has another name (`asAdding`).
    private var interruptedDuring: String? = nil

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// A file of wake's own that cannot be used: broken contents are a config failure, the rest
    /// (a directory or a file that cannot be made or written) one that cannot be created.
    init(store error: StoreError) {
        self.init(error.isCorrupt ? .config : .cantCreate, error.description)
    }

    /// The signal that ended the checks, if one did.
    public var signal: Int32? { if case .interrupted(let s) = kind { return s } else { return nil } }

    /// A signal ended the arm-time checks `during` (a phrase: "checking the mixer").
    public static func interrupted(by signal: Int32, during: String, nothing: String = "set") -> WakeFailure {
        var error = WakeFailure(.interrupted(signal: signal),
                                "interrupted by \(SignalChannel.name(of: signal)) while \(during); nothing was \(nothing)")
        error.interruptedDuring = during
        return error
    }

    /// For `wake add`, whose checks are a one-off alarm's: an interruption says nothing was added.
    public var asAdding: WakeFailure {
        guard let signal, let during = interruptedDuring else { return self }
        return .interrupted(by: signal, during: during, nothing: "added")
    }
}

/// How a command ended when it did not fail before it began: the front end turns it into its
/// own answer (the command line into an exit code).
public enum CommandResult: Equatable, Sendable {
    /// It did what it was asked.
    case done
    /// A one-off alarm's end: stopped, snoozed out, missed, timed out, cancelled.
    case rang(Outcome)
    /// A signal ended the process (the alarm, if one waited, is cancelled).
    case endedBySignal(Int32)
    /// Printed what it could, but a file it read had problems (`wake list`).
    case doneWithProblems
    /// Ended by a failure it has already said (the event loop failed, an alarm could not be armed).
    case failed(WakeFailure.Kind)
    /// `wake doctor`: the worst of what its checks found.
    case diagnosed(DoctorFinding.Status)
}
