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
            let rest = names.dropFirst().joined(separator: " ")
            return DoctorFinding(.files, "files.duplicates", alarms: names, .warn,
                                 localized("""
                                     alarms {others} and {last} ring at the same moments: skipping or pausing one leaves the other ringing
                                     """, quoted.dropLast().joined(separator: ", "), quoted.last ?? ""),
                                 fix: localized("{command} (or keep them on purpose: each must then be skipped)", "wake remove \(rest)"))
        }
    }

    static func fileFindings(store: AlarmStore, configPath: String?, calendars: [DoctorFinding]) -> [DoctorFinding] {
        var out: [DoctorFinding] = []
        do {
            let config = try ConfigDefaults.load(path: configPath)
            let found = config.entries.isEmpty ? localized("no settings in config.toml: wake's defaults")
                : config.entries.count == 1 ? localized("config.toml is well formed (1 setting)")
                : localized("config.toml is well formed ({count} settings)", String(config.entries.count))
            out.append(DoctorFinding(.files, "files.config", .pass, found))
        } catch {
            out.append(DoctorFinding(.files, "files.config", .fail, error.message,
                                     fix: localized("""
                                         correct that line; until then the daemon sets it aside and uses wake's value, and one-off alarms \
                                         refuse to start
                                         """)))
        }
        do {
            let alarms = try store.load()
            // A comment that is not UTF-8 is skipped and costs nothing: a warning, not a failure.
            let notes = store.loadTolerant(keepLastGood: false).notes
            if let note = notes.first {
                out.append(DoctorFinding(.files, "files.alarms", .warn, note + more(notes)))
            } else {
                out.append(DoctorFinding(.files, "files.alarms", .pass,
                                         alarms.isEmpty ? localized("no standing alarms (add one with 'wake add')")
                                             : alarms.count == 1 ? localized("alarms.toml is well formed (1 alarm)")
                                             : localized("alarms.toml is well formed ({count} alarms)", String(alarms.count))))
            }
            out += duplicateFindings(alarms)
        } catch {
            let what = error.isCorrupt ? localized("correct or remove that alarm") : unreadableFix(store.alarmsFile)
            out.append(DoctorFinding(.files, "files.alarms", .fail, localized("alarms file {problem}", error.description),
                                     fix: localized("""
                                         {fix} (the daemon rings the others, or the last good copy, meanwhile); 'wake list' shows what \
                                         it rings
                                         """, what)))
        }
        do {
            _ = try store.loadHistory()
            out.append(DoctorFinding(.files, "files.history", .pass, localized("history.toml is readable and well formed")))
        } catch {
            let what = error.isCorrupt ? localized("correct that line or move the file away (it is made again)")
                : localized("{fix}, or move it away (it is made again)", unreadableFix(store.historyFile))
            out.append(DoctorFinding(.files, "files.history", .fail, localized("history file {problem}", error.description),
                                     fix: localized("""
                                         {fix}: until then the daemon cannot record what rang, so after a restart an alarm may ring \
                                         twice or a missed one go unsaid
                                         """, what)))
        }
        out += calendars
        // alarms.toml and history.toml live together; the last good copy of the alarms in the state directory.
        // Each directory's sentences whole, as its name decides their words in another language.
        struct Directory {
            var check: String, path: String
            var writable: (String) -> String, toBeMade: (String) -> String, notWritable: (String) -> String
            var consequence: String
        }
        var directories = [Directory(check: "alarms", path: store.alarmsDirectory,
                                     writable: { localized("the alarms directory '{directory}' is writable", $0) },
                                     toBeMade: { localized("the alarms directory '{directory}' does not exist yet and can be made", $0) },
                                     notWritable: { localized("the alarms directory '{directory}' is not writable", $0) },
                                     consequence: localized("""
                                         'wake add', 'skip' and 'pause' cannot save, and the daemon cannot record what rang
                                         """))]
        if let lastGood = store.lastGoodFile {
            directories.append(Directory(check: "state", path: AtomicFile.split(lastGood).directory,
                                         writable: { localized("the state directory '{directory}' is writable", $0) },
                                         toBeMade: { localized("the state directory '{directory}' does not exist yet and can be made",
                                                               $0) },
                                         notWritable: { localized("the state directory '{directory}' is not writable", $0) },
                                         consequence: localized("the daemon keeps no last good copy of the alarms to ring from")))
        }
        for d in directories {
            let existing = PathAccess.nearestExisting(d.path)
            if PathAccess.isWritable(existing) {
                let found = existing == d.path ? d.writable(d.path.printable) : d.toBeMade(d.path.printable)
                out.append(DoctorFinding(.files, "files.\(d.check)-directory", .pass, found))
            } else {
                out.append(DoctorFinding(.files, "files.\(d.check)-directory", .fail, d.notWritable(existing.printable),
                                         fix: localized("""
                                             make it writable by you (is the disk read-only or full? 'mount' and 'df' tell); until then \
                                             {consequence}
                                             """, d.consequence)))
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
                silenced.append(localized("alarm '{name}' rings on no day: {reason}", a.name, why))
                silencedNames.append(a.name)
            }
        }
        var out: [DoctorFinding] = []
        if let first = silenced.first {
            out.append(DoctorFinding(.files, "files.calendars", alarms: silencedNames, .fail, first + more(silenced),
                                     fix: eventsFirst ? localized("""
                                         correct the calendar, or export it again from your calendar program; until then the alarm stays \
                                         in alarms.toml and never rings
                                         """)
                                         // DayOffCalendars.noDayFix's words (the daemon's line keeps them English), then the doctor's.
                                         : localized("""
                                             correct the calendar (is an event's DTEND or RRULE mistyped?) or take it out of skip-days; \
                                             until then the alarm stays in alarms.toml and never rings
                                             """)))
        }
        let problems = daysOff.problems.filter { $0.kind != .events }.map(\.line)
        if let first = problems.first {
            out.append(DoctorFinding(.files, "files.calendars", alarms: daysOff.names, .warn, first + more(problems),
                                     fix: localized("""
                                         correct the calendar, or make a new one with 'wake holidays import' or your calendar program; \
                                         until then the alarm rings on the days it should skip
                                         """)))
        }
        if !out.isEmpty { return out }
        let files = daysOff.files
        let reach = String(DayOffCalendars.reachDays)
        return [DoctorFinding(.files, "files.calendars", alarms: daysOff.names, .pass,
                              files.count == 1 ? localized("1 holiday calendar read, each with days beyond the next {days}", reach)
                                  : localized("{count} holiday calendars read, each with days beyond the next {days}", String(files.count),
                                              reach))]
    }

    /// A file that is there but cannot be read (permissions, another user's, a directory in its
    /// place): there is no line to correct.
    static func unreadableFix(_ path: String) -> String {
        localized("make it a file only you can read and write ('chmod 600 {path}'; 'ls -l' shows its owner)", path.printable)
    }

    /// " (and N more)" after the first of several lines.
    static func more(_ lines: [String]) -> String {
        lines.count < 2 ? "" : lines.count == 2 ? localized(" (and 1 more)") : localized(" (and {count} more)", String(lines.count - 1))
    }
}
