import WakeCore
import WakeSystem

/// The bedtime check in a child process of the same program (`wake __bedtime-check`), so that
/// what the checks load stays out of the daemon: a device probe loads ALSA's configuration, the
/// pulse plugin's libraries and a thread's heap, 0.6 MiB that a daemon waiting days for its
/// next ring would keep for good (issue 51). It also keeps a crash in a library the check walks
/// into (a sound server's plugin) out of the process that must ring, and lets a hung check be
/// killed rather than left on a thread.
///
/// The child gets the daemon's whole environment (its sound server, its bus), the alarm as
/// alarms.toml text and the daemon's `--notify` on its standard input, reads config.toml as the
/// daemon does, and prints each finding as a `DoctorFinding.line`, then `end`.
public enum BedtimeCheckProcess {
    /// The hidden first word of the child's command line.
    public static let command = "__bedtime-check"
    static let endLine = "end"
    /// More than any check prints; the rest is not kept.
    static let outputLimit = 1 << 20

    /// The checks of `s`, run in a child; nil when a signal that ends the daemon came meanwhile.
    /// `program`: the binary to run (the daemon's own; the tests give the built one).
    static func findings(_ s: BedtimeCheck.Subject, program: String = CurrentProcess.executable,
                         limit: Duration = BedtimeCheck.giveUpAfter) -> [DoctorFinding]? {
        HookProcess.blockBrokenPipeOnThisThread()
        let input = Array((s.notify.rawValue + "\n" + AlarmBook.serialize([s.alarm])).utf8)
        var child: HookProcess
        do {
            child = try HookProcess.start(path: program, arguments: ["wake", command], environment: CurrentProcess.environment,
                                          directory: nil)
        } catch {
            return [failure(s, "the bedtime check could not start (\(error))")]
        }
        var written = 0, output: [UInt8] = []
        let deadline = SystemClock.monotonic + limit
        reading: while true {
            if SignalChannel.pending(ignoring: AlarmSession.keptRunningBy) != nil || SystemClock.monotonic >= deadline {
                child.killGroup()
                _ = child.reap(waiting: true)
                child.closeInput()
                child.closeOutput()
                if SystemClock.monotonic < deadline { return nil }
                return [failure(s, "the bedtime check did not end in \(Formatting.span(limit)); it was stopped")]
            }
            if child.inputFD >= 0 {
                written = child.write(input, from: written)
                if written >= input.count { child.closeInput() }
            }
            _ = try? Poll.waitReadable(child.outputFD, within: .milliseconds(250))
            while true {
                guard let bytes = child.read() else { break reading }
                if bytes.isEmpty { break }
                if output.count < outputLimit { output += bytes }
            }
        }
        child.closeInput()
        child.closeOutput()
        let ending = child.reap(waiting: true)
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.contains(endLine) else {
            let how = ending.map { if case .signal(let n) = $0 { "was ended by signal \(n)" } else { "ended early" } } ?? "ended early"
            return [failure(s, "the bedtime check \(how)")]
        }
        return lines.compactMap(DoctorFinding.init(line:))
    }

    private static func failure(_ s: BedtimeCheck.Subject, _ what: String) -> DoctorFinding {
        DoctorFinding(.sound, "sound.check", alarms: [s.alarm.name], .warn, what + "; the alarm rings as set",
                      fix: "run 'wake doctor \(s.alarm.name.printable)' to see what it finds")
    }

    /// What the child reads of its standard input, at most.
    public static let inputLimit = 1 << 20

    /// The child's side: the subject from `input` (the notify mode's line, then the alarm), the
    /// checks run in this process as `wake doctor` runs them, each finding a line on `console`.
    public static func serve(input: [UInt8], config: ConfigDefaults, console: Console) -> CommandResult {
        let text = String(decoding: input, as: UTF8.self)
        let parts = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let notify = AlarmOptions.NotifyMode(rawValue: String(parts[0])),
              let alarm = (try? AlarmBook.parse(String(parts[1])))?.first else {
            console.error("\(command) is wake's own: the daemon runs it with an alarm on its standard input")
            return .failed(.usage)
        }
        guard let findings = Doctor.bedtimeFindings(for: alarm, config: config, notify: notify) else {
            return .endedBySignal(SignalChannel.pending() ?? 15)
        }
        console.text(findings.map(\.line).joined(separator: "\n") + (findings.isEmpty ? "" : "\n") + endLine + "\n")
        return .done
    }
}
