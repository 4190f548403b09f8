/// What `wake change` does to an alarm's record in the state file: it follows a rename, and
/// keeps the skips, pauses and history that still mean something for the alarm as changed.
extension AlarmRecord {
    /// The record for `alarm` as changed: under its (maybe new) name, without the skips of dates
    /// it no longer rings on in `zone` (returned, in order, to be said; `firstEvent`: the calendar of a
    /// `--before-first-event` alarm, read, whose event days are its days). Pauses, the fired and
    /// missed history and the sound shuffle stay: they are about instants, not the alarm's days.
    public func changed(to alarm: StandingAlarm, zone: TimeZoneRules,
                        firstEvent: FirstEventSchedule? = nil) -> (record: AlarmRecord, dropped: [CivilDate]) {
        var r = self
        r.name = alarm.name
        let dropped = skips.filter { StandingSchedule.occurrence(of: alarm, on: $0, zone: zone, firstEvent: firstEvent) == nil }
        r.skips.removeAll { dropped.contains($0) }
        // An older wake's instants cannot be said as days of the changed alarm: made dates first.
        r = r.migratingSkips(zone: zone)
        let late = r.skips.filter { StandingSchedule.occurrence(of: alarm, on: $0, zone: zone, firstEvent: firstEvent) == nil }
        r.skips.removeAll { late.contains($0) }
        return (r, (dropped + late).sorted())
    }
}

