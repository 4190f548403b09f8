import WakeCore
import WakeSystem

extension Doctor {
    static let unit = "wake.service"

    /// The daemon that rings the standing alarms: running, installed as the user unit (enabled,
    /// so it starts again at the next login or boot), and whether it outlives the last login.
    static func daemonFindings(alarmCount: Int, running: Bool, environment: DaemonEnvironment.Source) -> [DoctorFinding] {
        var out: [DoctorFinding] = []
        let pid = running ? DaemonLock.runningPID() : nil
        let whose: String
        switch environment {
        case .daemon(let pid): whose = localized("the running daemon's environment (PID {pid})", String(pid))
        case .userManager: whose = localized("the systemd user manager's environment (the unit's)")
        case .shell: whose = localized("this shell's environment (no daemon or user manager to take it from)")
        }
        if running {
            let found = pid.map { localized("a wake daemon is running (PID {pid}); checked from {environment}", String($0), whose) }
                ?? localized("a wake daemon is running; checked from {environment}", whose)
            out.append(DoctorFinding(.daemon, "daemon.running", .pass, found))
        } else if alarmCount == 0 {
            out.append(DoctorFinding(.daemon, "daemon.running", .pass,
                                     localized("no daemon is running, and no standing alarm needs one; checked from {environment}", whose)))
        } else {
            out.append(DoctorFinding(.daemon, "daemon.running", .fail,
                                     alarmCount == 1 ? localized("no wake daemon is running: the 1 standing alarm will not ring")
                                         : localized("no wake daemon is running: the {count} standing alarms will not ring",
                                                     String(alarmCount)),
                                     fix: localized("systemctl --user enable --now wake (or run 'wake daemon')")))
        }
        out.append(unitFinding(running: running, needed: alarmCount > 0))
        if let linger = lingerFinding(needed: alarmCount > 0) { out.append(linger) }
        return out
    }

    /// `systemctl --user show wake.service`: installed, enabled, active.
    static func unitFinding(running: Bool, needed: Bool) -> DoctorFinding {
        let asked = ChildProcess.run(["systemctl", "--user", "show", unit, "--property=LoadState,UnitFileState,ActiveState,SubState,FragmentPath"])
        guard case .success(let out) = asked, out.status == 0 else {
            let why: String
            switch asked {
            case .failure(let e): why = localized("systemctl cannot be run ({reason})", "\(e)")
            case .success: why = localized("systemd's user manager does not answer (no 'systemd --user' for this login)")
            }
            return DoctorFinding(.daemon, "daemon.unit", running || !needed ? .warn : .fail,
                                 running ? localized("""
                                     {problem}: the daemon is not kept running by the user unit; the one running now stops at logout \
                                     and is not restarted after a crash
                                     """, why)
                                     : localized("{problem}: the daemon is not kept running by the user unit", why),
                                 fix: localized("""
                                     log in with a systemd user session, then 'systemctl --user enable --now wake'; elsewhere start \
                                     'wake daemon' from your session's autostart
                                     """))
        }
        let p = DaemonEnvironment.parse(out.stdout.split(separator: "\n").map(String.init))
        let load = p["LoadState"] ?? "", file = p["UnitFileState"] ?? "", active = p["ActiveState"] ?? "", sub = p["SubState"] ?? ""
        let path = p["FragmentPath"].flatMap { $0.isEmpty ? nil : $0 }
        guard load == "loaded" else {
            return DoctorFinding(.daemon, "daemon.unit", running || !needed ? .warn : .fail,
                                 running ? localized("""
                                     the user unit {unit} is not installed (LoadState={state}): the daemon running now is not restarted \
                                     after a crash, nor at the next login
                                     """, unit, load.printable)
                                     : localized("the user unit {unit} is not installed (LoadState={state})", unit, load.printable),
                                 fix: localized("""
                                     install wake's package (it ships the unit), or copy Resources/wake.service to \
                                     ~/.config/systemd/user/; then 'systemctl --user enable --now wake'
                                     """))
        }
        let at = path.map { " (\($0.printable))" } ?? ""
        let enabled = file == "enabled" || file == "enabled-runtime" || file == "static" || file == "linked"
        switch (enabled, active) {
        case (true, "active"):
            return DoctorFinding(.daemon, "daemon.unit", .pass, localized("{unit} is enabled and active ({state})", unit + at,
                                                                          sub.printable))
        case (false, "active"):
            return DoctorFinding(.daemon, "daemon.unit", .warn,
                                 localized("{unit} is active but not enabled ({file}): it will not start at the next login or boot",
                                           unit + at, file.printable),
                                 fix: "systemctl --user enable wake")
        case (_, "activating"), (_, "reloading"):
            return DoctorFinding(.daemon, "daemon.unit", .pass, localized("{unit} is starting ({state})", unit + at, active.printable))
        default:
            let status: DoctorFinding.Status = running ? .warn : (needed ? .fail : .warn)
            let found = switch (enabled, running) {
            case (true, false): localized("{unit} is enabled but {state} ({substate})", unit + at, active.printable, sub.printable)
            case (false, false): localized("{unit} is not enabled but {state} ({substate})", unit + at, active.printable, sub.printable)
            case (true, true):
                localized("{unit} is enabled but {state} ({substate}); a daemon started otherwise rings meanwhile", unit + at,
                          active.printable, sub.printable)
            case (false, true):
                localized("{unit} is not enabled but {state} ({substate}); a daemon started otherwise rings meanwhile", unit + at,
                          active.printable, sub.printable)
            }
            return DoctorFinding(.daemon, "daemon.unit", status, found,
                                 fix: localized("{command}; 'journalctl --user -u wake' says why it stopped",
                                                "systemctl --user \(enabled ? "restart" : "enable --now") wake"))
        }
    }

    /// Linger: without it the user manager, and the daemon with it, ends at the last logout.
    /// A user at a seat now is logged in at night too (a locked screen is a session); one
    /// reached only over ssh is not.
    static func lingerFinding(needed: Bool) -> DoctorFinding? {
        guard let lingers = LoginState.lingers() else { return nil }
        if lingers {
            return DoctorFinding(.daemon, "daemon.linger", .pass,
                                 localized("linger is on: the daemon runs whether or not you are logged in"))
        }
        let seat = LoginState.hasSeatSession()
        if seat == true || !needed {
            return DoctorFinding(.daemon, "daemon.linger", .pass,
                                 localized("linger is off: the daemon runs while you are logged in")
                                     + (seat == true ? localized("""
                                          (you have a session at this machine's seat now; logging out stops the alarms)
                                         """) : ""))
        }
        return DoctorFinding(.daemon, "daemon.linger", .warn,
                             localized("""
                                 linger is off and you have no session at this machine's seat: the daemon, and the alarms, stop when \
                                 your last login ends
                                 """),
                             fix: "loginctl enable-linger \(LoginState.userName()?.printable ?? "$USER")")
    }
}
