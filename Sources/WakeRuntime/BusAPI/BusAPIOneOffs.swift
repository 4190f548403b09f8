import WakeCore
import WakeSystem

/// Where the daemon's D-Bus API finds the one-off alarms (`wake 07:00` in a terminal). They
/// hold no file the daemon reads: each runs in its own process, serving its control socket in
/// the control directory, and touches that socket when its alarm is armed, rings, snoozes or
/// ends (`ControlEndpoint`). The API watches the directory (inotify, as `wake next --follow`
/// does) and asks the wakes `list` on its worker, so a wake that does not answer costs the
/// worker `OneOffLook.timeout` and never the loop.
public struct BusAPIOneOffPlace: Sendable {
    /// The control directory; nil: no one-offs are shown.
    public var directory: String?
    /// The PID whose socket is left out: the daemon's own, whose alarms are the standing ones.
    public var ownPID: Int32?

    public init(directory: String?, ownPID: Int32?) {
        self.directory = directory
        self.ownPID = ownPID
    }

    /// The user's control directory, the daemon itself left out.
    public static var standard: BusAPIOneOffPlace { BusAPIOneOffPlace(directory: ControlDirectory.path(), ownPID: CurrentProcess.id) }

    /// The socket file name of the process left out (its touches are no one-off's change).
    var ownSocketName: [UInt8]? { ownPID.map { Array("\($0).sock".utf8) } }
}

/// What one look at the running wakes found, on the worker: each one's answer (nil when it did
/// not answer in time), of every wake registered, or of `only` after a command forwarded to it.
struct OneOffLook: Sendable {
    var answers: [(pid: Int32, records: [ControlRecord]?)] = []
    var only: Int32?
    /// Why the directory was not read (it is not the user's alone); nothing changes then.
    var problem: String?

    /// The longest a look waits for the answers: a wake stopped with Ctrl-Z costs this, no more.
    static let timeout: Duration = .seconds(1)

    static func take(_ place: BusAPIOneOffPlace, only: Int32? = nil) -> OneOffLook {
        var look = OneOffLook(only: only)
        guard let dir = place.directory else { return look }
        do {
            guard try ControlDirectory.verify(dir) else { return look }
        } catch {
            look.problem = "\(error.description); until then the D-Bus API shows no one-off alarm"
            return look
        }
        let replies = ControlClient.ask(.list, directory: dir, timeout: timeout) { pid in
            pid != place.ownPID && (only == nil || pid == only)
        }
        look.answers = replies.map { ($0.pid, $0.records) }
        return look
    }

    /// The views after this look, from those shown before: a wake that did not answer keeps
    /// its view (it is there, only busy or stopped), one no longer registered loses it.
    func applied(to shown: [Int32: BusAPI.AlarmView]) -> [Int32: BusAPI.AlarmView] {
        guard problem == nil else { return shown }
        var fresh = only == nil ? [:] : shown.filter { $0.key != only }
        for (pid, records) in answers {
            guard let records else {
                if let old = shown[pid] { fresh[pid] = old }
                continue
            }
            // A one-off process holds one alarm; a standing daemon's records are not one-offs.
            if let view = records.lazy.compactMap({ BusAPI.AlarmView(oneOff: $0, pid: pid) }).first { fresh[pid] = view }
        }
        return fresh
    }
}

extension BusAPI.AlarmView {
    /// A one-off's object, from its wake's `list` record; nil for a record that is no waiting
    /// or ringing one-off (a standing alarm, one that has ended).
    init?(oneOff r: ControlRecord, pid: Int32) {
        guard r["kind"] == "alarm", r["standing"] != "1" else { return nil }
        let state: String
        switch r["state"] {
        // Ringing with no device working (silent) is ringing still: Stop and Snooze act on it.
        case "ringing", "silent": state = "ringing"
        case "waiting", "snoozed", "pre-ringing": state = r["state"] ?? ""
        default: return nil
        }
        // A D-Bus string holds no NUL; a record's value is whatever the process sent.
        func text(_ key: String) -> String { String(String.UnicodeScalarView((r[key] ?? "").unicodeScalars.filter { $0 != "\0" })) }
        self.init(name: BusAPIDescription.oneOffName(pid: pid), time: text("time"), days: "", date: "", message: text("message"),
                  nextRing: BusAPI.microseconds(r.instant("next")), state: state, skipped: [], enabled: true)
        if let round = r["round"].flatMap({ UInt32($0) }), let rounds = r["rounds"].flatMap({ UInt32($0) }) {
            (self.round, self.rounds) = (round, rounds)
        }
        kind = "one-off"
        readOnly = true
        self.pid = UInt32(pid)
    }
}
