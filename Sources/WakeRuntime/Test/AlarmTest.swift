import WakeCore
import WakeEngine
import WakeSystem

/// `wake test [NAME] [--for 10s] [--full]`: rings an alarm's real path now and reports what
/// reached the output, so a person can prove tonight's alarm before going to bed.
///
/// The alarm is a standing one (`NAME`: its stored options over config.toml, read exactly as the
/// daemon reads them, `RingSettings.tolerating`), or, without a name, the ring options given
/// over config.toml, as `wake add` would take them (the one-off form, to try options before
/// adding them). Options given with a name override the stored ones (`wake test work -D null`).
///
/// It is rung by the same code as every alarm: the arm-time checks (`ArmChecks`, `DeviceCheck`,
/// `MixerCheck`, `NotifySetup`: a standing alarm's in the daemon's mode, so a sound that no
/// longer decodes rings the built-in one and a device that fails falls back, as at the alarm;
/// the one-off form's as `wake add`, refusing), then an `AlarmSession` with its control
/// endpoint, notifier and output, for `--for` (1s to 5m, default 10s). A key, `wake stop`, a
/// signal or the notification's Stop ends it earlier, as any ring; a snooze ends it too.
///
/// Quiet unless `--full`: a fixed 15 % gain (-16.5 dB; the alarm's own volume when that is
/// lower) without a fade-in, and the user's levels (the ALSA mixer, the sink) left as they are,
/// since raising a muted output at night is what would wake the house. wake's own stream on a
/// sound server is still unmuted and raised, as at every ring (it is wake's alone, and a mute
/// the server remembers for it is the silent case this test must find). What the guard does
/// at the alarm is said from the arm-time reading. With `--full`: the alarm's own volume and
/// crescendo, and the guard as at the alarm.
///
/// The report (`AlarmTestReport`) comes from wake's own counters (`OutputMeter`: the frames
/// each device or server stream accepted and the peak written), the ring's events, and a watch
/// on the sound server (`SoundServerWatch`: whether the server muted or corked wake's stream).
/// The result: `.done` when audible sound reached the output, `.failed(.noSound)` when nothing
/// audible did.
public enum AlarmTest {
    public static let defaultLength: Duration = .seconds(10)
    /// The lengths `--for` takes.
    public static let lengths: ClosedRange<Duration> = .seconds(1) ... .seconds(5 * 60)
    /// The quiet test's gain, in percent of full scale.
    public static let quietGain = 15
    /// How often the sound server is asked about wake's stream while it plays.
    static let watchEvery: Duration = .milliseconds(250)

    public struct Request {
        /// A standing alarm's name; nil for the one-off form.
        public var name: String?
        /// The ring options the command line gave, by long name without dashes (`volume`, `device`).
        public var commandLine: [String: String]
        /// `--for` as given; nil for the default.
        public var length: String?
        public var full: Bool
        public var json: Bool
        public var config: ConfigDefaults

        public init(name: String?, commandLine: [String: String], length: String?, full: Bool, json: Bool, config: ConfigDefaults) {
            self.name = name
            self.commandLine = commandLine
            self.length = length
            self.full = full
            self.json = json
            self.config = config
        }
    }

    /// What is rung, worked out from the request before anything is opened.
    struct Plan {
        var name: String?
        var ring: RingSettings
        /// Stored options the daemon would set aside (said as warnings; the test rings as the daemon would).
        var adjustments: [RingSettings.Adjustment]
        var length: Duration
        var full: Bool
        var notify: AlarmOptions.NotifyMode

        /// The test's gain: the alarm's volume with `--full`, else the quiet gain (never louder than the alarm).
        var gain: Int { full ? ring.volume : min(AlarmTest.quietGain, ring.volume) }
        var fadeIn: Duration { full ? ring.fadeIn : .zero }
        /// The alarm's engine, whole (so a setting added to the table reaches the test), rung for
        /// the test's length, due now, however late; no pre-alarm, since the ring is now.
        var engine: AlarmEngine.Settings {
            var e = ring.engine
            e.lateLimit = .zero
            e.ringFor = length
            e.preAlarm = nil
            e.unattended.mode = .stop  // the test ends at its length, answered or not
            e.checkUp = .zero
            return e
        }
        /// The alarm's ring, whole, as the alarm makes it (`RingSettings.request`); quiet unless
        /// `--full`: the quiet gain, no fade, the user's levels left alone. A snooze ends the test,
        /// so the snooze volume is never rung here; it is said, quiet as the rest.
        func request(sound: SoundFile, kind: FallbackChain.Sound, speech: RingSpeech?, entries: [String]) -> RingRequest {
            var r = ring.request(sound: sound, kind: kind, speech: speech, entries: entries)
            r.volume = gain
            r.fadeIn = fadeIn
            r.leavesUserLevels = !full
            if !full { r.snoozeVolume = r.snoozeVolume.map { min(AlarmTest.quietGain, $0) } }
            return r
        }
        var subject: String { name.map { "alarm '\($0.printable)'" } ?? "the ring options given" }
        /// Whether the sound is the standing alarm's own, as stored (not one given on `wake test`'s command line).
        var soundIsStored: Bool
        /// How the sound is checked: a standing alarm's stored sound as the daemon loads it (a file
        /// gone or silent rings the built-in sound, said), so the test shows what the alarm would
        /// do; a sound given on the command line as `wake now -s` checks it, refused (66) when it
        /// cannot be used: the test was asked about that file, and ringing wake's own would pass it.
        var soundMode: ArmChecks.Mode {
            guard let name, soundIsStored else { return .oneOff }
            return .daemon(alarm: name)
        }
    }

    /// Reads the request: `--for`, the alarm's options (or the options given) over config.toml.
    /// `store` is where standing alarms are (nil: the user's).
    static func plan(_ request: Request, store: AlarmStore?) throws(WakeFailure) -> Plan {
        var length = defaultLength
        if let text = request.length {
            do { length = try DurationText.parse(text) } catch { throw WakeFailure(.usage, "--for: \(error.description)") }
            guard lengths.contains(length) else {
                throw WakeFailure(.usage, "--for \(text.printable) is out of range: a test rings for 1s to 5m; give a length in it, as --for 10s")
            }
        }
        let notify = try AlarmOptions.notifyMode(request.config.layered(.notify, over: AlarmOption.notify.defaultText ?? "auto", given: []))
        // What the command line gave is checked as the command line checks it: refused, never set aside.
        for key in request.commandLine.keys.sorted() {
            guard let option = AlarmOption.named(key), let value = request.commandLine[key] else { continue }
            if case .failure(let problem) = option.parse(value) { throw WakeFailure(.usage, problem.message) }
        }
        guard let name = request.name else {
            var values = request.config.values(for: ConfigDefaults.ringKeys)
            for (key, value) in request.commandLine { values[key] = value }
            return Plan(name: nil, ring: try RingSettings(values: values), adjustments: [], length: length, full: request.full,
                        notify: notify, soundIsStored: false)
        }
        let standing: AlarmStore
        if let store { standing = store } else { standing = try userStore() }
        let alarms: [StandingAlarm]
        do { alarms = try standing.load() } catch { throw StandingAlarmActions.storeError(error) }
        guard let alarm = alarms.first(where: { $0.name == name }) else { throw StandingAlarmActions.unknown(name) }
        // The stored options as the daemon reads them, less those the command line replaces; then
        // the command line's over them, checked together as the command line's own.
        let read = try RingSettings.tolerating(stored: alarm.options.filter { request.commandLine[$0.key] == nil }, defaults: request.config)
        var ring = read.settings
        if !request.commandLine.isEmpty {
            var values = ring.values
            for (key, value) in request.commandLine { values[key] = value }
            ring = try RingSettings(values: values)
        }
        return Plan(name: name, ring: ring, adjustments: read.adjustments, length: length, full: request.full, notify: notify,
                    soundIsStored: request.commandLine[AlarmOption.sound.name] == nil)
    }

    /// The user's standing alarms.
    static func userStore() throws(WakeFailure) -> AlarmStore {
        do { return try AlarmStore.standard() } catch { throw StandingAlarmActions.storeError(error) }
    }

    /// Runs the test and prints its report (or its JSON on stdout).
    public static func run(_ request: Request, console: Console, signals: SignalChannel, store: AlarmStore? = nil) throws(WakeFailure) -> CommandResult {
        var plan = try plan(request, store: store)
        var warnings: [String] = []
        func warn(_ line: String) {
            console.error("warning: " + line)
            warnings.append(line)
        }
        for a in plan.adjustments { warn(a.line(alarm: plan.name ?? "")) }
        let (zone, zoneWarning) = ZoneLoader.local()
        if let zoneWarning { console.error("warning: " + zoneWarning) }

        // The sound, decoded and judged at the alarm's own volume, as when it was set; a standing
        // alarm's stored one as the daemon loads it (`soundMode`).
        let sound = try ArmChecks.sound(plan.ring.soundPath, volume: plan.ring.volume, mode: plan.soundMode,
                                        interrupt: { SignalChannel.pending() }, builtIn: DefaultSound.open)
        if let w = sound.warning { warn(w) }
        for w in sound.warnings { console.error(w.hasPrefix("warning: ") ? w : "warning: " + w) }

        do { try ALSAEnvironment.check() } catch { throw WakeFailure(.unavailable, error.description) }
        // `--sink`, found as `wake add` finds it (a standing alarm's as the daemon rings it).
        let placed = try ArmChecks.sink(plan.ring, mode: plan.name.map { .daemon(alarm: $0) } ?? .oneOff)
        if let w = placed.warning { warn(w) }
        plan.ring = placed.settings
        // The device, probed as `wake add` probes it. The one-off form refuses one that fails, as
        // `wake add` would; a standing alarm is rung anyway: at the alarm the fallback chain takes
        // over, and the test shows where the sound lands.
        do throws(WakeFailure) {
            let device = try DeviceCheck.run(plan.ring.device, sound: sound.file, dryRun: false, signals: signals)
            if let problem = device.problem { warn(problem + "; at ring time wake falls back to each sound card, then the terminal bell") }
        } catch {
            guard plan.name != nil, error.signal == nil else { throw error }
            warn(error.message + "; at the alarm wake falls back to other devices, and so does this test")
        }
        let mixer = try MixerCheck.run(device: plan.ring.device, policy: plan.ring.mixer, signals: signals)
        let notify = try NotifySetup.prepare(plan.notify, dryRun: false, asksServer: true, signals: signals)

        let now = SystemClock.now()
        let deadline: Deadline
        do { deadline = try Schedule.resolve(.now, token: "now", now: now.realtime, zone: zone) } catch {
            throw WakeFailure(.usage, error.description)
        }
        let events = EventLog(listenersOnly: zone)
        let session: AlarmSession
        do {
            session = try AlarmSession(mode: .oneOff, zone: zone, console: console, log: events, signals: signals, inhibitor: .off,
                                       alarmTimers: nil, settings: plan.engine)
        } catch {
            throw WakeFailure(.resource, "cannot set up the test: \(error); the system is short of a resource (raise 'ulimit -n' if it says too many open files)")
        }
        let recorder: TestRecorder
        do {
            recorder = try TestRecorder(watchEvery: watchEvery) { [unowned session] in session.meter.attempts.last?.serverBacked ?? false }
        } catch {
            throw WakeFailure(.resource, "cannot set up the test: \(error); the system is short of a resource (raise 'ulimit -n' if it says too many open files)")
        }
        session.attach(ControlEndpoint())
        // The morning's hooks too, told it is a test (WAKE_TEST=1), under the alarm's own name.
        let hooks = plan.ring.hooks
        let dispatcher = HookDispatcher(log: events, settings: { _ in hooks }, oneOffName: plan.name ?? HookDispatcher.oneOffName,
                                        test: true)
        session.attach(dispatcher)
        let notifier = NotifySetup.start(notify, mode: plan.notify, session: session, console: console)
        session.attach(recorder)
        if plan.ring.mpris != .off {
            // The alarm's real path: its media player too, so a test shows what a desktop will.
            let mode = plan.ring.mpris
            session.attach(MediaPlayers(mode: { _ in mode }))
        }
        let level = plan.full ? "at its own level" : "quietly (\(plan.gain) % gain)"
        session.consoleObserver.testing = "\(plan.subject) \(level) for \(DurationText.format(plan.length)) on '\(plan.ring.device.printable)'"

        // `--say on`: spoken as at the alarm; without espeak-ng the test rings without it and says so.
        var speech: RingSpeech?
        if plan.ring.say {
            let spoken = try ArmChecks.speech(SpeechClip.text(message: plan.ring.message, at: deadline.instant, zone: zone),
                                              mode: .daemon(alarm: plan.name ?? "test"), sounds: [sound.file])
            if let warning = spoken.warning { warn(warning) }
            speech = spoken.speech
        }
        let ring = plan.request(sound: sound.file, kind: sound.kind, speech: speech, entries: sound.entries.shuffled())
        let setup = AlarmSetup(id: "test", deadline: deadline, resolvedAt: now, settings: plan.engine, ring: ring, message: plan.ring.message)
        let result = session.run(setup, spec: .now, wake: WakeSystemPlan(mode: .off, alarmTimers: nil, clocks: [], warning: nil),
                                 label: "test" + (plan.name.map { " of '\($0)'" } ?? ""))

        var report = makeReport(plan, sound: sound, result: result, recorder: recorder, meter: session.meter, mixer: mixer,
                                notify: notify, notifier: notifier, warnings: warnings)
        // The session has stopped its hooks by now (each run ended, or given up on after a moment).
        report.hooks = dispatcher.runs
        report.hookRefusals = dispatcher.refusals
        if request.json { console.answer(report.json) } else { console.results(report.lines) }
        switch (result, report.verdict) {
        case (.endedBySignal, _), (.failed, _): return result
        case (_, .reached): return .done
        case (_, .nothingAudible): return .failed(.noSound)
        }
    }

    /// The report, from what the checks, the ring and the output's counters found.
    static func makeReport(_ plan: Plan, sound: ArmChecks.Sound, result: CommandResult, recorder: TestRecorder, meter: OutputMeter,
                           mixer: MixerCheck.Report, notify: NotifySetup.Prepared, notifier: DesktopNotifier?,
                           warnings: [String]) -> AlarmTestReport {
        let ending: AlarmTestReport.Ending
        switch (recorder.outcome, result) {
        case (_, .endedBySignal(let signal)): ending = .interrupted("ended by \(SignalChannel.name(of: signal))")
        case (_, .failed): ending = .interrupted("the event loop failed")
        case (.timedOut?, _): ending = .time
        case (.stopped?, _) where recorder.snoozed: ending = .snoozed
        case (.stopped(let who)?, _), (.upAlready(let who)?, _): ending = .stopped(by: who.description)
        case (.failed(let why)?, _): ending = .failed(why)
        case (.cancelled(let who)?, _): ending = .interrupted("cancelled by \(who.description) before it rang")
        case (.missed?, _), (nil, _): ending = .interrupted("it never rang")
        }
        let rang = recorder.ringStarted.flatMap { start in recorder.ended.map { $0.boottime - start.boottime } }
        var stream: AlarmTestReport.Stream?
        let windows = meter.attempts.filter(\.serverBacked).compactMap { a in a.firstFrame.map { (from: $0, to: a.stopRequested) } }
        if recorder.watch != nil || recorder.watchProblem != nil || !windows.isEmpty {
            let samples = recorder.watch?.samples ?? []
            stream = AlarmTestReport.Stream(looks: AlarmTestReport.Stream.looks(samples, windows: windows), interval: watchEvery,
                                            unreachable: recorder.watchProblem ?? recorder.watch?.failure,
                                            sinkExcused: !plan.full && plan.ring.mixer != .off)
        }
        let reportedMixer = AlarmTestReport.Mixer(
            policy: plan.ring.mixer, leftAlone: !plan.full, found: mixer.text, reading: mixer.reading, raised: recorder.raised,
            restored: recorder.restored.map { "'\($0.mixer.printable)' to \($0.to.summary)" + ($0.keptChanges ? " (what was changed while ringing kept)" : "") },
            problems: recorder.mixerProblems)
        let notification = AlarmTestReport.Notification(
            mode: plan.notify, shown: notifier?.shown ?? false, server: notify.server.map { "\($0.name) \($0.version)" },
            buttons: notify.server?.hasActions, why: notify.unavailable ?? notifier?.notShown)
        return AlarmTestReport(
            subject: plan.subject, name: plan.name, full: plan.full, length: plan.length, gain: plan.gain, fadeIn: plan.fadeIn,
            alarmVolume: plan.ring.volume, alarmFadeIn: plan.ring.fadeIn, requestedDevice: plan.ring.device,
            soundPath: plan.ring.soundPath, soundKind: sound.kind, message: plan.ring.message, attempts: meter.attempts,
            opened: recorder.opened, fallbacks: recorder.fallbacks, bell: recorder.bell, silent: recorder.silent, ending: ending,
            rang: rang, stream: stream, mixer: reportedMixer, notification: notification, warnings: warnings,
            settings: plan.ring.lines, settingTexts: plan.ring.values)
    }
}
