import WakeCore
import WakeSystem

/// What an alarm's deadline is armed on (issue 23): the RTC-backed alarm clock wherever it
/// works, so a suspended machine (a closed lid) wakes for the alarm, with no flag; the ordinary
/// clock otherwise, said in one line with what to do. Decided before anything is created.
public struct WakeSystemPlan {
    public var mode: WakeSystemSupport.Mode
    /// Where the alarm timers come from; nil for the ordinary clocks.
    public var alarmTimers: WakeSystemSupport.TimerSource?
    /// The RTCs that will wake the machine (`rtc0`); empty on the ordinary clock.
    public var clocks: [String]
    /// Why the alarm cannot wake a suspended machine ("a closed lid or a suspend will delay
    /// this alarm: ..."), nil when it can or when the user turned it off.
    public var warning: String?

    public var wakesSystem: Bool { alarmTimers != nil }

    /// `--wake-system` (require) and `--no-wake-system` (off); given together is a usage error.
    public static func mode(wakeSystem: Bool, noWakeSystem: Bool) throws(WakeFailure) -> WakeSystemSupport.Mode {
        if wakeSystem && noWakeSystem {
            throw WakeFailure(.usage, "--wake-system and --no-wake-system contradict each other; give one of them, or neither "
                + "(the RTC wakes the machine wherever it can)")
        }
        return wakeSystem ? .require : (noWakeSystem ? .off : .auto)
    }

    /// The decision for `mode`, from what the machine offers. Unless waking is off, a helper
    /// that looks right is asked for a timer now (about a millisecond), so one that would
    /// refuse shows here as the ordinary clock and its line, never as a failure at arm time.
    /// `--wake-system` that cannot be honoured: 77 without the capability, 69 without an RTC.
    public static func decide(_ mode: WakeSystemSupport.Mode) throws(WakeFailure) -> WakeSystemPlan {
        let found: WakeSystemSupport.Assessment = mode == .off
            ? WakeSystemSupport.Assessment(source: nil, clocks: [], obstacle: nil)
            : WakeSystemSupport.probe(verify: true)
        return try plan(mode, WakeSystemSupport.decide(mode, found))
    }

    /// Pure: the plan for a decision.
    public static func plan(_ mode: WakeSystemSupport.Mode, _ decision: WakeSystemSupport.Decision) throws(WakeFailure) -> WakeSystemPlan {
        switch decision {
        case .alarmClock(let source, let clocks):
            return WakeSystemPlan(mode: mode, alarmTimers: source, clocks: clocks, warning: nil)
        case .ordinaryClock(let warning):
            return WakeSystemPlan(mode: mode, alarmTimers: nil, clocks: [], warning: warning)
        case .refused(let obstacle):
            throw WakeFailure(obstacle.isMissingCapability ? .permission : .unavailable, "--wake-system: " + obstacle.description)
        }
    }

    /// What the dry run says on its `wake system:` line.
    public var dryRunText: String {
        if wakesSystem {
            let by = clocks.joined(separator: ", ")
            let how: String
            switch alarmTimers {
            case .helper(let helper)?: how = localized("yes, by {clocks} (alarm timer from {helper})", by, helper.path.printable)
            default: how = localized("yes, by {clocks} (this process holds CAP_WAKE_ALARM)", by)
            }
            return how + (mode == .require ? " (--wake-system)" : "")
        }
        if let warning { return localized("no: {reason}", warning) }
        return localized("off (--no-wake-system): a closed lid or a suspend will delay this alarm")
    }

    /// Whether a process started now with no flag would arm on the RTC, and if not, why
    /// (`wake add`, and `wake list` for standing alarms no daemon has armed). No timer is asked
    /// for: this only looks.
    public static func lookNow() -> (wakesSystem: Bool, obstacle: WakeSystemSupport.Obstacle?) {
        let found = WakeSystemSupport.probe(verify: false)
        if case .alarmClock = WakeSystemSupport.decide(.auto, found) { return (true, nil) }
        return (false, found.obstacle)
    }
}
