import WakeCore
import WakeSystem

/// The JSON event log (`--events`): one line per runtime event, in the names docs/guide.md lists (The event log).
public final class EventLogObserver: RuntimeObserver {
    private let log: EventLog
    /// The local zone the times are written in; the session changes it when the machine's does.
    public var zone: TimeZoneRules
    /// Alarm IDs are written only when the process holds more than one alarm (the daemon).
    public var includeAlarmID = false
    /// Whether the deadlines are on the alarm clocks (the RTC wakes a suspended machine): the
    /// armed event's `wakes_system`.
    public var wakesSystem = false
    /// An alarm's `--message`, written with its armed, ringing and missed events.
    public var message: (String) -> String? = { _ in nil }
    /// A folder or list as the sound: the file an alarm's ring plays first, until the output
    /// says which it opened (`chosen`); written as the ringing event's `sound`.
    public var soundChoice: (String) -> String? = { _ in nil }
    private var chosen: [String: String] = [:]
    /// The ringing event's `sound` when a folder's or list's files all failed and wake's own rings.
    public static let builtInSound = "built-in"

    public init(log: EventLog, zone: TimeZoneRules) {
        self.log = log
        self.zone = zone
    }

    private func iso(_ i: Instant) -> JSONValue { .string(Formatting.iso8601(i, zone: zone)) }

    public func observe(_ event: RuntimeEvent) {
        var fields: [(String, JSONValue)] = []
        if includeAlarmID && !event.alarm.isEmpty { fields.append(("alarm", .string(event.alarm))) }
        let name: String
        switch event.kind {
        case .armed(let wait, let wall):
            name = "armed"
            fields += [("deadline", iso(wall)), ("clock", .string(wait.clock.rawValue)), ("wakes_system", .bool(wakesSystem)),
                       ("wait_s", .int(wait.remaining(from: event.time).secondsRoundedUp))]
            if let reason = event.reason {
                fields.append(("reason", .string(reason)))
                if reason == "zone" { fields.append(("zone", .string(zone.name))) }
            }
            if let m = message(event.alarm) { fields.append(("message", .string(m))) }
        case .ringStarted:
            chosen[event.alarm] = nil
            return
        case .preRingStarted(let main):
            name = "pre_ringing"
            fields.append(("deadline", iso(main)))
        case .sunrise(let over, let main):
            name = "sunrise"
            fields += [("deadline", iso(main)), ("over_s", .int(over.secondsRoundedUp))]
        case .preRingStopped(let who, let main):
            name = "pre_stopped"
            fields += [("main_kept", .bool(true)), ("deadline", iso(main))] + Self.requester(who)
        case .ringing(let late):
            name = "ringing"
            fields.append(("late_ms", .milliseconds(late)))
            if let sound = chosen[event.alarm] ?? soundChoice(event.alarm) { fields.append(("sound", .string(sound))) }
            if let m = message(event.alarm) { fields.append(("message", .string(m))) }
        case .snoozed(let until, let who):
            name = "snoozed"
            fields += [("until", iso(until))] + Self.requester(who)
        case .checkUp(.set(let at, let who)):
            name = "check_up_set"
            fields += [("at", iso(at))] + Self.requester(who)
        case .checkUp(.asking(let until)):
            name = "check_up"
            fields.append(("until", iso(until)))
        case .checkUp(.unanswered):
            name = "check_up_unanswered"
        case .unanswered(let news, let next):
            name = "unanswered"
            fields += [("rang_s", .int(news.rang.secondsRoundedUp)), ("mode", .string(news.mode.rawValue)),
                       ("round", .int(Int64(news.round))), ("rounds", .int(Int64(news.of))), ("next", next.map(iso) ?? .null)]
        case .finished(let outcome):
            switch outcome {
            case .stopped(let who):
                name = "stopped"
                fields += Self.requester(who)
            case .cancelled(let who):
                name = "cancelled"
                fields += Self.requester(who)
            case .upAlready(let who):
                name = "up_already"
                fields += Self.requester(who)
            case .missed(let late):
                name = "missed"
                fields.append(("late_s", .int(late.nanoseconds / 1_000_000_000)))
                if let m = message(event.alarm) { fields.append(("message", .string(m))) }
            case .timedOut:
                name = "timed_out"
            case .failed(let reason):
                name = "error"
                fields.append(("reason", .string(reason)))
            }
        case .clockChanged:
            name = "clock_changed"
            fields.append(("now", iso(event.time.realtime)))
        case .suspended:
            name = "suspended"
        case .resumed(let slept):
            name = "resumed"
            fields.append(("slept_s", .int(slept.secondsRoundedUp)))
        case .ignored:
            return
        case .snoozeRefused(let count, let who):
            name = "snooze_refused"
            fields += [("snoozes", .int(Int64(count.used))), ("limit", .int(Int64(count.limit ?? count.used)))] + Self.requester(who)
        case .problem(let reason):
            name = "problem"
            fields.append(("reason", .string(reason)))
        case .challenge(let question):
            name = "challenge"
            fields.append(("question", .string(question)))
        case .challengeWrong(let question, let answer):
            name = "challenge_wrong"
            fields += [("question", .string(question)), ("answer", .string(answer))]
        case .sound(let output):
            switch output {
            case .opened(let device, let format, let paced):
                name = "device"
                fields += [("device", .string(device)), ("format", .string(format)), ("paced", .bool(paced))]
            case .audible, .bell:
                return
            case .recovered(let what, let count):
                name = "recovered"
                fields += [("what", .string(what)), ("count", .int(Int64(count)))]
            case .fallback(let from, let to, let reason):
                name = "fallback"
                fields += [("from", .string(from)), ("to", .string(to)), ("reason", .string(reason))]
            case .failed:
                return  // the alarm's own `error` follows
            case .stopped(let frames, let seams):
                name = "sound_stopped"
                fields += [("frames", .int(frames)), ("seams", .int(seams))]
            case .mixerRaised(let mixer, let from, let to):
                name = "mixer_raised"
                fields += [("mixer", .string(mixer)), ("control", .string(from.element)), ("from", .int(Int64(from.percent ?? 100))),
                           ("to", .int(Int64(to.percent ?? 100))), ("muted", .bool(from.levels.isMuted))]
            case .mixerRestored(let mixer, let to, let kept):
                name = "mixer_restored"
                fields += [("mixer", .string(mixer)), ("control", .string(to.element)), ("volume", .int(Int64(to.percent ?? 100))),
                           ("muted", .bool(to.levels.isMuted)), ("kept_changes", .bool(kept))]
            case .mixerProblem(let reason):
                name = "problem"
                fields.append(("reason", .string(reason)))
            case .sinkMoved(let chosen, let to, _, let gone):
                name = "sink_moved"
                fields += [("sink", .string(chosen)), ("to", .string(to)), ("gone", .bool(gone))]
            case .backFromBell(let device):
                name = "recovered"
                fields += [("what", .string("sound")), ("from", .string("bell")), ("device", .string(device))]
            case .silent(let reason, let retry):
                name = "silent"
                fields += [("reason", .string(reason)), ("retry_s", .int(retry.secondsRoundedUp))]
            case .silentStep(let device, let reason):
                name = "silent_step"
                fields += [("device", .string(device)), ("reason", .string(reason))]
            case .stillSilent(let tries, let span):
                name = "still_silent"
                fields += [("tries", .int(Int64(tries))), ("silent_s", .int(span.secondsRoundedUp))]
            case .soundChosen(let path):
                chosen[event.alarm] = path
                return
            case .builtInChosen:
                // No file of the folder or list plays: the ringing event names what does.
                chosen[event.alarm] = Self.builtInSound
                return
            case .entryFailed(let path, let next, let reason):
                name = "fallback"
                fields += [("from", .string(path)), ("to", .string(next)), ("reason", .string(reason)), ("sound", .string(next))]
            case .backFromSilent(let device, let tries, let span):
                name = "recovered"
                fields += [("what", .string("sound")), ("from", .string("silent")), ("device", .string(device)),
                           ("tries", .int(Int64(tries))), ("silent_s", .int(span.secondsRoundedUp))]
            }
        }
        log.emit(name, at: event.time.realtime, fields)
    }

    /// A D-Bus caller: its unique name, and the process as resolved when it called.
    public static func callerFields(_ caller: BusCaller) -> [(String, JSONValue)] {
        var fields: [(String, JSONValue)] = [("caller", .string(caller.uniqueName))]
        if let pid = caller.pid { fields.append(("caller_pid", .int(Int64(pid)))) }
        if let program = caller.program { fields.append(("caller_program", .string(program))) }
        return fields
    }

    static func requester(_ who: Requester) -> [(String, JSONValue)] {
        switch who {
        case .key(let k): return [("by", .string("key")), ("key", .string(k))]
        case .signal(let name, _): return [("by", .string("signal")), ("signal", .string(name))]
        case .control(let client): return [("by", .string("control")), ("client", .string(client))]
        case .notification: return [("by", .string("notification"))]
        case .mediaControl(let caller): return [("by", .string("mpris"))] + callerFields(caller)
        case .busAPI(let caller): return [("by", .string("dbus"))] + callerFields(caller)
        case .answer: return [("by", .string("answer"))]
        case .unattended: return [("by", .string("unattended"))]
        }
    }
}
