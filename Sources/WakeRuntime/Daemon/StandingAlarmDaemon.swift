import Glibc
import WakeCore
import WakeSystem

/// What `wake daemon` was given, as the command line or the config file said it.
public struct DaemonOptions {
    public var events: String?
    public var inhibit: String
    public var notify: String
    public var wakeSystem: Bool
    public var unpaced: Bool

    public init(events: String?, inhibit: String, notify: String, wakeSystem: Bool, unpaced: Bool) {
        self.events = events
        self.inhibit = inhibit
        self.notify = notify
        self.wakeSystem = wakeSystem
        self.unpaced = unpaced
    }
}

/// `wake daemon`: the checks, then the session with its controller.
public enum StandingAlarmDaemon {
    public static func run(_ c: DaemonOptions, config: ConfigDefaults, console: Console, signals: SignalChannel) throws(ArmError) -> Int32 {
        if let e = c.events, e.isEmpty { throw ArmError(message: "--events: empty path; give a file, or '-' for stdout", status: ExitStatus.usage) }
        let inhibit = try AlarmOptions.inhibitMode(c.inhibit)
        let notifyMode = try AlarmOptions.notifyMode(c.notify)
        let (zone, warning) = ZoneLoader.local()
        if let warning { console.error("warning: " + warning) }
        do { try ALSAEnvironment.check() } catch { throw ArmError(message: error.description, status: ExitStatus.unavailable) }
        if c.wakeSystem {
            guard WakeAlarmCapability.hasCapability else {
                throw ArmError(message: "--wake-system needs the CAP_WAKE_ALARM capability, which this process lacks; run the daemon from the "
                    + "systemd user unit on a seat (systemd 254 or newer grants it) or leave the option out", status: ExitStatus.noPermission)
            }
        }
        let store = try StandingAlarmActions.store()
        // Made (0700) and checked before anything is watched.
        let directories: [String]
        do {
            // An update that changes nothing makes both directories (0700) and checks them.
            try store.update { _ in }
            try store.updateHistory { _ in }
            directories = [store.alarmsDirectory, store.historyDirectory]
        } catch {
            throw StandingAlarmActions.storeError(error)
        }
        let lock: DaemonLock
        do { lock = try DaemonLock() } catch {
            let who = DaemonLock.holder().map { " (pid \($0))" } ?? ""
            throw ArmError(message: "another wake daemon is running\(who); stop it first (systemctl --user stop wake)",
                           status: ExitStatus.unavailable)
        }
        let notify = try NotifySetup.prepare(notifyMode, dryRun: false, signals: signals)
        let log: EventLog?
        do { log = try c.events.map { path throws(EventLog.OpenError) in try EventLog(path: path, zone: zone) } } catch {
            throw ArmError(message: error.description, status: ExitStatus.cantCreate)
        }
        let session: AlarmSession
        do {
            session = try AlarmSession(mode: .daemon, zone: zone, console: console, log: log, signals: signals, inhibitor: .off,
                                       wakeSystem: c.wakeSystem, settings: AlarmEngine.Settings())
        } catch {
            throw ArmError(message: "cannot set up the daemon: \(error); the system is short of a resource", status: ExitStatus.osError)
        }
        NotifySetup.start(notify, mode: notifyMode, session: session, console: console)
        let controller = DaemonController(session: session, store: store, zone: zone, console: console, log: log,
                                          inhibit: inhibit, wakeSystem: c.wakeSystem, unpaced: c.unpaced, config: config)
        console.info("wake daemon running (pid \(getpid())); alarms in \(store.alarmsDirectory)")
        do { try controller.start(watching: directories) } catch {
            throw ArmError(message: "cannot watch the alarm files: \(error)", status: ExitStatus.osError)
        }
        let status = session.runDaemon()
        withExtendedLifetime(lock) {}
        return status
    }
}
