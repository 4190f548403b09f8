import WakeCore
import WakeEngine
import WakeSystem

/// `wake daemon`: keeps every standing alarm armed at its next occurrence in one runner. It
/// reloads when the alarms or history files change (inotify) or on SIGHUP, records each
/// occurrence as fired before it rings (so a restart never rings it twice), records what was
/// missed, removes one-offs that are done, and holds the "never sleep" lock only in a window
/// before the next occurrence.
public final class DaemonController: RuntimeObserver, BusAPIHost {
    /// The inhibitor is taken this long before an occurrence, and kept until its ring ends.
    static let inhibitWindow: Duration = .seconds(10 * 3600)
    /// `--say on`: how long before its ring an occurrence's clip is made. Not at arm time: a clip
    /// fitted to two sounds is about 0.3 MiB, held for days. Well before the pre-roll (which
    /// opens the device with the clip's frames, `Defaults.preroll` before the deadline): a clip
    /// takes 5-60 ms, and espeak-ng's set-up some 30 ms more, so even hundreds of spoken alarms
    /// due at one minute are all made in time.
    static let speechLead: Duration = .seconds(30)

    /// What the controller reaches outside itself, handed in so tests run a daemon's night in
    /// process with a fake clock, fake timers and a fake output.
    public struct Services {
        public var clock: RuntimeClock
        public var timers: TimerFactory
        /// Re-reads the config file on every reload.
        public var loadConfig: () throws(WakeFailure) -> ConfigDefaults
        /// Takes the "never sleep" lock (with its reason) or, given nil, releases it; nil when
        /// the daemon holds no lock (`--inhibit off`, or the RTC wakes the machine).
        public var inhibit: ((String?) throws(WakeFailure) -> Void)?
        /// The built-in sound, opened when an alarm first needs it.
        public var builtInSound: () throws(SoundFile.OpenError) -> SoundFile
        /// Shows a problem with the files on the desktop too (nobody reads the journal).
        public var announce: ((String) -> Void)?
        /// `--say on`'s voice: espeak-ng, or a test's stand-in.
        public var speak: (String) throws(Speech.Failure) -> SpeechClip

        public init(clock: RuntimeClock, timers: TimerFactory, loadConfig: @escaping () throws(WakeFailure) -> ConfigDefaults,
                    inhibit: ((String?) throws(WakeFailure) -> Void)?, builtInSound: @escaping () throws(SoundFile.OpenError) -> SoundFile,
                    announce: ((String) -> Void)? = nil,
                    speak: @escaping (String) throws(Speech.Failure) -> SpeechClip = Speech.synthesize) {
            self.clock = clock
            self.timers = timers
            self.loadConfig = loadConfig
            self.inhibit = inhibit
            self.builtInSound = builtInSound
            self.announce = announce
            self.speak = speak
        }
    }

    private struct Armed {
        var alarm: StandingAlarm
        var occurrence: Instant
        /// Armed again after a restart (a ring a crash ended, or a snooze): kept until it ends.
        var recovered = false
        /// The config file's entries it was armed under: a change to the file re-arms it.
        var defaults: [ConfigFile.Entry]
        /// A folder or list as the sound: the order its files are tried in at this ring.
        var entries: [String] = []
        /// When it rings (the occurrence, or after a restart the snooze's end or now).
        var rings: Instant
        /// `--say on`: its speech, made `speechLead` before `rings` and dropped after the ring,
        /// and the sound it is fitted to (with the built-in one).
        var speech: RingSpeech?
        var sound: SoundFile?
        /// Its clip was tried (made, or its failure said): not tried again for this ring.
        var speechTried = false
    }

    private let runner: Runner
    private let services: Services
    private let store: AlarmStore
    /// The local zone occurrences are resolved in; `zoneChanged(to:)` follows the machine's.
    public private(set) var zone: TimeZoneRules
    /// Said with every alarm armed while it is set ("zone": re-armed for a new time zone).
    private var armReason: String?
    private let console: Console
    private let log: EventLog?
    private let unpaced: Bool
    private var armed: [String: Armed] = [:]
    /// The calendars of `--before-first-event` alarms as the last reload read them: the API's
    /// skipped occurrences are found by them, as the plans were.
    public private(set) var firstEvents: [String: FirstEventSchedule] = [:]
    /// The skips and holidays passed over that the event log has been told of (name and occurrence).
    private var passedOverSaid: Set<String> = []
    private var sounds: [String: SoundFile] = [:]
    /// `--say on`'s speech by text, for the occurrences armed: alarms that say the same share it.
    /// Each holds its clip only from `speechLead` before its ring to the ring's end.
    private var speeches: [String: RingSpeech] = [:]
    /// Makes the clips of the next rings that speak, `speechLead` before them; made with the
    /// first spoken alarm.
    private var speechTimer: DeadlineTimer?
    /// A ring began before its clip was made (a resume at its deadline): made at the next look.
    private var speechOverdue = false
    /// espeak-ng was used since it was last let go.
    private var espeakLoaded = false
    private var pending: Set<String> = []
    private var reloadRequested = false
    private var windowTimer: DeadlineTimer?
    /// One-offs kept though nothing is armed for them (`StandingSchedule.Plan.keptUntil`), and
    /// the timer that looks again when the first of them ends.
    private var kept: [String: Instant] = [:]
    private var keptTimer: DeadlineTimer?
    private var holdingInhibitor = false
    /// The config file's defaults under every alarm's own options, re-read on each reload.
    private var config: ConfigDefaults
    private var checked: [String: (options: [String: String], defaults: [ConfigFile.Entry], settings: RingSettings)] = [:]
    /// The settings read for each set of options an alarm has, shared by the alarms that have it;
    /// after each reload only the sets some alarm still has are kept.
    private var interned: [[String: String]: (defaults: [ConfigFile.Entry], settings: RingSettings,
                                               adjustments: [RingSettings.Adjustment])] = [:]
    /// What this process recorded, kept in memory as well: plans start from the later of this
    /// and the file, so a history that cannot be written never makes an occurrence ring again.
    private var remembered: [String: AlarmRecord] = [:]
    private var historyFailing = false
    /// The problems with the files last said: each is said when it appears, not at every reload.
    private var problemsSaid: Set<String> = []
    /// The notes of the last reload (a skipped comment), said once as the problems are.
    private var notesSaid: Set<String> = []
    /// The recurring alarms with no day to ring (`Plan.noDayUntil`) that have been said: each
    /// once, when it comes to that, again only after it has had a day to ring since.
    private var noDaySaid: Set<String> = []
    /// While a reload runs, the history's changes wait here and are written once at its end:
    /// a daemon back after a week with thousands of alarms writes the file once, not per alarm.
    private var queued: [(name: String, change: (inout AlarmRecord) -> Void)]?
    /// Until the first successful read: rings a crash ended and snoozes are taken up again.
    private var recovering = true
    /// What the last reload read of alarms.toml and config.toml, to tell a change of them from a
    /// reload the history's changes caused (the daemon's own writes among them).
    private var lastRead: (alarms: [StandingAlarm], config: [ConfigFile.Entry])?

    public init(runner: Runner, store: AlarmStore, zone: TimeZoneRules, console: Console, log: EventLog?,
                unpaced: Bool, config: ConfigDefaults, services: Services) {
        self.runner = runner
        self.services = services
        self.config = config
        self.store = store
        self.zone = zone
        self.console = console
        self.log = log
        self.unpaced = unpaced
    }

    private var realtime: Instant { services.clock.now().realtime }

    /// Arms what the files hold; call once, before the loop runs.
    public func start() throws(SystemCallError) {
        runner.observe(with: self)
        windowTimer = try services.timers.deadlineTimer(.wall) { [unowned self] _ in updateInhibitor() }
        reload()
    }

    /// A file changed or SIGHUP came: everything is re-read before the next wait.
    public func requestReload() { reloadRequested = true }

    /// The occurrence an alarm is armed for, for the console's lines.
    public func occurrence(of name: String) -> Instant? { armed[name]?.occurrence }

    /// An alarm's `--hook`s and `--hook-timeout`, as its options and the config file last checked gave them.
    public func hooks(of name: String) -> (commands: [HookCommand], timeout: Duration)? { checked[name]?.settings.hooks }

    /// An alarm's `--mpris`, as its options and the config file last checked gave it.
    public func mediaPlayerMode(of name: String) -> MediaPlayerMode { checked[name]?.settings.mpris ?? .on }

    /// Told of an occurrence found missed on a (re)load: the notices after (`--notice-before`).
    public var onMissed: ((String, Instant) -> Void)?

    /// Told after a reload that read other alarms or another config file than the one before,
    /// not after the first read (the start is no change) nor after one only the history's
    /// changes caused (the daemon's own writes among them): the bedtime check looks at the next
    /// alarm again.
    public var onFilesChanged: (() -> Void)?

    /// Told after every reload that read the alarms file (the D-Bus API follows the alarms and
    /// their next times from here, so a `wake add` from a shell changes its properties too).
    public var onReloaded: (() -> Void)?

    /// Every standing alarm as the last reload read it, armed or not (a one-off kept in a pause).
    public private(set) var standingAlarms: [StandingAlarm] = []

    /// The history as the last reload read it, by alarm: skips and pauses, for the D-Bus API.
    public private(set) var records: [String: AlarmRecord] = [:]

    /// The alarm as it is armed, for the bedtime check.
    public func armedAlarm(_ name: String) -> StandingAlarm? { armed[name]?.alarm }

    /// How many of each thing the controller keeps for its alarms, for the tests: one generation
    /// of them, whatever the number of reloads.
    var heldCounts: [String: Int] {
        ["armed": armed.count, "checked": checked.count, "interned": interned.count, "sounds": sounds.count,
         "speeches": speeches.count, "remembered": remembered.count, "passedOverSaid": passedOverSaid.count,
         "kept": kept.count, "standingAlarms": standingAlarms.count]
    }

    /// The bedtime reminder's target for an armed alarm (`BedtimeReminder`): its own `--bedtime`,
    /// else config.toml's `sleep-target` as last read; nil for none, or a value set aside.
    public func sleepTarget(of name: String) -> Duration? {
        func duration(_ option: AlarmOption, _ text: String?) -> Duration? {
            guard let text, case .success(.duration(let d)) = option.parse(text) else { return nil }
            return d
        }
        return duration(.bedtime, armed[name]?.alarm.options[AlarmOption.bedtime.name])
            ?? duration(.sleepTarget, config.entry(AlarmOption.sleepTarget.name)?.value)
    }

    /// The config file's defaults the alarms are armed under, as last read.
    public var configDefaults: ConfigDefaults { config }

    /// The settings an armed alarm rings with.
    public func settings(of name: String) -> AlarmEngine.Settings { runner.setup(of: name)?.settings ?? AlarmEngine.Settings() }

    /// The machine's zone changed: every alarm that is not ringing or snoozed is planned again
    /// in `new`, at the same local time with the new zone's DST rules, and armed again (one
    /// `armed` event each, reason "zone"). An occurrence that has already passed in the new
    /// zone follows the late limit, as after a resume: rung now, or recorded as missed.
    public func zoneChanged(to new: TimeZoneRules) {
        zone = new
        armReason = "zone"
        defer { armReason = nil }
        reload()
    }

    // MARK: the alarms

    /// Re-reads what changed; the session calls it before every wait.
    public func applyPending() {
        if speechOverdue {
            speechOverdue = false
            makeNearSpeech()
        }
        if reloadRequested {
            reloadRequested = false
            pending = []
            reload()
        } else if !pending.isEmpty {
            let names = pending
            pending = []
            reload(only: names)
        }
    }

    /// Re-reads both files and brings every alarm that is not ringing or snoozed up to date.
    private func reload(only names: Set<String>? = nil) {
        // One broken alarm is set aside and the others ring; a file that cannot be read at all
        // rings from the last copy read whole; with neither, what is armed stays armed.
        let read = store.loadTolerant()
        var problems = read.problems
        guard var alarms = read.alarms else {
            sayProblems(problems.map { $0 + "; keeping the alarms as they were: fix the file and save it, the daemon reloads by itself" })
            return
        }
        // An alarm read as it was armed is kept as the copy armed: each reload of 2,000 alarms
        // otherwise left two copies of every alarm's options alive (issue 51: 0.7 MB held).
        for i in alarms.indices {
            if let held = armed[alarms[i].name]?.alarm, held == alarms[i] { alarms[i] = held }
        }
        queued = []
        defer {
            flushQueued()
            onReloaded?()
        }
        standingAlarms = alarms
        sayNotes(read.notes)
        // A line that cannot be read is set aside; the alarms still ring, planned from the rest
        // and from what this daemon remembers.
        let (history, historyProblems) = store.loadHistoryTolerant()
        // Whole, it can tell a skip taken back from one it lost.
        let historyRead = historyProblems.isEmpty
        records = history
        if let problem = historyProblems.first {
            if !historyFailing {
                historyFailing = true
                let more = historyProblems.count > 1 ? " (and \(historyProblems.count - 1) more)" : ""
                console.error("cannot read the history: \(problem)\(more); planning from the rest and from what this daemon "
                              + "remembers: fix or remove the file")
                log?.emit("history_failed", at: realtime, [("reason", .string(problem.description))])
            }
        }
        do {
            config = try services.loadConfig()
            problems += config.problems
        } catch {
            problems.append("\(error.message); the alarms keep the defaults read before")
        }
        // Each recurring alarm's holiday calendars, each file read once a reload; one that cannot
        // be read is said, and the alarm rings on the days it would have skipped.
        let now = realtime
        let daysOff = AlarmDaysOff(alarms.filter { names?.contains($0.name) ?? true }, config: config, now: now, zone: zone)
        problems += daysOff.problems.map { $0.line + AlarmDaysOff.meanwhile($0) }
        sayProblems(problems)
        for name in Array(firstEvents.keys) where names?.contains(name) ?? true { firstEvents[name] = nil }
        for alarm in alarms where names?.contains(alarm.name) ?? true { firstEvents[alarm.name] = daysOff[alarm.name].firstEvent }
        let present = Set(alarms.map(\.name))
        let forgotten = AlarmRecord.forgotten(history, present: present, now: now)
        if !forgotten.isEmpty {
            // A deletion, which the queued record changes cannot say; one that fails is tried at the next reload.
            try? store.updateHistory { h in for n in forgotten { h[n] = nil } }
        }
        for name in armed.keys where !present.contains(name) && (names?.contains(name) ?? true) && !isActive(name) {
            runner.remove(name)
            armed[name] = nil
            checked[name] = nil
            console.info("'\(name)' removed")
        }
        var done: [String] = []
        var rounds: [(done: StandingAlarm, next: StandingAlarm)] = []
        for alarm in alarms where names?.contains(alarm.name) ?? true {
            guard !isActive(alarm.name) else { continue }
            if let current = armed[alarm.name], current.recovered, current.alarm == alarm, runner.state(of: alarm.name) != nil,
               !isFinished(alarm.name) {
                continue  // a ring taken up again after a restart, not yet rung
            }
            let record = merged(history[alarm.name], name: alarm.name, fileRead: historyRead)
            guard let settings = settings(for: alarm) else { continue }
            if recovering, let resume = resumption(alarm, record: record, settings: settings, now: now) {
                arm(alarm, at: resume.at, occurrence: resume.occurrence, settings: settings, builtInSound: resume.builtInSound,
                    recovered: true, played: record.played)
                continue
            }
            let plan = StandingSchedule.plan(alarm, record: record, lateLimit: settings.lateLimit, now: now, zone: zone,
                                             dayOff: daysOff[alarm.name].dayOff, firstEvent: daysOff[alarm.name].firstEvent)
            recordPlan(alarm.name, plan, record: record)
            sayNoDay(alarm.name, plan, daysOff)
            if plan.noDayUntil == nil { sayPassedOver(alarm.name, plan) }
            kept[alarm.name] = plan.keptUntil
            guard let next = plan.next else {
                // A one-off skipped or paused is kept, not armed: `--undo` or `resume` may bring it back.
                // A recurring alarm is never done: with no day to ring it stays in the file, unarmed.
                // A repeating timer's round is done: the next one starts now (`StandingTimer`).
                if plan.isDone && alarm.days == 0 {
                    if let round = alarm.nextRound(at: now, local: { zone.localTime(at: $0) }) { rounds.append((alarm, round)) }
                    else { done.append(alarm.name) }
                }
                runner.remove(alarm.name)
                armed[alarm.name] = nil
                continue
            }
            if armReason == nil, let current = armed[alarm.name], current.alarm == alarm, current.occurrence == next.instant, current.defaults == config.entries,
               runner.state(of: alarm.name) != nil, !isFinished(alarm.name) {
                continue  // armed as it should be
            }
            arm(alarm, at: next.instant, occurrence: next.instant, settings: settings, played: record.played)
        }
        recovering = false
        for name in kept.keys where !present.contains(name) { kept[name] = nil }
        noDaySaid.formIntersection(present)
        lookAgainWhenKeptEnds()
        if !done.isEmpty { removeDone(done) }
        if !rounds.isEmpty { startRounds(rounds) }
        forgetUnusedSounds(alarms)
        for name in checked.keys where !present.contains(name) && armed[name] == nil { checked[name] = nil }
        let used = Set(checked.values.map(\.options))
        interned = interned.filter { used.contains($0.key) && $0.value.defaults == config.entries }
        makeNearSpeech()
        updateInhibitor()
        if names == nil, lastRead.map({ $0.alarms != alarms || $0.config != config.entries }) ?? true {
            let first = lastRead == nil
            lastRead = (alarms, config.entries)
            if !first { onFilesChanged?() }
        }
    }

    /// Closes the sound files no alarm uses any more (a sound changed or an alarm removed): the
    /// daemon holds one descriptor per distinct sound file of its alarms (a ring already under
    /// way keeps its own), never one per file it has ever opened.
    private func forgetUnusedSounds(_ alarms: [StandingAlarm]) {
        var used = Set<String>()
        for alarm in alarms {
            guard let settings = checked[alarm.name]?.settings else { continue }
            if let path = settings.soundPath { used.insert(path) }
            if let path = settings.preAlarmSoundPath { used.insert(path) }
        }
        for path in sounds.keys where !path.isEmpty && !used.contains(path) { sounds[path] = nil }
        // And the speech no armed occurrence says any more (a ring under way holds its frames).
        let spoken = Set(armed.values.compactMap { $0.speech?.text })
        var dropped = false
        for (text, speech) in speeches where !spoken.contains(text) {
            dropped = dropped || speech.clip != nil
            speech.drop()
            speeches[text] = nil
        }
        if dropped { FreedMemory.giveBack() }
    }

    /// Says each problem with the files once, when it appears: on stderr (the journal), in the
    /// event log, and on the desktop.
    private func sayProblems(_ problems: [String]) {
        let now = Set(problems)
        for p in problems where !problemsSaid.contains(p) {
            console.error(p)
            log?.emit("file_problem", at: realtime, [("problem", .string(p))])
            services.announce?(p)
        }
        problemsSaid = now
    }

    /// What a read skipped without costing an alarm: a warning, said once while it lasts; not
    /// a problem (no event, no notification).
    private func sayNotes(_ notes: [String]) {
        for n in notes where !notesSaid.contains(n) { console.error("warning: " + n) }
        notesSaid = Set(notes)
    }

    /// The record as the file has it, with what this process knows it rang, missed or skipped.
    /// `fileRead`: the history file was read (not an empty stand-in for one that could not be).
    private func merged(_ loaded: AlarmRecord?, name: String, fileRead: Bool) -> AlarmRecord {
        var record = loaded ?? AlarmRecord(name: name)
        guard let known = remembered[name] else { return record }
        func later(_ a: Instant?, _ b: Instant?) -> Instant? {
            guard let a else { return b }
            guard let b else { return a }
            return max(a, b)
        }
        record.lastFired = later(record.lastFired, known.lastFired)
        record.missed = later(record.missed, known.missed)
        var skipped = known.lastSkipped
        // A skip still ahead that the file no longer holds in either form was taken back
        // (`wake skip --undo`), not lost: had this daemon's write failed, the file would still
        // say `skip` for it.
        if fileRead, let s = skipped, s > realtime, !record.isSkipped(s, zone: zone), record.lastSkipped != s { skipped = nil }
        record.lastSkipped = later(record.lastSkipped, skipped)
        // The shuffle's memory: the file's, which every ring writes, unless it could not be read.
        if !fileRead { record.played = known.played }
        return record
    }

    /// Looks at the alarms again when the first kept one-off's skipped time or pause ends, so
    /// that it is removed then rather than at whatever reload comes next.
    private func lookAgainWhenKeptEnds() {
        guard let first = kept.values.min() else { keptTimer?.disarm(); return }
        if keptTimer == nil { keptTimer = try? services.timers.deadlineTimer(.wall) { [unowned self] _ in requestReload() } }
        // Without a timer (no descriptor left), the next reload removes it: nothing rings late.
        try? keptTimer?.arm(Wait(instant: first, clock: .wall))
    }

    /// After a restart: a ring a crash (or a kill) ended is rung again, within its late limit,
    /// with the built-in sound from the second crash on (the sound may be what crashes), and not
    /// after a third; a snooze rings when it ends, or at once if it ended within the late limit.
    private func resumption(_ alarm: StandingAlarm, record: AlarmRecord, settings: RingSettings,
                            now: Instant) -> (at: Instant, occurrence: Instant, builtInSound: Bool)? {
        guard let fired = record.lastFired else { return nil }
        let limit = settings.lateLimit
        func inTime(_ since: Instant) -> Bool { limit == .zero || now - since <= limit }
        let name = alarm.name
        if let since = record.ringingSince, since >= fired {
            let crashes = record.crashedRings + 1
            guard crashes <= 3, inTime(fired) else {
                console.error("'\(name)' was ringing when the daemon stopped, \(crashes > 3 ? "for the third time" : "too long ago"); it is not rung again")
                save(name) { r in
                    r.ringingSince = nil
                    r.crashedRings = 0
                }
                return nil
            }
            console.error("'\(name)' was ringing when the daemon stopped (since \(Formatting.clockTime(since, zone: zone))); ringing it again"
                          + (crashes >= 2 ? " with wake's built-in sound" : ""))
            log?.emit("ring_resumed", at: now, [("alarm", .string(name)), ("crashed_rings", .int(Int64(crashes)))])
            save(name) { r in
                r.ringingSince = nil
                r.crashedRings = crashes
            }
            return (now, fired, crashes >= 2)
        }
        if let until = record.snoozedUntil, until > fired {
            if until > now { return (until, fired, false) }
            if inTime(until) {
                console.info("'\(name)' was snoozed until \(Formatting.clockTimeAndDay(until, now: now, zone: zone)) "
                             + "when the daemon stopped; ringing it now")
                return (now, fired, false)
            }
        }
        return nil
    }

    /// An alarm's settings, checked by the command line's rules: an option they refuse is set
    /// aside alone, said once, and the alarm keeps the rest (its device and sound above all).
    /// Kept while its options and the config file stay the same: the check parses options, and
    /// a reload re-reads every alarm (200 alarms took half a second to reload before).
    private func settings(for alarm: StandingAlarm) -> RingSettings? {
        if let c = checked[alarm.name], c.options == alarm.options, c.defaults == config.entries { return c.settings }
        let settings: RingSettings
        do {
            // Alarms with the same options share one reading: its tables are a few kilobytes an
            // alarm (every option with its default), 5 MB of a daemon with 2,000 alarms.
            let read: (settings: RingSettings, adjustments: [RingSettings.Adjustment])
            if let shared = interned[alarm.options], shared.defaults == config.entries {
                read = (shared.settings, shared.adjustments)
            } else {
                read = try RingSettings.tolerating(stored: alarm.options, defaults: config)
                interned[alarm.options] = (config.entries, read.settings, read.adjustments)
            }
            for a in read.adjustments {
                let line = a.line(alarm: alarm.name)
                console.error(line)
                log?.emit("file_problem", at: realtime, [("problem", .string(line))])
                services.announce?(line)
            }
            settings = read.settings
        } catch {
            // Not even the config file's values check (its tolerant read rules this out).
            console.error("alarm '\(alarm.name)': \(error.message); it rings with wake's built-in defaults")
            guard let builtIn = try? RingSettings(values: [:]) else { return nil }
            settings = builtIn
        }
        checked[alarm.name] = (alarm.options, config.entries, settings)
        return settings
    }

    private func isActive(_ name: String) -> Bool {
        switch runner.state(of: name) {
        case .ringing?, .snoozed?: return true
        default: return false
        }
    }

    private func isFinished(_ name: String) -> Bool {
        if case .finished? = runner.state(of: name) { return true } else { return false }
    }

    private func arm(_ alarm: StandingAlarm, at instant: Instant, occurrence: Instant, settings: RingSettings,
                     builtInSound: Bool = false, recovered: Bool = false, played: [String] = []) {
        let sound: ArmChecks.Sound
        do { sound = try self.sound(builtInSound ? nil : settings.soundPath, volume: settings.volume, alarm: alarm.name) } catch {
            // A signal that ends the daemon came while the file was decoded: the daemon ends
            // before this alarm could ring, so it is not armed (a long file would otherwise have
            // held up `systemctl stop`); the next daemon arms it.
            if error.signal != nil { return }
            console.error("cannot arm '\(alarm.name)': not even wake's built-in sound can be opened: \(error.message)")
            return
        }
        // A folder or list: this ring's order, the files not yet played this round first.
        var random = SystemRandomNumberGenerator()
        let order = ShuffleBag.order(entries: sound.entries, played: played, using: &random)
        let speech = settings.say ? speech(SpeechClip.text(message: settings.message, at: occurrence, zone: zone)) : nil
        let ring = settings.request(sound: sound.file, kind: sound.kind, unpaced: unpaced, speech: speech, entries: order)
        let engine = settings.engine(standing: true)
        var setup = AlarmSetup(id: alarm.name, deadline: Deadline(instant: instant, clock: .wall), resolvedAt: services.clock.now(),
                               settings: engine, ring: ring, reason: armReason, message: settings.message)
        setup.light = settings.light
        if let pre = engine.preAlarm {
            var preSound: SoundFile?
            if let path = settings.preAlarmSoundPath {
                do {
                    let checked = try ArmChecks.preAlarmSound(path, volume: pre.volume(of: settings.volume), mode: .daemon(alarm: alarm.name),
                                                              opened: sounds[path], interrupt: { SignalChannel.pending(ignoring: AlarmSession.keptRunningBy) })
                    if let file = checked.file { sounds[path] = file }
                    if let warning = checked.warning { console.error(warning) }
                    preSound = checked.file
                } catch {
                    if error.signal != nil { return }  // as for the alarm's own sound: the daemon is ending
                }
            }
            setup.preRing = ring.preRing(percent: pre.percent, lead: pre.lead, sound: preSound)
        }
        armed[alarm.name] = Armed(alarm: alarm, occurrence: occurrence, recovered: recovered, defaults: config.entries, entries: order,
                                  rings: instant, speech: speech, sound: sound.file)
        // A ring near enough speaks from its first loop: its clip is made before the runner may ring it.
        if speech != nil, instant - realtime <= Self.speechLead { makeSpeech(alarm.name) }
        do { try runner.arm(setup) } catch {
            console.error("cannot arm '\(alarm.name)': \(error); it will not ring: raise 'ulimit -n' and restart the daemon")
            armed[alarm.name] = nil
        }
    }

    /// `--say on`'s speech for `text`, shared by the alarms that say it; its clip is made later.
    private func speech(_ text: String) -> RingSpeech {
        if let shared = speeches[text] { return shared }
        let speech = RingSpeech(text: text)
        speeches[text] = speech
        return speech
    }

    /// Makes the clip of every armed ring due within `speechLead` that has none, then lets
    /// espeak-ng go; arms the timer for the next one. A clip that cannot be made is said, and the
    /// alarm rings on time without speech.
    private func makeNearSpeech() {
        let now = realtime
        var next: Instant?
        for (name, a) in armed where a.speech != nil && !a.speechTried {
            if case .finished? = runner.state(of: name) { continue }
            if a.rings - now > Self.speechLead {
                next = min(next ?? a.rings, a.rings)
                continue
            }
            makeSpeech(name)
        }
        if espeakLoaded {
            espeakLoaded = false
            Speech.release()
        }
        guard let next else { speechTimer?.disarm(); return }
        if speechTimer == nil {
            speechTimer = try? services.timers.deadlineTimer(.wall) { [unowned self] _ in makeNearSpeech() }
        }
        // Without a timer (no descriptor left), a clip is made at the next reload, or the ring has none: it still rings.
        try? speechTimer?.arm(Wait(instant: next - Self.speechLead, clock: .wall))
    }

    /// One clip, by the checks every alarm gets (`ArmChecks.speech`, in the daemon's mode),
    /// fitted to `sound` and the built-in sound the ring may fall back to. Without espeak-ng
    /// the alarm rings without speech, said here, before its ring.
    private func makeSpeech(_ alarm: String) {
        guard let speech = armed[alarm]?.speech, let sound = armed[alarm]?.sound else { return }
        armed[alarm]?.speechTried = true
        // Made already for another alarm that says the same: fitted to this one's sound too.
        if speech.clip != nil { return speech.prepare(for: [sound]) }
        espeakLoaded = true
        var formats = [sound]
        if let builtIn = try? self.sound(nil, volume: Defaults.volume, alarm: alarm).file, builtIn !== sound { formats.append(builtIn) }
        // The daemon's mode never throws: without espeak-ng it warns and gives no speech.
        let spoken = try? ArmChecks.speech(speech.text, mode: .daemon(alarm: alarm), sounds: formats, synthesize: services.speak)
        if let warning = spoken?.warning { console.error(warning) }
        if let made = spoken?.speech { speech.fill(from: made) }
    }

    /// The alarm's sound, by the checks every alarm gets (`ArmChecks`, in the daemon's mode), each
    /// file decoded once: a file that no longer opens, or is silent at this alarm's volume, rings
    /// wake's own sound instead, and says so (an alarm is never dropped for its sound). Throws
    /// when not even the built-in sound opens, and when a signal that ends the daemon ended the
    /// decoding.
    private func sound(_ path: String?, volume: Int, alarm: String) throws(WakeFailure) -> ArmChecks.Sound {
        let sound = try ArmChecks.sound(path, volume: volume, mode: .daemon(alarm: alarm), opened: path.flatMap { sounds[$0] },
                                        // A decoding goes on through what the daemon takes without
                                        // ending; any other signal ends the daemon, so it ends the decoding too.
                                        interrupt: { SignalChannel.pending(ignoring: AlarmSession.keptRunningBy) },
                                        builtIn: { [unowned self] () throws(SoundFile.OpenError) -> SoundFile in
                                            // The embedded sound always decodes; the synthesised tone stands behind it.
                                            if let builtIn = sounds[""] { return builtIn }
                                            let builtIn = try services.builtInSound()
                                            sounds[""] = builtIn
                                            return builtIn
                                        })
        if let path, let decoded = sound.decoded { sounds[path] = decoded }
        if let warning = sound.warning { console.error(warning) }
        for warning in sound.warnings { console.error(warning) }
        return sound
    }

    private func recordPlan(_ name: String, _ plan: StandingSchedule.Plan, record: AlarmRecord) {
        var changed = record
        // Left by a daemon that died while this alarm rang or was snoozed: it is neither now.
        changed.ringingSince = nil
        changed.snoozedUntil = nil
        if let last = plan.missed.last, last != record.missed {
            changed.missed = last
            let when = "\(Formatting.dayPhrase(last, now: realtime, zone: zone)) \(Formatting.clockTime(last, zone: zone))"
            console.error("missed '\(name)' at \(when)" + (plan.missed.count > 1 ? " (and \(plan.missed.count - 1) earlier)" : "")
                          + (armReason == "zone" ? ": the time zone changed past it" : ": no daemon was running in time"))
            log?.emit("missed", at: realtime, [("alarm", .string(name)), ("occurrence", .string(Formatting.iso8601(last, zone: zone)))])
            onMissed?(name, last)
        }
        // Recorded once it has passed (a skip ahead stays in `skips`, where `wake skip --undo`
        // takes it back); skips that have passed are history. The latest passed, not the
        // latest: with a later skip or holiday still ahead, a passed skip pruned below and not
        // recorded would be planned again at the next reload, and rung late or missed.
        if let skipped = plan.skippedPassed, skipped > (record.lastSkipped ?? Instant(nanoseconds: Int64.min)) {
            changed.lastSkipped = skipped
        }
        // Each skip is kept through its day (a move west that day still skips it), and an older
        // wake's skip instants are written as dates.
        changed = changed.migratingSkips(zone: zone).pruningSkips(now: realtime, zone: zone)
        if changed != record { save(name) { $0 = changed } }
    }

    /// Says once, when it comes to that, that a recurring alarm has no day to ring (a calendar
    /// covering every day): on stderr, in the event log (`file_problem`) and on the desktop. The
    /// alarm stays in alarms.toml, unarmed; its occurrences are not said one by one.
    private func sayNoDay(_ name: String, _ plan: StandingSchedule.Plan, _ daysOff: AlarmDaysOff) {
        // An unreadable first-event calendar is said as the reload's problem, with what it changes.
        // The event log's words, English whatever the daemon's language (the journal's line too).
        guard let why = MachineText.written(keepingClock: true, { daysOff.noDay(name, plan) }), daysOff[name].unreadableEvents == nil else {
            noDaySaid.remove(name)
            return
        }
        guard noDaySaid.insert(name).inserted else { return }
        let line = "alarm '\(name)' rings on no day: \(why); it stays in alarms.toml, not armed: \(DayOffCalendars.noDayFix)"
        console.error(line)
        log?.emit("file_problem", at: realtime, [("problem", .string(line))])
        services.announce?(line)
    }

    /// Says once, when the daemon first plans past it, each occurrence a skip or a holiday passes
    /// over: a `skipped` event (with its reason), and for a holiday a journal line.
    private func sayPassedOver(_ name: String, _ plan: StandingSchedule.Plan) {
        for p in plan.passedOver {
            var fields: [(String, JSONValue)] = [("alarm", .string(name)),
                                                 ("occurrence", .string(Formatting.iso8601(p.instant, zone: zone))),
                                                      ("reason", .string(StandingSchedule.kind(p.reason)))]
            switch p.reason {
            case .paused: continue
            case .requested: break
            case .dayOff(let holiday): fields.append(("holiday", .string(holiday)))
            case .noEvent: continue  // no occurrence: a day the calendar leaves without one
            }
            guard passedOverSaid.insert("\(name) \(p.instant.nanoseconds)").inserted else { continue }
            log?.emit("skipped", at: realtime, fields)
            if case .dayOff(let holiday) = p.reason, p.instant > realtime {
                console.info("'\(name)' does not ring on \(Formatting.datePhrase(p.instant, now: realtime, zone: zone)): \(holiday.printable)")
            }
        }
    }

    private func save(_ name: String, _ change: @escaping (inout AlarmRecord) -> Void) {
        var known = remembered[name] ?? AlarmRecord(name: name)
        change(&known)
        remembered[name] = known
        if queued != nil { queued?.append((name, change)); return }
        write([(name, change)])
    }

    private func flushQueued() {
        guard let changes = queued else { return }
        queued = nil
        if !changes.isEmpty { write(changes) }
    }

    private func write(_ changes: [(name: String, change: (inout AlarmRecord) -> Void)]) {
        do {
            try store.updateHistory { history in
                for (name, change) in changes {
                    var record = history[name] ?? AlarmRecord(name: name)
                    change(&record)
                    history[name] = record
                }
            }
            historyFailing = false
        } catch {
            // Said once while it lasts: the daemon goes on from what it remembers.
            guard !historyFailing else { return }
            historyFailing = true
            let names = Set(changes.map(\.name)).sorted().map { "'\($0)'" }.joined(separator: ", ")
            console.error("cannot record what happened to \(names): \(error); this daemon remembers it and will not ring it again, "
                          + "but a restart may: make \(store.historyDirectory) yours, writable and not full")
            log?.emit("history_failed", at: realtime, [("reason", .string(error.description))])
        }
    }

    private func removeDone(_ names: [String]) {
        do {
            // Their history stays (AlarmRecord.keptAfterRemoval): a restored alarms.toml that
            // brings one back finds it fired, and it is removed again without a sound.
            try store.update { alarms in alarms.removeAll { names.contains($0.name) } }
        } catch {
            console.error("cannot remove finished one-off alarms: \(error); remove them with 'wake remove'")
        }
    }

    /// Repeating timers' next rounds written (the write's reload arms them); one changed meanwhile is left as it is.
    private func startRounds(_ rounds: [(done: StandingAlarm, next: StandingAlarm)]) {
        do {
            try store.update { alarms in
                for i in alarms.indices { if let r = rounds.first(where: { $0.done == alarms[i] }) { alarms[i] = r.next } }
            }
        } catch {
            console.error("cannot start the next round of a repeating timer: \(error); 'wake timer' starts one again")
        }
    }

    // MARK: events

    public func observe(_ event: RuntimeEvent) {
        let name = event.alarm
        switch event.kind {
        case .ringStarted:
            // Recorded before the sound starts: a crash from here on never rings it again.
            guard let occurrence = armed[name]?.occurrence else { return }
            if let speech = armed[name]?.speech, speech.clip == nil, armed[name]?.speechTried == false {
                // Not made before the ring (the machine woke at its deadline): the sound starts now,
                // alone, never later; the clip is made after it, for a ring after a snooze.
                console.error("'\(name)' rings without speech: its clip was not made before its time")
                speechOverdue = true
            }
            let now = event.time.realtime
            // A folder or list: its first file counts as played from here, in the same write.
            let entries = armed[name]?.entries ?? []
            save(name) { r in
                if let first = entries.first { r.played = ShuffleBag.record(tried: [first], played: r.played, entries: entries) }
                if r.lastFired != occurrence { r.lastFired = occurrence }
                r.ringingSince = now
                r.snoozedUntil = nil
            }
        case .sound(.soundChosen(let path)), .sound(.entryFailed(let path, _, _)):
            // The file that plays, and those tried before it, are played for this round.
            guard let entries = armed[name]?.entries, !entries.isEmpty else { return }
            // The ring's first file was recorded as it started: no second write for it while ringing.
            let played = remembered[name]?.played ?? []
            guard ShuffleBag.record(tried: [path], played: played, entries: entries) != played else { return }
            save(name) { r in r.played = ShuffleBag.record(tried: [path], played: r.played, entries: entries) }
        case .snoozed(let until, _):
            save(name) { r in
                r.ringingSince = nil
                r.snoozedUntil = until
                r.crashedRings = 0
            }
        case .finished(let outcome):
            if case .missed = outcome, let occurrence = armed[name]?.occurrence {
                save(name) { r in r.missed = occurrence }
            } else if case .upAlready = outcome, let occurrence = armed[name]?.occurrence {
                // Up already, during or after the pre-alarm: this occurrence is skipped, as by 'wake skip'.
                save(name) { r in
                    if (r.lastSkipped ?? occurrence) <= occurrence { r.lastSkipped = occurrence }
                    r.ringingSince = nil
                    r.snoozedUntil = nil
                    r.crashedRings = 0
                }
            } else {
                save(name) { r in
                    r.ringingSince = nil
                    r.snoozedUntil = nil
                    r.crashedRings = 0
                }
            }
            dropSpeech(of: name)
            pending.insert(name)
        default:
            break
        }
    }

    /// A ring has ended: its clip goes (the reload that follows arms the next occurrence with
    /// speech still to be made), unless another alarm that says the same rings within the lead
    /// or is ringing or snoozed.
    private func dropSpeech(of name: String) {
        guard let speech = armed[name]?.speech, speech.clip != nil else { return }
        let now = realtime
        let shared = armed.contains { other, a in
            guard other != name, a.speech === speech else { return false }
            if case .finished? = runner.state(of: other) { return false }
            return isActive(other) || a.rings - now <= Self.speechLead
        }
        guard !shared else { return }
        speech.drop()
        FreedMemory.giveBack()
    }

    // MARK: sleep

    /// Holds the inhibitor while an occurrence is within the window or an alarm rings; arms a
    /// timer for the next window otherwise. With --wake-system the RTC wakes the machine instead.
    private func updateInhibitor() {
        guard let inhibit = services.inhibit else { return }
        let now = realtime
        let nearest = armed.values.map(\.occurrence).min()
        let active = armed.keys.contains { isActive($0) }
        let want = active || nearest.map { $0 - now <= Self.inhibitWindow } ?? false
        if want && !holdingInhibitor {
            let why = nearest.map { "alarm at \(Formatting.clockTime($0, zone: zone))" } ?? "alarm ringing"
            do {
                try inhibit(why)
                holdingInhibitor = true
            } catch {
                console.error(error.message)
            }
        } else if !want && holdingInhibitor {
            try? inhibit(nil)
            holdingInhibitor = false
        }
        if let nearest, !want {
            try? windowTimer?.arm(Wait(instant: nearest - Self.inhibitWindow, clock: .wall))
        }
    }
}
