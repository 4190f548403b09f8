import WakeCore
import WakeSystem

/// What `wake stop`, `snooze` and `cancel` do, and how `wake list` finds the running wakes:
/// ask every registered process of the user at once, print one line per alarm that acted,
/// and say plainly when nothing did.
public enum ControlActions {
    /// The control directory, or nil when it does not exist (no wake of this user runs).
    /// One that is not the user's alone is refused (77): its answers could be anyone's.
    static func directory() throws(ArmError) -> String? {
        do { return try ControlDirectory.prepare(create: false) } catch {
            throw ArmError(message: error.description, status: error.unsafe ? ExitStatus.noPermission : ExitStatus.unavailable)
        }
    }

    /// Asks every running wake; says on stderr which did not answer.
    static func ask(_ request: ControlRequest, console: Console) throws(ArmError) -> [ControlRecord] {
        guard let dir = try directory() else { return [] }
        var records: [ControlRecord] = []
        for reply in ControlClient.ask(request, directory: dir) {
            if let r = reply.records { records += r } else if let problem = reply.problem {
                console.error("warning: wake (pid \(reply.pid)) did not answer: \(problem); if it was stopped (Ctrl-Z), "
                    + "'kill -CONT \(reply.pid)' resumes it")
            }
        }
        return records
    }

    public static func run(_ command: AlarmCommand, id: String?, console: Console) throws(ArmError) -> Int32 {
        if let id, !ControlRequest.isValidID(id) {
            throw ArmError(message: "invalid alarm ID '\(id.printable)'; give a PID or a standing alarm's name, as 'wake list' shows them",
                           status: ExitStatus.usage)
        }
        let records = try ask(.command(command, id: id), console: console)
        let zone = StandingAlarmActions.zone(console)
        var acted = false
        var refusals: [String] = []
        for r in records {
            switch r["kind"] {
            case "done":
                acted = true
                console.result(doneLine(r, zone: zone))
            case "refused":
                refusals.append(refusalLine(r))
            default:
                continue
            }
        }
        if acted {
            for line in refusals { console.error(line) }
            return ExitStatus.ok
        }
        if let first = refusals.first {
            for line in refusals.dropFirst() { console.error(line) }
            throw ArmError(message: first, status: ExitStatus.nothingMatched)
        }
        if let id { throw ArmError(message: "no running alarm has the ID '\(id.printable)'; see 'wake list'", status: ExitStatus.nothingMatched) }
        throw ArmError(message: command == .snooze ? "nothing is ringing; see 'wake list'" : "nothing is ringing or snoozed; see 'wake list'",
                       status: ExitStatus.nothingMatched)
    }

    /// `the 07:00 alarm (pid 4242)` or `'work' (06:30)`.
    static func label(_ r: ControlRecord) -> String {
        let time = r["time"]?.printable ?? ""
        if r["standing"] == "1" { return "'\((r["id"] ?? "").printable)'" + (time.isEmpty ? "" : " (\(time))") }
        return (time.isEmpty ? "the alarm" : "the \(time) alarm") + " (pid \((r["pid"] ?? "?").printable))"
    }

    static func doneLine(_ r: ControlRecord, zone: TimeZoneRules) -> String {
        switch r["action"] {
        case "snoozed":
            let until = r.instant("until").map { " until " + Formatting.clockTime($0, zone: zone, alwaysSeconds: true) } ?? ""
            return "snoozed \(label(r))\(until)"
        case "cancelled": return "cancelled \(label(r))"
        case "stopped": return "stopped \(label(r))"
        default: return "\(label(r)): \((r["action"] ?? "").printable)"
        }
    }

    static func refusalLine(_ r: ControlRecord) -> String {
        let id = (r["id"] ?? "").printable
        let standing = r["standing"] == "1"
        switch ControlRouting.Refusal(rawValue: r["reason"] ?? "") {
        case .waiting?:
            return "\(label(r)) is waiting, not ringing; " + (standing ? "to pass over its next occurrence, use 'wake skip \(id)'"
                                                                     : "to end it before it rings, use 'wake cancel \(id)'")
        case .snoozed?: return "\(label(r)) is snoozed already; 'wake stop \(id)' ends it"
        case .standing?: return "\(label(r)) is a standing alarm; skip its next occurrence with 'wake skip \(id)' or remove it with 'wake remove \(id)'"
        case .finished?: return "\(label(r)) has just ended"
        case nil: return "\(label(r)) did not take the command"
        }
    }
}
