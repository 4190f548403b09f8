import WakeCore
import WakeSystem

extension Doctor {
    /// Whether a sleeping machine wakes for the alarms: the RTC with the helper's capability (as
    /// the daemon would arm them), else a logind inhibitor that keeps it from sleeping; and what
    /// a closed lid does to each alarm.
    static func wakingFindings(rows: [StandingAlarmActions.Row], config: ConfigDefaults, zone: TimeZoneRules, now: Instant) -> [DoctorFinding] {
        var out: [DoctorFinding] = []
        // As the daemon decides it with no flag: the RTC wherever it works (a helper that looks
        // right is asked for a timer, as at arm time).
        let found = WakeSystemSupport.probe(verify: true)
        let plan = try? WakeSystemPlan.plan(.auto, WakeSystemSupport.decide(.auto, found))
        let wakes = plan?.wakesSystem ?? false
        if let plan, wakes {
            out.append(DoctorFinding(.waking, "waking.rtc", .pass, localized("a suspended machine wakes for each alarm: {how}",
                                                                             plan.dryRunText)))
        } else {
            // The obstacle's own words carry its remedy after the first "; ".
            let said = (found.obstacle ?? .noHelper(searched: [])).description
            let parts = said.split(separator: ";", maxSplits: 1).map { $0.trimmingPrefix(" ") }
            let remedy = parts.count > 1
                ? localized("{remedy} (meanwhile the daemon's inhibitor keeps the machine from sleeping before each alarm)",
                            String(parts[1]))
                : localized("the daemon's inhibitor keeps the machine from sleeping before each alarm; do not suspend it by hand")
            out.append(DoctorFinding(.waking, "waking.rtc", .warn,
                                     localized("a suspended machine does not wake for the alarms: {reason}",
                                               parts.first.map(String.init) ?? said),
                                     fix: remedy))
        }
        out.append(inhibitorFinding(needed: !wakes, mode: config.layered(.inhibit, over: AlarmOption.inhibit.defaultText ?? "auto", given: [])))
        if !rows.isEmpty { out.append(lidFinding(rows: rows, wakes: wakes, zone: zone, now: now)) }
        if let light = lightFinding(rows: rows, config: config) { out.append(light) }
        return out
    }

    /// `--light`: whether the screen of the alarms that light it can be set (the device and the
    /// seat's session, as the ring will find them); none when no alarm lights it.
    static func lightFinding(rows: [StandingAlarmActions.Row], config: ConfigDefaults) -> DoctorFinding? {
        let lit = rows.filter { row in
            (row.settings ?? (try? RingSettings.tolerating(stored: row.alarm.options, defaults: config))?.settings)?.light != nil
        }.map(\.alarm.name)
        guard !lit.isEmpty else { return nil }
        switch LightCheck.path() {
        case .lit(let device, _):
            return DoctorFinding(.waking, "waking.light", alarms: lit, .pass,
                                 localized("the screen lights for the alarm: the backlight '{device}' (0 to {highest}) through logind",
                                           device.name.printable, String(device.highest)))
        case .dark(let why):
            return DoctorFinding(.waking, "waking.light", alarms: lit, .warn, localized("--light does nothing here: {reason}", why),
                                 fix: localized("""
                                     light the room another way (a hook can switch a smart bulb), or leave --light out; the \
                                     alarm rings either way
                                     """))
        }
    }

    /// A sleep inhibitor taken and given back at once ("delay": it holds nothing up).
    static func inhibitorFinding(needed: Bool, mode: String) -> DoctorFinding {
        if mode == "off" {
            return DoctorFinding(.waking, "waking.inhibitor", needed ? .warn : .pass,
                                 needed ? localized("""
                                     inhibit = "off": the daemon never keeps the machine awake, and the RTC cannot wake it: a suspend \
                                     delays the alarms
                                     """) : localized("inhibit = \"off\": the daemon never keeps the machine awake"),
                                 fix: needed ? localized("set inhibit = \"auto\" in config.toml, or give the helper its capability") : nil)
        }
        do {
            let inhibitor = try SleepInhibitor()
            try inhibitor.inhibit(what: "sleep", who: "wake doctor", why: "checking that the alarms can keep the machine awake", mode: "delay")
            inhibitor.release()
            return DoctorFinding(.waking, "waking.inhibitor", .pass,
                                 needed ? localized("""
                                     logind grants a sleep inhibitor: the daemon keeps the machine awake in the hours before each alarm
                                     """)
                                        : localized("logind grants a sleep inhibitor (not needed while the RTC wakes the machine)"))
        } catch {
            return DoctorFinding(.waking, "waking.inhibitor", needed ? .warn : .pass,
                                 needed ? localized("""
                                     no sleep inhibitor can be had ({reason}): nothing keeps the machine from sleeping through an alarm
                                     """, error.description.printable)
                                        : localized("no sleep inhibitor can be had ({reason}); not needed while the RTC wakes the machine",
                                                    error.description.printable),
                                 fix: needed ? localized("run systemd-logind (or elogind), or keep the machine from suspending") : nil)
        }
    }

    /// logind's HandleLidSwitch, and what it means for the alarms: with the RTC they ring on time
    /// (the machine wakes for them); without it a closed lid suspends the machine whatever wake
    /// holds (logind's LidSwitchIgnoreInhibited= is on by default) and they wait until it wakes.
    static func lidFinding(rows: [StandingAlarmActions.Row], wakes: Bool, zone: TimeZoneRules, now: Instant) -> DoctorFinding {
        let names = rows.map(\.alarm.name)
        let action: String?
        if case .success(.string(let a)) = BusProperty.read(.system, service: "org.freedesktop.login1", path: "/org/freedesktop/login1",
                                                             interface: "org.freedesktop.login1.Manager", property: "HandleLidSwitch", type: "s",
                                                             timeout: .milliseconds(800)) {
            action = a
        } else {
            action = nil
        }
        let said = action.map { "HandleLidSwitch=\($0.printable)" } ?? localized("logind does not say")
        let known = action != nil
        switch action {
        case "ignore"?, "lock"?:
            return DoctorFinding(.waking, "waking.lid", alarms: names, .pass,
                                 localized("a closed lid does not suspend the machine ({setting}): each alarm rings on time", said))
        case _ where wakes:
            return DoctorFinding(.waking, "waking.lid", alarms: names, .pass,
                                 known ? localized("a closed lid suspends the machine ({setting}); the RTC wakes it for each alarm", said)
                                     : localized("a closed lid may suspend the machine ({setting}); the RTC wakes it for each alarm", said))
        default:
            let found: String
            if let first = rows.compactMap(\.next).map(\.instant).min() {
                let time = Formatting.clockTime(first, zone: zone), day = Formatting.dayPhrase(first, now: now, zone: zone)
                found = known ? localized("""
                        a closed lid suspends the machine ({setting}), and nothing wakes it: each alarm (the next at {time} {day}) rings \
                        only once it is woken
                        """, said, time, day)
                    : localized("""
                        a closed lid may suspend the machine ({setting}), and nothing wakes it: each alarm (the next at {time} {day}) \
                        rings only once it is woken
                        """, said, time, day)
            } else {
                found = known ? localized("""
                        a closed lid suspends the machine ({setting}), and nothing wakes it: each alarm rings only once it is woken
                        """, said)
                    : localized("""
                        a closed lid may suspend the machine ({setting}), and nothing wakes it: each alarm rings only once it is woken
                        """, said)
            }
            return DoctorFinding(.waking, "waking.lid", alarms: names, .warn, found,
                                 fix: localized("""
                                     leave the lid open, set HandleLidSwitch=ignore in /etc/systemd/logind.conf, or give the helper its \
                                     capability so the RTC wakes it
                                     """))
        }
    }
}
