import Glibc
import WakeCore

/// Whether this process can arm its deadlines on an alarm clock, which wakes a suspended machine
/// through its real-time clock: directly (it has CAP_WAKE_ALARM) or through `wake-alarm-timer`
/// (a file capability), and an RTC to do the waking. `assess` and `decide` are pure; `probe`
/// gathers the facts.
public enum WakeSystemSupport {
    /// How an alarm timer is obtained.
    public enum TimerSource: Equatable, Sendable {
        /// This process has CAP_WAKE_ALARM and calls `timerfd_create` itself.
        case direct
        /// `wake-alarm-timer` makes it and passes it over a socket.
        case helper(AlarmTimerHelper)

        /// A timer on `clock`'s alarm clock (`CLOCK_REALTIME_ALARM` or `CLOCK_BOOTTIME_ALARM`).
        public func timer(_ clock: DeadlineClock) throws(AlarmTimerError) -> WakeTimer {
            switch self {
            case .direct:
                do { return try WakeTimer(clock: clock, wakeSystem: true) } catch { throw .direct(error) }
            case .helper(let helper):
                return try helper.timer(clock)
            }
        }
    }

    /// Why an alarm cannot wake the machine. `description` is one line with what to do.
    public enum Obstacle: Equatable, Sendable, CustomStringConvertible {
        case noHelper(searched: [String])
        case helperLacksCapability(path: String)
        case helperOnNosuidMount(path: String)
        case noNewPrivileges(helper: String)
        case notInBoundingSet
        /// The helper looked right but gave no timer (`reason` is `AlarmTimerError`'s line).
        case helperFailed(path: String, reason: String)
        case noRealTimeClock

        /// True for every obstacle but the missing RTC: wake maps these to 77 (EX_NOPERM) and
        /// that one to 69 (EX_UNAVAILABLE) under `--wake-system`.
        public var isMissingCapability: Bool { self != .noRealTimeClock }

        public var description: String {
            switch self {
            case .noHelper(let searched):
                "\(AlarmTimerHelper.fileName), the helper that holds CAP_WAKE_ALARM for wake, is not installed (looked for "
                    + "\(searched.first ?? AlarmTimerHelper.fileName) and in libexec/wake); install wake with 'sudo make install' or its package, "
                    + "or put the helper there and run 'sudo setcap cap_wake_alarm+ep' on it"
            case .helperLacksCapability(let path):
                "\(path) lacks the CAP_WAKE_ALARM capability; grant it with 'sudo setcap cap_wake_alarm+ep \(path)'"
            case .helperOnNosuidMount(let path):
                "\(path) is on a nosuid mount, where file capabilities do not apply; install wake on another file system"
            case .noNewPrivileges(let helper):
                "this process runs with no_new_privs (NoNewPrivileges= or a sandboxing option of its unit), which keeps \(helper) "
                    + "from its capability; remove that option"
            case .notInBoundingSet:
                "CAP_WAKE_ALARM is outside this process's capability bounding set (CapabilityBoundingSet= of its unit); add it back"
            case .helperFailed(_, let reason):
                reason
            case .noRealTimeClock:
                "this machine has no real-time clock (nothing under /sys/class/rtc or /dev/rtc*), so no timer can wake it from suspend"
            }
        }
    }

    /// What `probe` found.
    public struct Assessment: Equatable, Sendable {
        /// How to get an alarm timer; nil when there is no way.
        public var source: TimerSource?
        /// The RTCs (`rtc0`); empty when the machine has none.
        public var clocks: [String]
        /// The first reason the machine cannot be woken (the capability's before the RTC's); nil when it can.
        public var obstacle: Obstacle?
        public var canWakeSystem: Bool { obstacle == nil }

        public init(source: TimerSource?, clocks: [String], obstacle: Obstacle?) {
            self.source = source
            self.clocks = clocks
            self.obstacle = obstacle
        }
    }

    /// `--wake-system` (require), `--no-wake-system` (off), neither (auto).
    public enum Mode: String, Sendable, CaseIterable { case auto, require, off }

    /// What to arm the deadline on.
    public enum Decision: Equatable, Sendable {
        /// The alarm clock, from `source`; `clocks` are the RTCs that will wake the machine.
        case alarmClock(TimerSource, clocks: [String])
        /// The ordinary clock. `warning` is the line to show (a suspend will delay the alarm), nil
        /// when the user turned waking off.
        case ordinaryClock(warning: String?)
        /// `--wake-system` and the machine cannot be woken: exit 77 when `isMissingCapability`, else 69.
        case refused(Obstacle)
    }

    // MARK: - Pure

    /// The decision for `mode`, from what `probe` found.
    public static func decide(_ mode: Mode, _ assessment: Assessment) -> Decision {
        switch (mode, assessment.source, assessment.obstacle) {
        case (.off, _, _): .ordinaryClock(warning: nil)
        case (_, let source?, nil): .alarmClock(source, clocks: assessment.clocks)
        case (.require, _, let obstacle): .refused(obstacle ?? .noHelper(searched: []))
        case (.auto, _, let obstacle): .ordinaryClock(warning: warning(obstacle ?? .noHelper(searched: [])))
        }
    }

    /// The one line wake shows where an alarm cannot wake a suspended machine.
    public static func warning(_ obstacle: Obstacle) -> String {
        "a closed lid or a suspend will delay this alarm: " + obstacle.description
    }

    /// Puts the facts together. `processCapabilities` is the effective set (CapEff); `helper` is
    /// what `AlarmTimerHelper.locate` found (with the obstacle its `obstacle()` reported), nil
    /// when nothing was found among `searched`.
    public static func assess(processCapabilities: UInt64, helper: AlarmTimerHelper?, helperObstacle: Obstacle?,
                              searched: [String], clocks: [String]) -> Assessment {
        let source: TimerSource?
        let capabilityObstacle: Obstacle?
        if processCapabilities & (1 << UInt64(WakeAlarmCapability.capWakeAlarm)) != 0 {
            (source, capabilityObstacle) = (.direct, nil)
        } else if let helper {
            (source, capabilityObstacle) = helperObstacle == nil ? (.helper(helper), nil) : (nil, helperObstacle)
        } else {
            (source, capabilityObstacle) = (nil, .noHelper(searched: searched))
        }
        return Assessment(source: source, clocks: clocks,
                          obstacle: capabilityObstacle ?? (clocks.isEmpty ? .noRealTimeClock : nil))
    }

    /// What keeps a helper from its capability, from its `security.capability` attribute (nil
    /// when it has none), whether its mount is nosuid, and this process's /proc/self/status.
    public static func helperObstacle(path: String, capabilityAttribute: [UInt8]?, onNosuidMount: Bool,
                                      processStatus: String) -> Obstacle? {
        guard let attribute = capabilityAttribute, fileGrantsWakeAlarm(attribute) else { return .helperLacksCapability(path: path) }
        if onNosuidMount { return .helperOnNosuidMount(path: path) }
        if statusField("NoNewPrivs", in: processStatus) == "1" { return .noNewPrivileges(helper: path) }
        if let bounding = statusField("CapBnd", in: processStatus).flatMap({ UInt64($0, radix: 16) }),
           bounding & (1 << UInt64(WakeAlarmCapability.capWakeAlarm)) == 0 {
            return .notInBoundingSet
        }
        return nil
    }

    /// True when a `security.capability` attribute (struct vfs_cap_data, little-endian) puts
    /// CAP_WAKE_ALARM in the permitted set with the effective flag (`cap_wake_alarm+ep`).
    /// Revision 2, or 3 with root id 0 (a namespaced capability does not apply here).
    public static func fileGrantsWakeAlarm(_ attribute: [UInt8]) -> Bool {
        func word(_ i: Int) -> UInt32? {
            guard attribute.count >= (i + 1) * 4 else { return nil }
            return (0..<4).reduce(UInt32(0)) { $0 | UInt32(attribute[i * 4 + $1]) << (8 * UInt32($1)) }
        }
        guard let magic = word(0) else { return false }
        let revision = magic & 0xFF00_0000
        guard magic & 0x1 != 0 else { return false }  // VFS_CAP_FLAGS_EFFECTIVE
        switch revision {
        case 0x0200_0000: guard attribute.count == 20 else { return false }
        case 0x0300_0000: guard attribute.count == 24, word(5) == 0 else { return false }
        default: return false  // revision 1 has no word for capabilities 32..63
        }
        guard let permittedHigh = word(3) else { return false }
        return permittedHigh & (1 << UInt32(WakeAlarmCapability.capWakeAlarm - 32)) != 0
    }

    /// The value of a /proc status file's `Name:<tab>value` line, nil when it has none. Read as
    /// UTF-8 bytes (the file is ASCII), and only the line asked for is made a String: splitting
    /// by Character, then building every line's pair, each cost a tenth of `wake list`'s time
    /// (it asks whether the alarms can wake the machine).
    static func statusField(_ name: String, in status: String) -> String? {
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        for line in status.utf8.split(separator: UInt8(ascii: "\n")) {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), line[..<colon].elementsEqual(name.utf8) else { continue }
            var value = line[line.index(after: colon)...].drop(while: blank)
            while let last = value.last, blank(last) { value = value.dropLast() }
            return String(decoding: value, as: UTF8.self)
        }
        return nil
    }

    // MARK: - The facts

    /// Looks: this process's capabilities, the helper (located, its file capability, its mount,
    /// no_new_privs, the bounding set), the RTCs. With `verify`, a helper that looks right is
    /// also asked for a timer (about a millisecond), so a refusal shows here and not at arm time.
    public static func probe(verify: Bool = false) -> Assessment {
        let searched = AlarmTimerHelper.runningExecutable().map(AlarmTimerHelper.candidates) ?? []
        let helper = AlarmTimerHelper.locate()
        // One read of /proc/self/status for the helper's obstacles and this process's capabilities.
        let status = WakeAlarmCapability.processStatus()
        let capabilities = WakeAlarmCapability.effectiveCapabilities(status: status)
        var helperObstacle = helper?.obstacle(processStatus: status)
        if verify, let helper, helperObstacle == nil, !WakeAlarmCapability.holdsWakeAlarm(capabilities) {
            do { _ = try helper.timer(.wall) } catch {
                helperObstacle = error.isPermissionDenied ? .helperLacksCapability(path: helper.path)
                    : .helperFailed(path: helper.path, reason: error.description)
            }
        }
        return assess(processCapabilities: capabilities, helper: helper,
                      helperObstacle: helperObstacle, searched: searched, clocks: WakeAlarmCapability.realTimeClocks())
    }
}
