import WakeCore
import WakeEngine
import WakeSystem

/// The human side of the event stream: one line per thing a sleeper needs to know. Information
/// goes to stdout (or stderr with `--events -`), problems always to stderr.
public final class ConsoleObserver: RuntimeObserver {
    private let console: Console
    /// The local zone times are said in; the session changes it when the machine's does.
    var zone: TimeZoneRules
    /// Each alarm's engine settings (its ring-for and late limit are quoted).
    var settings: (String) -> AlarmEngine.Settings
    /// Whether keys can reach wake now (stdin a terminal, wake in the foreground): the hints
    /// about keys are shown only then.
    var keysReadable: () -> Bool = { false }
    /// The text of an alarm's deadline (`07:00`), for the ringing and missed lines.
    var deadlineText: (String) -> String = { _ in "" }
    /// How a line names an alarm (`'work' `) when a process holds several; empty for a one-off.
    var alarmName: (String) -> String = { _ in "" }
    /// An alarm's `--message`, said at the end of its armed and ringing lines.
    var message: (String) -> String? = { _ in nil }
    /// A folder or list as the sound: the file an alarm's ring plays first, named in its ringing line.
    var soundChoice: (String) -> String? = { _ in nil }
    /// The snoozes an alarm's occurrence has used, of its `--snooze-limit`: said in its ringing
    /// and snoozed lines when it has a limit.
    var snoozes: (String) -> SnoozeCount = { _ in SnoozeCount() }
    /// Said once when the alarm is set, if a daylight-saving gap moved the time.
    var gapNote: String?
    /// Said once when the alarm is set, if the output is muted or quiet (what the guard will do).
    var mixerNote: String?
    /// A `wake test` ring: its own words for what a test is (`alarm 'work', quiet`), no armed
    /// line, and a snooze and the end of `--for` said as the end of the test.
    var testing: String?
    /// The `--challenge` sum an alarm asks now, if any: said in its ringing line.
    var challenge: (String) -> String? = { _ in nil }
    private(set) var lastRingingLine: String?
    private var lastRinging = ""
    /// The ringing line around what it says plays: said again, naming the new sound, when a
    /// folder's or list's file fails (redrawn) or none of them plays (said at once).
    private var ringingParts: (head: String, tail: String)?
    /// Alarms whose ringing line has just said their sum (its `challenge` event says nothing
    /// more), and those snoozed now (a key's ignored stop is explained as such).
    private var asked: Set<String> = []
    private var snoozedNow: Set<String> = []
    /// The round each alarm's occurrence reached unanswered (`--unattended`), for its last line.
    private var rounds: [String: Int] = [:]

    init(console: Console, zone: TimeZoneRules, settings: AlarmEngine.Settings) {
        self.console = console
        self.zone = zone
        self.settings = { _ in settings }
    }

    private func clock(_ i: Instant) -> String { Formatting.clockTime(i, zone: zone) }

    public func observe(_ event: RuntimeEvent) {
        switch event.kind {
        case .armed where testing != nil:
            break
        case .armed(_, let wall):
            // "alarm set for 07:00 tomorrow, in 7h 12m (2026-11-24T07:00:00+01:00)": the day and
            // the wait a sleeper checks, then the exact instant.
            let why = event.reason == "zone" ? localized("the time zone is now {zone}: ", zone.name.printable) : ""
            let set = localized("alarm {name}set for {when} ({instant})", alarmName(event.alarm),
                                Formatting.ringsAt(wall, now: event.time.realtime, zone: zone), Formatting.iso8601(wall, zone: zone))
            console.info(why + set + AlarmMessage.suffix(message(event.alarm)) + (keysReadable() ? localized("; q cancels") : ""))
            if let gapNote { console.info(gapNote) }
            if let mixerNote { console.info(mixerNote) }
        case .ringStarted where testing != nil:
            let line = "TESTING: \(testing ?? "")" + AlarmMessage.suffix(message(event.alarm)) + "."
            lastRingingLine = line
            lastRinging = event.alarm
            asked.insert(event.alarm)
            console.info(line + keysHint(event.alarm))
        case .ringStarted(let late):
            let lateText = late > .seconds(1) ? localized(", {span} late", Formatting.lateness(late)) : ""
            let count = snoozes(event.alarm).ofLimit.map { localized(", snoozed {count}", $0) } ?? ""
            let parts = (head: localized("RINGING: alarm {name}for {time}", alarmName(event.alarm),
                                         deadlineText(event.alarm)) + lateText + count,
                         tail: AlarmMessage.suffix(message(event.alarm)) + ".")
            ringingParts = parts
            let line = parts.head + (soundChoice(event.alarm).map { localized(", playing '{file}'", $0.printable) } ?? "") + parts.tail
            lastRingingLine = line
            lastRinging = event.alarm
            asked.insert(event.alarm)
            snoozedNow.remove(event.alarm)
            console.info(line + keysHint(event.alarm))
        case .ringing:
            break
        case .preRingStarted(let main):
            console.info(localized("pre-alarm: ringing quietly before the alarm {name}at {time}", alarmName(event.alarm), clock(main))
                         + (keysReadable() ? localized("""
                             . Any key stops it (the alarm stays set); u if you are up already (skips the alarm).
                             """) : ""))
        case .sunrise(_, let main):
            console.info(localized("sunrise: the screen brightens until the alarm {name}at {time}", alarmName(event.alarm), clock(main)))
        case .preRingStopped(let who, let main):
            console.info(localized("pre-alarm {name}stopped by {who}; the alarm stays set for {time}", alarmName(event.alarm),
                                   who.description,
                                   clock(main)) + (keysReadable() ? localized(" (u if you are up already: skips it)") : ""))
            lastRingingLine = nil
            console.info("snoozed: the test ends here (at the alarm, a snooze silences it for \(DurationText.format(settings(event.alarm).snooze)))")
        case .snoozed(_, .unattended):
            // Its `unanswered` line said when it rings again, and which round.
            lastRingingLine = nil
            snoozedNow.insert(event.alarm)
        case .checkUp(.set(let at, let who)):
            lastRingingLine = nil
            snoozedNow.insert(event.alarm)  // a key ignored under --challenge is explained as for a snooze
            console.info(localized("{name}stopped by {who}; at {time} it asks once more whether you are up", alarmName(event.alarm),
                                   who.description, clock(at)))
        case .checkUp(.asking(let until)):
            let answer = settings(event.alarm).challenge ? localized("solve the sum")
                : keysReadable() ? localized("press any key") : "'wake stop'"
            console.info(localized("{name}are you up? {answer} by {time}, or the alarm rings again", alarmName(event.alarm), answer,
                                   clock(until)))
        case .checkUp(.unanswered):
            console.info(localized("{name}no answer: the alarm rings again", alarmName(event.alarm)))
        case .unanswered(let news, let next):
            rounds[event.alarm] = news.round
            let until = next.map { Formatting.clockTimeAndDay($0, now: event.time.realtime, zone: zone) }
            console.info("\(alarmName(event.alarm))" + news.text(until: until)
                         + (news.mode == .snooze ? " (--unattended snooze; any key stops it then)" : ""))
        case .snoozed(let until, let who):
            lastRingingLine = nil
            snoozedNow.insert(event.alarm)
            let untilText = Formatting.clockTimeAndDay(until, now: event.time.realtime, zone: zone)
            // A program on the bus is named (any program may send it; the person at the keys knows their key).
            let by: String
            switch who {
            case .mediaControl, .busAPI: by = localized(" by {who}", who.description)
            default: by = ""
            }
            console.info(localized("{name}{snoozed} until {time}", alarmName(event.alarm), snoozes(event.alarm).snoozed, untilText) + by)
        case .finished(let outcome):
            lastRingingLine = nil
            snoozedNow.remove(event.alarm)
            report(outcome, alarm: event.alarm)
            rounds[event.alarm] = nil
        case .clockChanged:
            console.info(localized("the clock changed or the machine resumed: now {time}", clock(event.time.realtime)))
        case .suspended:
            break
        case .resumed(let slept):
            if slept > .zero {
                console.info(localized("the machine was suspended for {span}; now {time}", Formatting.span(slept),
                                       clock(event.time.realtime)))
            }
        case .ignored(let command, let who):
            guard case .key(let k) = who else { break }
            if settings(event.alarm).challenge, let question = challenge(event.alarm) {
                // Never a silent no: the key was read, and what would stop it is said.
                console.info("a key does not stop this alarm: solve \(question) and press Enter" + snoozeHint(event.alarm))
            } else if settings(event.alarm).challenge, snoozedNow.contains(event.alarm) {
                console.info("\(alarmName(event.alarm))snoozed: a key does not stop it; solve the sum when it rings again, or run 'wake stop'")
            } else if command == .stop, k != "enter" {
                console.info(localized("waiting for the alarm; press q to cancel it"))
            }
        case .snoozeRefused(let count, _):
            // Never a silent no: the sleeper pressed snooze and the alarm goes on.
            let stop = settings(event.alarm).challenge ? localized("solve the sum to stop it") : localized("stop it with any other key")
            console.info(alarmName(event.alarm) + count.refusal + ": "
                         + (keysReadable() ? stop : localized("it rings until stopped ('wake stop')")))
        case .challenge(let question):
            // The ringing line said the first sum; a fresh one after a wrong answer is said here.
            if asked.remove(event.alarm) == nil, keysReadable() {
                console.info("solve \(question) and press Enter to stop" + snoozeHint(event.alarm))
            }
        case .challengeWrong(let question, let answer):
            console.info("\(alarmName(event.alarm))wrong: \(answer.printable) is not \(question); still ringing")
        case .problem(let reason):
            console.error(reason)
        case .sound(.builtInChosen):
            // Every file of the folder or list failed: the ringing line named one that never
            // played; it is said again with what rings.
            guard let parts = ringingParts, lastRingingLine != nil, lastRinging == event.alarm else { break }
            let line = parts.head + ", playing wake's built-in sound (no file of the folder or list could be played)" + parts.tail
            lastRingingLine = line
            console.info(line + keysHint(event.alarm))
        case .sound(let output):
            sound(output)
            if case .entryFailed(_, let next, _) = output, let parts = ringingParts, lastRingingLine != nil, lastRinging == event.alarm {
                lastRingingLine = parts.head + ", playing '\(next.printable)'" + parts.tail  // what a redraw says
            }
        }
    }

    /// After Ctrl-Z and `fg` while ringing: the screen was the shell's; say again what is going on.
    func redrawRinging() {
        guard let line = lastRingingLine, console.showsStatus else { return }
        console.info(line + keysHint(lastRinging))
    }

    /// What the keys do while `alarm` rings, when they reach wake: no snooze once they are used up.
    /// Under `--challenge`, the sum and how to answer it; with no keys, what still stops it.
    private func keysHint(_ alarm: String) -> String {
        if let question = challenge(alarm) {
            guard keysReadable() else { return " Challenge: the notification and media keys snooze; 'wake stop' stops it." }
            return " Solve \(question) and press Enter to stop" + snoozeHint(alarm)
        }
        guard keysReadable() else { return "" }
        return snoozes(alarm).isUsedUp ? localized(" Any key stops; no snoozes left.") : localized(" Any key stops; s, z or space snoozes.")
    }

    /// `; s, z or space snoozes.`, or that none is left.
    private func snoozeHint(_ alarm: String) -> String {
        snoozes(alarm).isUsedUp ? localized("; no snoozes left.") : localized("; s, z or space snoozes.")
    }

    private func sound(_ event: OutputEvent) {
        switch event {
        case .opened(let device, let format, let paced):
            console.info(paced ? localized("ringing on '{device}' ({format}, paced: the device has no clock)", device.printable, format)
                               : localized("ringing on '{device}' ({format})", device.printable, format))
        case .audible, .recovered, .stopped:
            break
        case .fallback(let from, let to, let reason):
            let next: String
            if to == from { next = "reopening it" }
            else if to == "bell" { next = "ringing the terminal bell" }
            else if to.hasPrefix("built-in sound on ") { next = "trying wake's \(to.printable)" }
            else { next = "trying '\(to.printable)'" }
            console.error("sound on '\(from.printable)' failed (\(reason)); \(next)")
        case .bell:
            console.error(localized("NO SOUND DEVICE WORKS: RINGING THE TERMINAL BELL INSTEAD"))
        case .failed(let reason):
            console.error("could not make any sound: \(reason)")
        case .mixerRaised(let mixer, let from, let to):
            let how = from.levels.isMuted ? ((from.percent ?? 100) < (to.percent ?? 100) ? "unmuted and raised to" : "unmuted at") : "raised to"
            console.info("the output was \(from.levels.isMuted ? "muted" : "turned down") (\(from.volumeSummary) on '\(mixer.printable)'): "
                         + "\(how) \(to.percent ?? 100) % while ringing")
        case .mixerRestored(let mixer, let to, let kept):
            console.info("the mixer '\(mixer.printable)' is back as it was (\(to.summary))" + (kept ? "; what was changed while ringing is kept" : ""))
        case .mixerProblem(let reason):
            console.error("warning: " + reason)
        case .sinkMoved(let chosen, let to, let description, let gone):
            let shown = SinkChoice.Listed(name: to, description: description).shown
            if to == chosen { console.error("the sink '\(chosen.printable)' is back: ringing on it") }
            else if gone { console.error("the sink '\(chosen.printable)' is gone: ringing on '\(shown)' instead") }
            else { console.error("the sound server moved the alarm from the sink '\(chosen.printable)' to '\(shown)': ringing there") }
        case .backFromBell(let device):
            console.error("SOUND IS BACK on '\(device.printable)': the bell stops")
        case .silent(let reason, let retry):
            console.error("NO SOUND: \(reason); trying the devices again every \(Formatting.span(retry)) while the alarm rings")
        case .silentStep(let device, let reason):
            console.error("still no sound: '\(device.printable)' failed (\(reason))")
        case .stillSilent(let tries, let span):
            console.error("still no sound after \(Formatting.span(span)) (\(tries) tries); trying again")
        case .backFromSilent(let device, let tries, let span):
            console.error("SOUND IS BACK on '\(device.printable)' after \(Formatting.span(span)) without sound (\(tries) tries)")
        case .soundChosen, .builtInChosen:
            break  // named in the ringing line, or by the failure that led to it
        case .entryFailed(let path, let next, let reason):
            console.error("sound file '\(path.printable)' failed (\(reason)); playing '\(next.printable)' instead")
        }
    }

    private func report(_ outcome: Outcome, alarm: String) {
        let name = alarmName(alarm)
        switch outcome {
        case .stopped(let who):
            console.info(localized("{name}stopped by {who}", name, who.description))
        case .missed(let late):
            console.error(localized("missed alarm {name}for {time}{message} (late by {span}); the late limit is {limit}", name,
                                    deadlineText(alarm), AlarmMessage.suffix(message(alarm)), Formatting.lateness(late),
                                    DurationText.format(settings(alarm).lateLimit)))
        case .timedOut where testing != nil:
            console.info("the test ended after \(DurationText.format(settings(alarm).ringFor))")
        case .timedOut:
            let ringFor = DurationText.format(settings(alarm).ringFor)
            if let round = rounds.removeValue(forKey: alarm) {
                console.info("\(name)rang \(round) rounds unanswered (--ring-for \(ringFor) each, --unattended "
                             + "\(settings(alarm).unattended.mode.rawValue)); it stops here")
            } else {
                console.info(localized("{name}rang for {span} without being stopped", name, ringFor))
            }
        case .cancelled(let who):
            console.info(localized("{name}cancelled by {who} before ringing", name, who.description))
        case .upAlready(let who):
            console.info(localized("up already ({who}): the alarm {name}for {time} is skipped", who.description, name, deadlineText(alarm)))
        case .failed:
            break  // the sound's own line said why
        }
    }
}
