import WakeCore
import WakeSystem

extension Doctor {
    /// The zone the daemon rings by, beside the machine's; the clock's synchronisation; and the
    /// next three ring times of each alarm, in local time and UTC.
    static func timeFindings(rows: [StandingAlarmActions.Row], zone: TimeZoneRules, now: Instant) -> [DoctorFinding] {
        var out = [zoneFinding(zone, now: now), syncFinding()]
        for row in rows {
            let times = RingTimes.upcoming(row.alarm, first: row.next?.instant, count: 3, zone: zone, rings: row.rings)
            if times.isEmpty {
                out.append(DoctorFinding(.time, "time.next", alarms: [row.alarm.name], .pass,
                                         localized("rings no more ({state})", row.state.printable)))
                continue
            }
            let list = times.map { RingTimes.phrase($0, now: now, zone: zone) }.joined(separator: "; ")
            let next = row.isWaiting ? localized("next {times}", list)
                : localized("next {times} ({state})", list, row.state.printable)
            out.append(DoctorFinding(.time, "time.next", alarms: [row.alarm.name], .pass, next))
        }
        return out
    }

    /// The zone wake rings by (TZ, else /etc/localtime, read as the daemon reads them) against
    /// the machine's: a TZ left in the unit's environment moves every alarm. `pinned` and
    /// `machine` are TZ's presence and /etc/localtime's zone (a test gives its own).
    static func zoneFinding(_ zone: TimeZoneRules, now: Instant, pinned: Bool = ZoneLoader.zonePinned,
                            machine local: (zone: TimeZoneRules, warning: String?) = ZoneLoader.local(tz: nil, localtime: ZoneLoader.localtimePath,
                                                                                                        zoneDirectory: ZoneLoader.zoneDirectory)) -> DoctorFinding {
        let (machine, warning) = local
        let abbreviation = zone.localType(atUTC: now.seconds).abbreviation
        let offset = Formatting.offset(zone.offset(atUTC: now.seconds))
        if let warning {
            return DoctorFinding(.time, "time.zone", .fail, warning, fix: localized("until then every alarm rings by UTC's clock"))
        }
        // The same rules under another name (TZ=UTC on a machine at Etc/UTC, one file by two names)
        // ring every alarm at the same instants: they agree.
        var renamed = zone
        renamed.name = machine.name
        if pinned, renamed != machine {
            return DoctorFinding(.time, "time.zone", .warn,
                                 localized("""
                                     the daemon rings by TZ='{zone}' ({abbreviation}, UTC{offset}), not the machine's zone {machine} \
                                     ({file})
                                     """, zone.name.printable, abbreviation, offset, machine.name.printable,
                                     ZoneLoader.localtimePath.printable),
                                 fix: localized("""
                                     if that is not meant, remove TZ from the unit's environment \
                                     ('systemctl --user unset-environment TZ', then restart wake)
                                     """))
        }
        return DoctorFinding(.time, "time.zone", .pass,
                             localized("{zone} ({abbreviation}, UTC{offset} now), the machine's zone", zone.name.printable, abbreviation,
                                       offset))
    }

    /// timedated's NTPSynchronized where it answers, else the kernel's own flag (which is what
    /// timedated reads).
    static func syncFinding() -> DoctorFinding {
        let synced: Bool?
        let source: String
        switch BusProperty.read(.system, service: "org.freedesktop.timedate1", path: "/org/freedesktop/timedate1",
                                interface: "org.freedesktop.timedate1", property: "NTPSynchronized", type: "b", timeout: .milliseconds(800)) {
        case .success(.bool(let b)): synced = b; source = "timedated"
        default: synced = ClockSync.kernelSynchronised(); source = localized("the kernel")
        }
        switch synced {
        case true?:
            return DoctorFinding(.time, "time.sync", .pass, localized("the clock is synchronised ({source} says so)", source))
        case false?:
            return DoctorFinding(.time, "time.sync", .warn,
                                 localized("the clock is not synchronised ({source} says so): alarms ring by a clock that may be off",
                                           source),
                                 fix: localized("""
                                     turn on time synchronisation ('timedatectl set-ntp true', or start chrony or systemd-timesyncd)
                                     """))
        case nil:
            return DoctorFinding(.time, "time.sync", .warn, localized("cannot tell whether the clock is synchronised"),
                                 fix: localized("check with 'timedatectl'"))
        }
    }
}
