import WakeCore
import WakeSystem

/// `wake sleep SPAN` (issue 56): the sound now, through the alarm's own sound path (its
/// fallbacks down to the bell, `-D`, `--sink`, `wake stop`), at a gentle volume, fading away over
/// its last minute, with no notification, no media player and no mixer guard (a sleep sound
/// never raises the speakers). A key or `wake stop` ends it at once; its span run out, `--then`
/// suspends or powers off through logind, and only when that silences no alarm: said at the
/// start, when it would not, and again at the end, where it stays awake.
public enum SleepTimerAction {
    /// What the command line gave.
    public struct Request {
        public var span: String
        public var sound: String?
        public var device: String?
        public var sink: String?
        public var volume: String?
        public var then: String
        public var events: String?
        public var unpaced: Bool
        public init(span: String, sound: String?, device: String?, sink: String?, volume: String?, then: String, events: String? = nil,
                    unpaced: Bool = false) {
            self.span = span; self.sound = sound; self.device = device; self.sink = sink; self.volume = volume; self.then = then
            self.events = events
            self.unpaced = unpaced
        }
    }

    public static func run(_ r: Request, console: Console, signals: SignalChannel) throws(WakeFailure) -> CommandResult {
        func usage(_ message: String) -> WakeFailure { WakeFailure(.usage, message) }
        if r.span.hasPrefix("+") { return try extend(r, console: console) }
        let span: Duration
        switch SleepTimer.span(r.span) { case .success(let d): span = d; case .failure(let p): throw usage(p.message) }
        let then: SleepTimer.After
        switch SleepTimer.after(r.then) { case .success(let a): then = a; case .failure(let p): throw usage(p.message) }
        let timer = SleepTimer(span: span, then: then)
        if let action = action(then) { try checkLogind(action) }
        if let why = SleepTimer.refusal(then, next: nextAlarm(console: console)) { console.error("warning: " + why) }

        // The ring options a sleep sound rings with, checked as the alarm's are; config.toml's
        // alarm settings are the alarms' own, not the night's.
        var values: [String: String] = [
            AlarmOption.volume.name: r.volume ?? String(SleepTimer.defaultVolume),
            AlarmOption.fadeIn.name: DurationText.format(timer.fadeIn),
            AlarmOption.ringFor.name: DurationText.format(span),
            AlarmOption.mixer.name: "off", AlarmOption.mpris.name: "off", AlarmOption.unattended.name: "stop",
            AlarmOption.lateLimit.name: "0",
        ]
        if let s = r.sound { values[AlarmOption.sound.name] = s }
        if let d = r.device { values[AlarmOption.device.name] = d }
        if let s = r.sink { values[AlarmOption.sink.name] = s }
        var options = try AlarmOptions(when: ["now"], dryRun: false, quiet: true, ring: try RingSettings(values: values), events: r.events,
                                       unpaced: r.unpaced, inhibit: "off", wakeSystem: false, noWakeSystem: true, notify: "off")
        options.sleep = timer
        let sound = r.sound.map { "'\($0.printable)'" } ?? localized("wake's built-in sound")
        let (length, volume, fade) = (DurationText.format(span), String(options.ring.volume), DurationText.format(timer.fade))
        switch then {
        case .stay:
            console.info(localized("""
                sleep timer: {sound} for {span} at {percent} %, fading away over its last {fade}; a key or 'wake stop' ends it
                """, sound, length, volume, fade))
        case .suspend:
            console.info(localized("""
                sleep timer: {sound} for {span} at {percent} %, fading away over its last {fade}; then suspend; a key or 'wake stop' ends it
                """, sound, length, volume, fade))
        case .off:
            console.info(localized("""
                sleep timer: {sound} for {span} at {percent} %, fading away over its last {fade}; then power off; \
                a key or 'wake stop' ends it
                """, sound, length, volume, fade))
        }
        let result = try OneOffAlarm.arm(options, console: console.quieted, signals: signals)
        guard case .rang(.timedOut) = result else {
            if case .rang = result {
                console.info(localized("sleep timer: stopped"))
                return .done
            }
            return result
        }
        guard let action = action(then) else {
            console.info(localized("sleep timer: ended"))
            return .done
        }
        // Looked at again: an alarm may have been added while it played.
        if let why = SleepTimer.refusal(then, next: nextAlarm(console: console)) {
            console.error(localized("sleep timer: ended; {why}", why))
            return .done
        }
        console.info(action == .suspend ? localized("sleep timer: ended; suspending") : localized("sleep timer: ended; powering off"))
        if case .failure(let e) = LogindPower.request(action) {
            throw WakeFailure(.unavailable, action == .suspend ? localized("sleep timer: logind refused to suspend: {reason}", "\(e)")
                                                               : localized("sleep timer: logind refused to power off: {reason}", "\(e)"))
        }
        return .done
    }

    /// `wake sleep +15m`: every sleep timer of the user's plays that much longer (its fade moves
    /// with its end); a line each, with when it now ends.
    static func extend(_ r: Request, console: Console) throws(WakeFailure) -> CommandResult {
        guard r.sound == nil, r.device == nil, r.sink == nil, r.volume == nil, r.then == SleepTimer.After.stay.rawValue else {
            throw WakeFailure(.usage, localized("""
                +SPAN gives a running sleep timer more time and takes no other option; give them when you start one
                """))
        }
        let span: Duration
        switch SleepTimer.span(String(r.span.dropFirst())) {
        case .success(let d): span = d
        case .failure(let p): throw WakeFailure(.usage, p.message)
        }
        let records = try ControlActions.ask(.extendSleep(span), in: try ControlActions.directory(), console: console)
        let done = records.filter { $0["kind"] == "done" && $0["action"] == "extended" }
        guard !done.isEmpty else {
            throw WakeFailure(.nothingMatched, localized("no sleep timer is playing; start one with 'wake sleep {span}'",
                                                         DurationText.format(span)))
        }
        let zone = console.localZone()
        for record in done {
            let pid = (record["pid"] ?? "?").printable, more = DurationText.format(span)
            if let until = record.instant("until") {
                let time = Formatting.clockTime(until, zone: zone)
                console.result(localized("sleep timer (pid {pid}): {span} more, until {time}", pid, more, time))
            } else {
                console.result(localized("sleep timer (pid {pid}): {span} more", pid, more))
            }
        }
        return .done
    }

    static func action(_ then: SleepTimer.After) -> LogindPower.Action? {
        switch then {
        case .stay: nil
        case .suspend: .suspend
        case .off: .powerOff
        }
    }

    /// `--then` needs logind to answer that it may: else 69 at once, before anything plays.
    static func checkLogind(_ action: LogindPower.Action) throws(WakeFailure) {
        let suspend = action == .suspend
        switch LogindPower.can(action) {
        case .failure(let e):
            throw WakeFailure(.unavailable, suspend
                ? localized("--then needs logind to suspend the machine, and it cannot be asked ({reason}); leave --then out", "\(e)")
                : localized("--then needs logind to power off the machine, and it cannot be asked ({reason}); leave --then out", "\(e)"))
        case .success(let answer) where answer != "yes":
            throw WakeFailure(.unavailable, suspend
                ? localized("--then: logind will not let this session suspend the machine (its answer: '{answer}'); leave --then out",
                            answer.printable)
                : localized("""
                    --then: logind will not let this session power off the machine (its answer: '{answer}'); leave --then out
                    """, answer.printable))
        case .success:
            return
        }
    }

    /// The next alarm of every standing one and running one-off (this process's own sound left
    /// out), and whether the RTC wakes a suspended machine for it; nil when none will ring.
    static func nextAlarm(console: Console) -> SleepTimer.NextAlarm? {
        guard let context = try? StandingContext.standard(),
              let o = try? StandingAlarmActions.overview(console: Console(capturing: Console.LineCapture()), in: context) else {
            return nil
        }
        let me = CurrentProcess.id
        let next = o.entries.filter { $0.pid != me && $0.next != nil }.min { ($0.next ?? o.now) < ($1.next ?? o.now) }
        guard let next, let at = next.next else { return nil }
        let time = Formatting.clockTime(at, zone: o.zone)
        return SleepTimer.NextAlarm(title: next.standing == nil ? time : "\(time) (\(next.id))", wakesMachine: next.wakesSystem == true)
    }
}
