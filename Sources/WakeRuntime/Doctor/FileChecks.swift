import WakeCore
import WakeSystem

extension Doctor {
    /// config.toml, alarms.toml and history.toml read strictly, as a one-off alarm and `wake add`
    /// read them (the daemon sets a broken part aside and rings the rest, so a problem here is
    /// one it is living with); the directories the daemon writes, writable.
    /// `calendars`: the alarms' calendar findings (`calendarFindings`), said after the history's.
    /// A warning per set of alarms that ring at the same moments (`DuplicateAlarms`): skipping
    /// or pausing one leaves the other ringing.
    static func duplicateFindings(_ alarms: [StandingAlarm]) -> [DoctorFinding] {
        DuplicateAlarms.copies(in: alarms).map { names in
            let quoted = names.map { "'\($0)'" }
            let listed = quoted.dropLast().joined(separator: ", ") + " and " + (quoted.last ?? "")
            let rest = names.dropFirst().joined(separator: " ")
            return DoctorFinding(.files, "files.duplicates", alarms: names, .warn,
                                 "alarms \(listed) ring at the same moments: skipping or pausing one leaves the other ringing",
                                 fix: "wake remove \(rest) (or keep them on purpose: each must then be skipped)")
        }
    }

    static func fileFindings(store: AlarmStore, configPath: String?, calendars: [DoctorFinding]) -> [DoctorFinding] {
        var out: [DoctorFinding] = []
        do {
            let config = try ConfigDefaults.load(path: configPath)
            let found = config.entries.isEmpty ? localized("no settings in config.toml: wake's defaults")
                : "config.toml is well formed (\(config.entries.count) setting\(config.entries.count == 1 ? "" : "s"))"
            out.append(DoctorFinding(.files, "files.config", .pass, found))
        } catch {
            out.append(DoctorFinding(.files, "files.config", .fail, error.message,
                                     fix: "correct that line; until then the daemon sets it aside and uses wake's value, and one-off alarms refuse to start"))
        }
        do {
            let alarms = try store.load()
            // A comment that is not UTF-8 is skipped and costs nothing: a warning, not a failure.
            let notes = store.loadTolerant(keepLastGood: false).notes
            if let note = notes.first {
                out.append(DoctorFinding(.files, "files.alarms", .warn, note + (notes.count > 1 ? " (and \(notes.count - 1) more)" : "")))
            } else {
                out.append(DoctorFinding(.files, "files.alarms", .pass,
                                         alarms.isEmpty ? localized("no standing alarms (add one with 'wake add')")
                                             : "alarms.toml is well formed (\(alarms.count) alarm\(alarms.count == 1 ? "" : "s"))"))
            }
            out += duplicateFindings(alarms)
        } catch {
            let what = error.isCorrupt ? "correct or remove that alarm" : unreadableFix(store.alarmsFile)
            out.append(DoctorFinding(.files, "files.alarms", .fail, "alarms file " + error.description,
                                     fix: what + " (the daemon rings the others, or the last good copy, meanwhile); 'wake list' shows what it rings"))
        }
        do {
            _ = try store.loadHistory()
            out.append(DoctorFinding(.files, "files.history", .pass, localized("history.toml is readable and well formed")))
        } catch {
            let what = error.isCorrupt ? "correct that line or move the file away (it is made again)"
                : unreadableFix(store.historyFile) + ", or move it away (it is made again)"
            out.append(DoctorFinding(.files, "files.history", .fail, "history file " + error.description,
                                     fix: what + ": until then the daemon cannot record what rang, so after a restart an alarm may ring twice or a missed one go unsaid"))
        }
        out += calendars
        // alarms.toml and history.toml live together; the last good copy of the alarms in the state directory.
        var directories = [("alarms", store.alarmsDirectory, "'wake add', 'skip' and 'pause' cannot save, and the daemon cannot record what rang")]
        if let lastGood = store.lastGoodFile {
            directories.append(("state", AtomicFile.split(lastGood).directory, "the daemon keeps no last good copy of the alarms to ring from"))
        }
        for (what, directory, consequence) in directories {
            let existing = PathAccess.nearestExisting(directory)
            if PathAccess.isWritable(existing) {
                let found = existing == directory ? "the \(what) directory '\(directory.printable)' is writable"
                    : "the \(what) directory '\(directory.printable)' does not exist yet and can be made"
                out.append(DoctorFinding(.files, "files.\(what)-directory", .pass, found))
            } else {
                out.append(DoctorFinding(.files, "files.\(what)-directory", .fail, "the \(what) directory '\(existing.printable)' is not writable",
                                         fix: "make it writable by you (is the disk read-only or full? 'mount' and 'df' tell); until then \(consequence)"))
            }
        }
        return out
    }

    /// The holiday calendars of the alarms (`--skip-days`), as the daemon reads them (`daysOff`):
    /// one it cannot read, or one that runs out within 60 days, is WARN (the alarm rings on those
    /// days, which is heard, but not what was asked); one that leaves an alarm no day to ring
    /// (every day a holiday) is FAIL, since that alarm never rings, and said with the WARN, not
    /// instead of it. No finding when no alarm has a calendar.
    static func calendarFindings(alarms: [StandingAlarm], daysOff: AlarmDaysOff, history: [String: AlarmRecord],
                                 config: ConfigDefaults) -> [DoctorFinding] {
        guard !daysOff.names.isEmpty else { return [] }
        var silenced: [String] = [], silencedNames: [String] = [], eventsFirst = false
        for a in alarms where daysOff.calendars[a.name] != nil {
            // Planned as the daemon plans it, to find the alarm every day of which is a holiday.
            let plan = StandingSchedule.plan(a, record: history[a.name] ?? AlarmRecord(name: a.name),
                                             lateLimit: RingSettings.lateLimit(of: a, config: config), now: daysOff.now, zone: daysOff.zone,
                                             dayOff: daysOff[a.name].dayOff, firstEvent: daysOff[a.name].firstEvent)
            // A first-event calendar that cannot be read silences the alarm: a FAIL, said as its problem.
            if let problem = daysOff.problems.first(where: { $0.alarm == a.name && $0.kind == .events }) {
                if silenced.isEmpty { eventsFirst = true }
                silenced.append(problem.line + DayOffCalendars.eventsMeanwhile)
                silencedNames.append(a.name)
            } else if let why = daysOff.noDay(a.name, plan) {
                silenced.append("alarm '\(a.name)' rings on no day: \(why)")
                silencedNames.append(a.name)
            }
        }
        func more(_ lines: [String]) -> String { lines.count > 1 ? " (and \(lines.count - 1) more)" : "" }
        var out: [DoctorFinding] = []
        if let first = silenced.first {
            out.append(DoctorFinding(.files, "files.calendars", alarms: silencedNames, .fail, first + more(silenced),
                                     fix: (eventsFirst ? "correct the calendar, or export it again from your calendar program"
                                                       : DayOffCalendars.noDayFix)
                                         + "; until then the alarm stays in alarms.toml and never rings"))
        }
        let problems = daysOff.problems.filter { $0.kind != .events }.map(\.line)
        if let first = problems.first {
            out.append(DoctorFinding(.files, "files.calendars", alarms: daysOff.names, .warn, first + more(problems),
                                     fix: "correct the calendar, or make a new one with 'wake holidays import' or your calendar program; "
                                         + "until then the alarm rings on the days it should skip"))
        }
        if !out.isEmpty { return out }
        let files = daysOff.files
        return [DoctorFinding(.files, "files.calendars", alarms: daysOff.names, .pass,
                              "\(files.count) holiday calendar\(files.count == 1 ? "" : "s") read, each with days beyond the next \(DayOffCalendars.reachDays)")]
    }

    /// A file that is there but cannot be read (permissions, another user's, a directory in its
    /// place): there is no line to correct.
    static func unreadableFix(_ path: String) -> String {
        "make it a file only you can read and write ('chmod 600 \(path.printable)'; 'ls -l' shows its owner)"
    }
}
