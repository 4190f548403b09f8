import Glibc
import WakeCore
import WakeEngine
import WakeSystem

/// From checked options to an armed alarm: every check that can fail happens here, before the
/// wait, and a dry run runs every one of them (it takes and releases the inhibitor too) and
/// ends with the result the real run would.
public enum OneOffAlarm {
    public static func listDevices(_ console: Console) -> CommandResult {
        let hints: [PCM.DeviceHint]
        do {
            try ALSAEnvironment.check()
            hints = try PCM.deviceHints()
        } catch let error as ALSAEnvironment.ConfigError {
            console.error("\(error.description)")
            return .failed(.unavailable)
        } catch {
            console.error("cannot list the devices: \(error)")
            return .failed(.unavailable)
        }
        for d in hints {
            console.result(d.name)
            if !d.description.isEmpty { console.result("    " + d.description) }
        }
        // The sound server's sinks, for --sink: listed when a server answers.
        if let sinks = try? SoundServerStream.sinks(), !sinks.isEmpty {
            console.result("")
            console.result("sound server sinks (--sink NAME or DESCRIPTION):")
            for s in sinks {
                console.result(s.name.printable)
                let bus = s.bus.isEmpty ? "" : "(\(s.bus.printable))"
                console.result("    " + [s.description.printable, bus].filter { !$0.isEmpty }.joined(separator: " "))
            }
        }
        return .done
    }

    /// `clock` and `zone`: the machine's unless given (a test's fixed "now" and zone, so a dry run's
    /// text is known without `TZ`).
    public static func arm(_ given: AlarmOptions, console: Console, signals: SignalChannel,
                           clock: () -> ClockReading = SystemClock.now,
                           zone givenZone: TimeZoneRules? = nil) throws(WakeFailure) -> CommandResult {
        var options = given
        let (zone, zoneWarning) = givenZone.map { ($0, nil) } ?? ZoneLoader.local()
        if let zoneWarning { console.error("warning: " + zoneWarning) }

        let now = clock()
        let deadline: Deadline
        do {
            deadline = try Schedule.resolve(options.spec, token: options.whenText, now: now.realtime, zone: zone)
        } catch {
            throw WakeFailure(.usage, error.description)
        }
        try LightCheck.sunrise(options.ring, wait: deadline.wait(from: now).remaining(from: now), given: options.given, console: console)

        // A signal during the checks cancels the alarm: recorded like any cancel.
        func cancelled(_ error: WakeFailure) -> WakeFailure {
            if let signal = error.signal, let path = options.eventsPath, let log = try? EventLog(path: path, zone: zone) as EventLog {
                log.emit("cancelled", at: SystemClock.realtime, [("by", .string("signal")), ("signal", .string(SignalChannel.name(of: signal)))])
            }
            return error
        }

        // The sound file: opened and decoded end to end now, held open until the end, and
        // audible at the volume asked for.
        // A folder or list: each of its files decoded and checked now (then closed), one warning per
        // file refused; the ring opens the one it plays.
        let checked: ArmChecks.Sound
        do {
            checked = try ArmChecks.sound(options.ring.soundPath, volume: options.ring.volume, mode: .oneOff,
                                          interrupt: { SignalChannel.pending() }, progress: { console.info($0) }, builtIn: DefaultSound.open)
        } catch {
            throw cancelled(error)
        }
        let sound = checked.file
        for warning in checked.warnings { console.error(warning) }

        let preSound: SoundFile?
        do {
            let preVolume = options.ring.engine.preAlarm.map { $0.volume(of: options.ring.volume) } ?? options.ring.volume
            preSound = try ArmChecks.preAlarmSound(options.ring.engine.preAlarm == nil ? nil : options.ring.preAlarmSoundPath, volume: preVolume,
                                                   mode: .oneOff, interrupt: { SignalChannel.pending() }).file
        } catch {
            throw cancelled(error)
        }

        // The message or the time, spoken now (espeak-ng), never at ring time.
        let speech: RingSpeech?
        if options.ring.say {
            let builtIn = options.ring.soundPath == nil ? [] : [try? DefaultSound.open()].compactMap { $0 }
            let text = SpeechClip.text(message: options.ring.message, at: deadline.instant, zone: zone)
            speech = try ArmChecks.speech(text, mode: .oneOff, sounds: [sound] + builtIn).speech
        } else {
            speech = nil
        }

        // Checked before anything is created: a refused alarm leaves nothing behind.
        let wake = try WakeSystemPlan.decide(options.wakeSystem)

        do { try ALSAEnvironment.check() } catch {
            throw WakeFailure(.unavailable, error.description)
        }
        // `--sink`: found among the server's sinks, by name or description; rung by its name.
        options.ring = try ArmChecks.sink(options.ring, mode: .oneOff).settings
        try ArmChecks.hooks(options.ring, config: options.config, given: options.given)
        if let warning = LightCheck.warning(options.ring.light) { console.error(warning) }
        let device: DeviceCheck.Report
        do {
            device = try DeviceCheck.run(options.ring.device, sound: sound, dryRun: options.dryRun, signals: signals)
        } catch {
            throw cancelled(error)
        }
        if let warning = device.warning { console.error(warning) }
        let mixer: MixerCheck.Report, notify: NotifySetup.Prepared
        do {
            mixer = try MixerCheck.run(device: options.ring.device, policy: options.ring.mixer, signals: signals)
            notify = try NotifySetup.prepare(options.notify, dryRun: options.dryRun, signals: signals)
        } catch {
            throw cancelled(error)
        }

        let log: EventLog?
        do {
            if options.dryRun, let path = options.eventsPath, path != "-", access(path, F_OK) != 0 {
                // A dry run creates nothing: a log that does not exist yet only needs a directory it can be made in.
                let slash = path.lastIndex(of: "/")
                let dir = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
                guard access(dir, W_OK | X_OK) == 0 else {
                    throw WakeFailure(.cantCreate, "cannot create the event log '\(path.printable)': the directory '\(dir.printable)' "
                        + "is missing or not writable; give a writable path or '-'")
                }
                log = nil
            } else if let path = options.eventsPath {
                log = try EventLog(path: path, zone: zone)
            } else {
                log = nil
            }
        } catch let error as WakeFailure {
            throw error
        } catch let error as EventLog.OpenError {
            throw WakeFailure(.cantCreate, error.description)
        } catch {
            throw WakeFailure(.cantCreate, "\(error)")
        }
        log?.onWriteFailure = { [console] message in console.error("warning: \(message); the alarm goes on without its event log") }

        let inhibitor = try takeInhibitor(options.inhibit, why: "alarm at \(Formatting.clockTime(deadline.instant, zone: zone))")

        if options.dryRun {
            inhibitor.release()
            printDryRun(options, deadline: deadline, now: now, zone: zone, sound: sound, list: checked, device: device, inhibitor: inhibitor, wake: wake,
                        mixer: mixer.text, speech: speech, console: console)
            console.result(NotifySetup.report(options.notify, notify) + options.source(["notify"]))
            return .done
        }

        // Hooks hear the log's events, so a log there is, written or not.
        let events = log ?? EventLog(listenersOnly: zone)
        // A sleep sound has nothing to snooze (`wake snooze`, SIGUSR1): every snooze is refused.
        var engine = options.ring.engine
        if options.sleep != nil { engine.snoozeLimit = 0 }
        let session: AlarmSession
        do {
            session = try AlarmSession(mode: .oneOff, zone: zone, console: console, log: events, signals: signals, inhibitor: inhibitor,
                                       alarmTimers: wake.alarmTimers, settings: engine)
        } catch {
            inhibitor.release()
            throw WakeFailure(.resource, "cannot set up the alarm: \(error); the system is short of a resource (raise 'ulimit -n' if it says too many open files)")
        }
        session.attach(ControlEndpoint())
        let hooks = options.ring.hooks
        session.attach(HookDispatcher(log: events, settings: { _ in hooks }, oneOffName: HookDispatcher.oneOffName))
        NotifySetup.start(notify, mode: options.notify, session: session, console: console)
        if options.ring.mpris != .off {
            let mode = options.ring.mpris
            session.attach(MediaPlayers(mode: { _ in mode }))
        }
        // A one-off rings once: its order is shuffled here, and nothing is remembered.
        var ring = options.ring.request(sound: sound, kind: options.ring.soundPath == nil ? .builtIn : .user, unpaced: options.unpaced,
                                        speech: speech, entries: checked.entries.shuffled())
        if let sleep = options.sleep {
            ring.fadeOut = sleep.fadeOut
            session.streamTitle = localized("Sleep timer")
            session.isSleepTimer = true
        }
        if mixer.notable { session.consoleObserver.mixerNote = "mixer: " + mixer.text }
        var setup = AlarmSetup(id: "alarm", deadline: deadline, resolvedAt: now, settings: engine, ring: ring,
                               message: options.ring.message)
        setup.light = options.ring.light
        if let pre = options.ring.engine.preAlarm { setup.preRing = ring.preRing(percent: pre.percent, lead: pre.lead, sound: preSound) }
        return session.run(setup, spec: options.spec, wake: wake)
    }

    /// The "never sleep" lock. Without it the alarm still works, but a suspend delays it: say so.
    static func takeInhibitor(_ mode: AlarmOptions.InhibitMode, why: String) throws(WakeFailure) -> InhibitorState {
        if mode == .off { return .off }
        do {
            let inhibitor = try SleepInhibitor()
            try inhibitor.inhibit(what: InhibitorState.what, who: "wake", why: why, mode: "block")
            return .held(inhibitor)
        } catch {
            if mode == .require {
                throw WakeFailure(.unavailable, "cannot keep the machine awake: \(error); is logind running? use --inhibit auto to ring anyway")
            }
            return .failed(error.description)
        }
    }

    /// Where `wake stop` and `wake list` will reach the alarm, or why they will not.
    static func controlReport() -> String {
        do {
            let dir = try ControlDirectory.prepare(create: false) ?? ControlDirectory.path()
            return localized("{directory} ('wake list', 'wake stop' and 'wake snooze' reach the alarm from any shell)", dir.printable)
        } catch {
            return localized("not possible: {reason}; the alarm still rings and stops by key or signal", "\(error)")
        }
    }

    static func printDryRun(_ options: AlarmOptions, deadline: Deadline, now: ClockReading, zone: TimeZoneRules, sound: SoundFile,
                            list: ArmChecks.Sound? = nil,
                            device: DeviceCheck.Report, inhibitor: InhibitorState, wake: WakeSystemPlan, mixer: String, speech: RingSpeech?,
                            console: Console) {
        let wait = deadline.instant - now.realtime
        let settings = options.ring.engine
        func from(_ keys: AlarmOption...) -> String { options.source(keys.map(\.name)) }
        console.result(localized("wake time: {instant}", Formatting.iso8601(deadline.instant, zone: zone)))
        if let m = options.ring.message { console.result(localized("message: {message}", TerminalText.escape(m))) }
        if let note = Formatting.gapNote(deadline, zone: zone) { console.result(localized("note: {note}", note)) }
        console.result(localized("zone: {zone} ({abbreviation})", zone.name.printable,
                                 zone.localType(atUTC: deadline.instant.seconds).abbreviation.printable))
        console.result(localized("clock: {clock}", deadline.clock.rawValue))
        console.result(localized("wait: {seconds} s ({span})", String(max(0, wait.secondsRoundedUp)), Formatting.span(wait)))
        if let list, let collection = list.collection {
            let refused = list.refused.map { $0.split(separator: "/").last.map(String.init) ?? $0 }
            // The parenthesis's items, each whole: how many entries, how many refused (named), how many other files ignored.
            let entries = list.entries.count == 1 ? localized("1 entry") : localized("{count} entries", String(list.entries.count))
            let refusedText = refused.isEmpty ? ""
                : localized(", {count} refused: {files}", String(refused.count), refused.map(\.printable).joined(separator: ", "))
            let ignored = collection.ignored == 0 ? "" : collection.ignored == 1 ? localized(", 1 other file ignored")
                : localized(", {count} other files ignored", String(collection.ignored))
            console.result(localized("sound: {list} ({entries}{refused}{ignored})", collection.path.printable, entries, refusedText,
                                     ignored) + from(.sound))
        } else {
        console.result(localized("sound: {file} ({format}, {channels} ch, {rate} Hz, {length})", sound.path.printable, sound.formatName,
                                 String(sound.channels), String(sound.sampleRate), Formatting.seconds(sound.duration)) + from(.sound))
        }
        console.result(localized("device: {device} ({summary}): ", options.ring.device.printable, device.summary)
                       + (device.problem.map { localized("opens, but {problem}", $0) } ?? localized("ok")) + from(.device))
        console.result(localized("volume: {percent} %", String(options.ring.volume))
                       + (options.ring.fadeIn > .zero ? localized(", fading in over {span}", DurationText.format(options.ring.fadeIn)) : "")
                       + from(.volume, .fadeIn))
        console.result(localized("snooze: {span}", DurationText.format(settings.snooze))
                       + (settings.snoozeLimit.map { localized(", at most {count} times a ring", String($0)) } ?? "") + from(.snooze,
                                                                                                                             .snoozeLimit))
        let longGiven = options.ring.values[AlarmOption.snoozeLong.name] != nil
        console.result(localized("snooze long: {span}", DurationText.format(settings.snoozeLong))
                       + (longGiven ? from(.snoozeLong) : localized(" (twice the snooze, at most 12h)")))
        console.result(localized("ring for: {span}",
                                 settings.ringFor > .zero ? DurationText.format(settings.ringFor) : localized("until stopped"))
                       + from(.ringFor))
        let unattended = settings.unattended.describe(ringFor: settings.ringFor, snooze: settings.snooze, lateLimit: settings.lateLimit)
        console.result(localized("unattended: {rule}", unattended) + from(.unattended, .unattendedRounds))
        let escalation = settings.unattended.describeEscalation(volume: options.ring.volume, builtInAlready: options.ring.soundPath == nil)
        console.result(localized("escalate: {rule}", escalation) + from(.escalate))
        console.result((settings.checkUp > .zero
                        ? localized("""
                            check up: {span} after you stop it (a short quiet ring; unanswered within {window}, the alarm rings again)
                            """, DurationText.format(settings.checkUp), DurationText.format(Defaults.checkUpWindow))
                        : localized("check up: none")) + from(.checkUp))
        console.result((settings.lateLimit > .zero ? localized("late limit: {span}", DurationText.format(settings.lateLimit))
                                                   : localized("late limit: none (rings however late)")) + from(.lateLimit))
        console.result(localized("mixer: {mixer}", mixer) + from(.mixer, .minVolume))
        console.result(localized("mpris: {mode}", MediaPlayers.dryRunText(options.ring.mpris)) + from(.mpris))
        console.result((settings.challenge ? localized("""
                            challenge: math (a sum to solve on the terminal stops it; keys other than s, z and space, the notification \
                            and media keys do not; 'wake stop' and signals do)
                            """) : localized("challenge: off (any key stops)")) + from(.challenge))
        if let clip = speech?.clip {
            console.result(localized("say: \"{text}\" ({length} of speech after the first loop, then every {interval} of sound)",
                                     TerminalText.escape(clip.text), Formatting.seconds(clip.duration),
                                     DurationText.format(Defaults.speechInterval)) + from(.say))
        } else {
            console.result(localized("say: off") + from(.say))
        }
        if let pre = settings.preAlarm {
            let sound = options.ring.preAlarmSoundPath.map { localized("sound {file}", $0.printable) } ?? localized("the alarm's sound")
            let lead = DurationText.format(pre.lead), percent = String(pre.percent), volume = String(pre.volume(of: options.ring.volume))
            console.result((wait <= pre.lead
                            ? localized("""
                                pre-alarm: {lead} before, at {percent} % of the volume ({volume} %) (less than that is left: it starts \
                                at once), {sound}
                                """, lead, percent, volume, sound)
                            : localized("pre-alarm: {lead} before, at {percent} % of the volume ({volume} %), {sound}", lead, percent,
                                        volume, sound)) + from(.preAlarm, .preAlarmSound))
        } else {
            console.result(localized("pre-alarm: none") + from(.preAlarm))
        }
        // Every other ring option from the table, its label and value: an option added there is
        // said here with no edit. Those above have lines of their own, with what the checks found.
        let ownLines: Set<AlarmOption> = [.sound, .device, .volume, .fadeIn, .snooze, .snoozeLimit, .snoozeLong, .ringFor, .lateLimit,
                                          .unattended, .unattendedRounds, .escalate, .checkUp,
                                          .mixer, .minVolume, .mpris, .challenge, .say, .preAlarm, .preAlarmSound, .message]
        for (option, text) in options.ring.lines where !ownLines.contains(option) {
            console.result("\(option.label): \(text)" + from(option))
        }
        switch inhibitor {
        case .held:
            console.result(localized("inhibit: {mode} (logind granted the lock; released again)", options.inhibit.rawValue)
                           + from(.inhibit))
        case .failed(let reason):
            console.result(localized("inhibit: {mode} (not possible: {reason}; a suspend would delay the alarm)", options.inhibit.rawValue,
                                     reason) + from(.inhibit))
        case .off: console.result(localized("inhibit: off") + from(.inhibit))
        }
        console.result(localized("wake system: {how}", wake.dryRunText))
        if let events = options.eventsPath { console.result(localized("events: {file}", events == "-" ? "stdout" : events.printable)) }
        console.result(localized("control: {report}", controlReport()))
        console.result(localized("config: {file}", options.config.path.map { p in
            options.config.entries.isEmpty ? localized("{file} (none set)", p.printable) : p.printable } ?? localized("none")))
    }
}
