import WakeCore
import WakeSystem

/// What `wake stop`, `snooze` and `cancel` do, and how `wake list` finds the running wakes:
/// ask every registered process of the user at once, print one line per alarm that acted,
/// and say plainly when nothing did.
public enum ControlActions {
    /// The control directory, or nil when it does not exist (no wake of this user runs).
    /// One that is not the user's alone is refused (77): its answers could be anyone's.
    static func directory() throws(WakeFailure) -> String? {
        do { return try ControlDirectory.prepare(create: false) } catch {
            throw WakeFailure(error.unsafe ? .permission : .unavailable, error.description)
        }
    }

    /// Asks every wake registered in `dir` (none when nil); says on stderr which did not answer.
    static func ask(_ request: ControlRequest, in dir: String?, console: Console) throws(WakeFailure) -> [ControlRecord] {
        guard let dir else { return [] }
        var records: [ControlRecord] = []
        for reply in ControlClient.ask(request, directory: dir) {
            if let r = reply.records { records += r } else if let problem = reply.problem {
                console.error("warning: wake (pid \(reply.pid)) did not answer: \(problem); if it was stopped (Ctrl-Z), "
                    + "'kill -CONT \(reply.pid)' resumes it")
            }
        }
        return records
    }

    public static func run(_ command: AlarmCommand, id: String?, console: Console) throws(WakeFailure) -> CommandResult {
        try run(command, id: id, console: console, directory: { () throws(WakeFailure) in try directory() }, zone: nil)
    }

    /// `run`, for a snooze of `length`, of the wakes registered in `directory` (found after the
    /// ID is checked), its times said in `zone` (the machine's when nil) as seen at `now` (the
    /// clock's when nil).
    public static func run(_ command: AlarmCommand, id: String?, length: SnoozeLength = .standard, console: Console,
                           directory: () throws(WakeFailure) -> String?, zone: TimeZoneRules?,
                           now: Instant? = nil) throws(WakeFailure) -> CommandResult {
        if let id, !ControlRequest.isValidID(id) {
            throw WakeFailure(.usage, "invalid alarm ID '\(id.printable)'; give a PID or a standing alarm's name, as 'wake list' shows them")
        }
        let records = try ask(.command(command, id: id, length: length), in: try directory(), console: console)
        let zone = zone ?? console.localZone()
        var acted = false
        var refusals: [String] = []
        for r in records {
            switch r["kind"] {
            case "done":
                acted = true
                console.result(doneLine(r, zone: zone, now: now ?? SystemClock.realtime))
            case "refused":
                refusals.append(refusalLine(r))
            default:
                continue
            }
        }
        if acted {
            for line in refusals { console.error(line) }
            return .done
        }
        if let first = refusals.first {
            for line in refusals.dropFirst() { console.error(line) }
            throw WakeFailure(.nothingMatched, first)
        }
        if let id { throw WakeFailure(.nothingMatched, "no running alarm has the ID '\(id.printable)'; see 'wake list'") }
        throw WakeFailure(.nothingMatched, command == .snooze ? "nothing is ringing; see 'wake list'" : "nothing is ringing or snoozed; see 'wake list'")
    }

    /// `the 07:00 alarm (pid 4242)` or `'work' (06:30)`.
    static func label(_ r: ControlRecord) -> String {
        let time = r["time"]?.printable ?? ""
        if r["standing"] == "1" { return "'\((r["id"] ?? "").printable)'" + (time.isEmpty ? "" : " (\(time))") }
        return (time.isEmpty ? "the alarm" : "the \(time) alarm") + " (pid \((r["pid"] ?? "?").printable))"
    }

    /// The reply for one alarm a command reached; a snooze's end names its day when it is not `now`'s.
    static func doneLine(_ r: ControlRecord, zone: TimeZoneRules, now: Instant) -> String {
        switch r["action"] {
        case "snoozed":
            let until = r.instant("until").map { " until " + Formatting.clockTimeAndDay($0, now: now, zone: zone) }
                ?? ""
            return "snoozed \(label(r))\(until)"
        case "cancelled": return "cancelled \(label(r))"
        case "up-already": return "up already: \(label(r)) is skipped"
        case "pre-stopped":
            // The pre-alarm only: the alarm itself still rings, and who is up says so another way.
            let id = (r["id"] ?? "").printable
            let time = r["time"].map { " for \($0.printable)" } ?? ""
            return "stopped the pre-alarm of \(label(r)); the alarm stays set\(time) (up already? "
                + (r["standing"] == "1" ? "'wake skip \(id)')" : "'wake cancel \(id)')")
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
        case .snoozeLimit?:
            let count = r.snoozes ?? SnoozeCount()
            return "\(label(r)): \(count.refusal); it rings until stopped: 'wake stop \(id)'"
        case nil: return "\(label(r)) did not take the command"
        }
    }
}
