/// What the desktop notification says about an alarm in each of its states. Pure: the
/// notifier picks the phase, the bus edge sends the result as it is.
public struct DesktopNotice: Hashable, Sendable {
    public struct Button: Hashable, Sendable {
        /// What the server sends back in ActionInvoked.
        public var key: String
        public var label: String
        public init(key: String, label: String) { self.key = key; self.label = label }
    }

    /// The freedesktop `urgency` hint's byte.
    public enum Urgency: UInt8, Hashable, Sendable {
        case low = 0, normal = 1, critical = 2
    }

    /// Plain text: the specification gives the summary no markup.
    public var summary: String
    /// Escaped for servers that read the body as markup (`<`, `>`, `&`).
    public var body: String
    public var buttons: [Button]
    public var urgency: Urgency
    /// Kept on screen after a button is pressed: the alarm's state is shown until it ends.
    public var resident: Bool

    public init(summary: String, body: String, buttons: [Button], urgency: Urgency, resident: Bool) {
        self.summary = summary; self.body = body; self.buttons = buttons; self.urgency = urgency; self.resident = resident
    }

    public static let snoozeKey = "snooze"
    /// The second snooze button's: a snooze of `--snooze-long`.
    public static let snoozeLongKey = "snooze-long"
    public static let stopKey = "stop"
    /// "Up already" during or after a pre-alarm: the alarm itself is skipped.
    public static let upKey = "up"

    public enum Phase: Hashable, Sendable {
        /// Sounding since this wall-clock time (`07:00:02`).
        case ringing(since: String)
        /// No device works and the terminal bell rings instead; `reason` is the last failure.
        case bell(reason: String)
        /// No device works and there is no terminal for the bell: wake keeps trying the devices
        /// while the ring lasts; `reason` says what failed.
        case silent(reason: String)
        /// Silent until this wall-clock time, then rings again.
        case snoozed(until: String)
        /// The ring ran its `--ring-for` unanswered and `--unattended snooze` snoozed it: it rings
        /// again at `until` (`07:19`), in round `ring.round`.
        case unanswered(UnansweredRing, until: String)
        /// Not even the bell could be made: the alarm has ended without a sound.
        case failed(reason: String)
        /// `--check-up`: stopped; at `at` (`07:25`) the alarm asks whether you are up.
        case checkUpSet(at: String)
        /// `--check-up`: asking (a quiet ring) until `until`; unanswered, the alarm rings again.
        case checkUpAsking(until: String)
        /// The pre-alarm (`--pre-alarm`) rings quietly; the alarm itself rings at `main` (`06:30`).
        case preRinging(main: String)
        /// The pre-alarm was stopped; the alarm stays set for `main`.
        case preStopped(main: String)
    }

    /// The notice for `phase`. `alarm` names the alarm in the summary (`07:00`, or `06:30 (work)`
    /// when a daemon rings several); `snooze` is the alarm's own snooze length, for the button,
    /// and `snoozeLong` its second one (`--snooze-long`; no second button when it is the same);
    /// `message` (`--message`) opens the body, on a line of its own; `snoozes` is the count of
    /// the occurrence's snoozes, said when it has a limit (`--snooze-limit`): once they are used
    /// up, a ringing notice has no Snooze button. `sound`: a folder's or list's file the ring
    /// plays, named (by its file name) in a ringing notice. Under `challenge` (`--challenge math`) there is
    /// no Stop button: a button is a swipe, not an answer (the engine takes a `stop` key from the
    /// notification as a snooze), and the body says what does stop it.
    public static func make(_ phase: Phase, alarm: String, snooze: Duration, snoozeLong: Duration? = nil, message: String? = nil,
                            sound: String? = nil, snoozes: SnoozeCount = SnoozeCount(), challenge: Bool = false) -> DesktopNotice {
        var notice = plain(phase, alarm: alarm, snooze: snooze, snoozeLong: snoozeLong, snoozes: snoozes)
        if let sound, case .ringing = phase {
            let name = sound.split(separator: "/").last.map(String.init) ?? sound
            notice.body += "\n" + markup(localized("Playing {file}.", name))
        }
        if challenge {
            switch phase {
            case .ringing, .bell, .silent:
                notice.buttons.removeAll { $0.key == stopKey }
                notice.body += "\n" + markup(challengeStops)
            case .snoozed, .unanswered:
                notice.buttons.removeAll { $0.key == stopKey }
                notice.body += " " + markup(localized("'wake stop' in a shell stops it."))
            case .checkUpSet, .checkUpAsking:
                // I'm up is a swipe too: the sum, or a shell, answers.
                notice.buttons = []
                notice.body += " " + markup(localized("To answer, solve the sum on the terminal or run 'wake stop'."))
            case .failed, .preRinging, .preStopped:
                break  // a pre-alarm's stop keeps the alarm set: nothing to answer yet
            }
        }
        if let message { notice.body = markup(message) + "\n" + notice.body }
        return notice
    }

    static func plain(_ phase: Phase, alarm: String, snooze: Duration, snoozeLong: Duration?, snoozes: SnoozeCount) -> DesktopNotice {
        let name = TerminalText.printable(alarm)
        let stop = Button(key: stopKey, label: localized("Stop"))
        var snoozeButtons = [Button(key: snoozeKey, label: snoozeLabel(snooze))]
        if let snoozeLong, snoozeLong != snooze { snoozeButtons.append(Button(key: snoozeLongKey, label: snoozeLabel(snoozeLong))) }
        // Used up: no snooze button at all, so none can be pressed in vain.
        let both = snoozes.isUsedUp ? [stop] : snoozeButtons + [stop]
        let count = snoozes.ofLimit.map { snoozes.isUsedUp ? localized(" Snoozed {count}: no snoozes left.",
                                                                       $0) : localized(" Snoozed {count}.", $0) } ?? ""
        let summary = localized("Alarm {name}", name)
        switch phase {
        case .ringing(let since):
            return DesktopNotice(summary: summary, body: markup(localized("Ringing since {time}.", since) + count),
                                 buttons: both, urgency: .critical, resident: true)
        case .bell(let reason):
            // The last resort a desktop user sees: said as loudly as a notification can.
            return DesktopNotice(summary: localized("Alarm {name}: NO SOUND DEVICE WORKS", name),
                                 body: markup(localized("""
                                     wake can play sound on no device and rings the terminal bell instead, which may be out of earshot. \
                                     Last failure: {reason}. Check the sound device.
                                     """, reason)),
                                 buttons: both, urgency: .critical, resident: true)
        case .silent(let reason):
            return DesktopNotice(summary: localized("Alarm {name}: NO SOUND", name),
                                 body: markup(localized("""
                                     wake can play sound on no device right now and keeps trying every few seconds while the alarm rings. \
                                     {reason}. Check the sound device.
                                     """, reason)),
                                 buttons: both, urgency: .critical, resident: true)
        case .snoozed(let until):
            return DesktopNotice(summary: localized("Alarm {name}: {snoozed} until {time}", name, snoozes.snoozed, until),
                                 body: markup(localized("Rings again at {time}.", until)),
                                 buttons: [stop], urgency: .normal, resident: true)
        case .unanswered(let ring, let until):
            // "rang 10 min unanswered; again at 07:19, round 2 of 3": the sleeper's first look.
            let text = ring.text(until: until)
            var state = text.prefix(while: { $0 != ";" })
            while state.last == " " { state.removeLast() }  // French writes " ;"
            return DesktopNotice(summary: localized("Alarm {name}: {state}", name, String(state)),
                                 body: markup(String(text.first.map { $0.uppercased() } ?? "") + text.dropFirst() + "."),
                                 buttons: [stop], urgency: .critical, resident: true)
        case .checkUpSet(let at):
            return DesktopNotice(summary: localized("Alarm {name}: stopped", name),
                                 body: markup(localized("At {time} it asks once more whether you are up.", at)),
                                 buttons: [Button(key: upKey, label: localized("I'm up"))], urgency: .normal, resident: true)
        case .checkUpAsking(let until):
            return DesktopNotice(summary: localized("Alarm {name}: are you up?", name),
                                 body: markup(localized("Answer by {time}, or the alarm rings again.", until)),
                                 buttons: [Button(key: upKey, label: localized("I'm up"))], urgency: .critical, resident: true)
        case .preRinging(let main):
            // Stop is the default and keeps the alarm; up already is the one that skips it.
            return DesktopNotice(summary: localized("Alarm {name}: pre-alarm", name),
                                 body: markup(localized("Ringing quietly before the alarm at {time}. Stop keeps the alarm set.", main)),
                                 buttons: [Button(key: upKey, label: localized("Up already")),
                                           Button(key: stopKey, label: localized("Stop (alarm stays set)"))],
                                 urgency: .normal, resident: true)
        case .preStopped(let main):
            return DesktopNotice(summary: localized("Alarm {name}: set for {time}", name, main),
                                 body: markup(localized("The pre-alarm stopped; the alarm stays set for {time}.", main)),
                                 buttons: [Button(key: upKey, label: localized("Up already"))], urgency: .normal, resident: true)
        case .failed(let reason):
            // Left standing after the alarm ends (a process cannot answer buttons it no longer
            // has): the news that it could not ring must outlive it.
            return DesktopNotice(summary: localized("Alarm {name} COULD NOT RING", name),
                                 body: markup(localized("No sound could be made: {reason}.", reason)),
                                 buttons: [], urgency: .critical, resident: false)
        }
    }

    /// What stops a challenged alarm, as its notification says it.
    public static var challengeStops: String {
        localized("To stop it, solve the sum on the terminal or run 'wake stop'; the buttons snooze.")
    }

    /// In the largest unit that counts it whole: `Snooze 9 min`, `Snooze 2 h`, `Snooze 90 s`,
    /// `Snooze 90 min`; anything finer in the duration grammar (`Snooze 1500ms`).
    public static func snoozeLabel(_ snooze: Duration) -> String {
        let ms = snooze.milliseconds
        guard ms > 0 else { return localized("Snooze") }
        let length = ms % 3_600_000 == 0 ? "\(ms / 3_600_000) h" : ms % 60_000 == 0 ? "\(ms / 60_000) min"
            : ms % 1000 == 0 ? "\(ms / 1000) s" : DurationText.format(snooze)
        return localized("Snooze {span}", length)
    }

    /// `text` with its control characters escaped and the markup characters written as
    /// entities, so a reason from a device or a server reads as the words it is.
    public static func markup(_ text: String) -> String {
        var out = ""
        for ch in TerminalText.escape(text) {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(ch)
            }
        }
        return out
    }
}

/// One alarm's notification kept in step with what it should show, over a bus where every
/// call is answered later or never. At most one Notify is in flight: a change waits for its
/// answer, since it must name the id that answer carries (a second Notify sent without it
/// would put up a second notification).
public struct NoticeSync: Hashable, Sendable {
    /// A call to make on the bus.
    public enum Call: Hashable, Sendable {
        /// Show `notice`, replacing the notification with this id (0: a new one).
        case notify(DesktopNotice, replacing: UInt32)
        case close(UInt32)
    }

    /// The server's id for what is on screen, once known.
    public private(set) var id: UInt32?
    public private(set) var inFlight = false
    private var wanted: DesktopNotice?
    /// The last notice sent, whatever became of it: a failure is not retried until the notice
    /// changes, and neither is one the user dismissed.
    private var sent: DesktopNotice?

    public init() {}

    /// What should be on screen now (nil: nothing).
    public mutating func show(_ notice: DesktopNotice?) -> [Call] {
        wanted = notice
        return next()
    }

    /// Notify's answer: the id, or nil when the call failed.
    public mutating func notified(id newID: UInt32?) -> [Call] {
        inFlight = false
        var calls: [Call] = []
        if let newID {
            // A server that did not replace put up a second one: take the old one down.
            if let old = id, old != newID { calls.append(.close(old)) }
            id = newID
        }
        return calls + next()
    }

    /// The server closed it (dismissed, expired): a later change puts up a new one.
    public mutating func closedByServer(id closed: UInt32) {
        if closed == id { id = nil }
    }

    /// The connection went: what was in flight on it will never be answered. Ids belong to
    /// the server, not the connection, so what is shown can still be replaced or closed
    /// through a new one; the wanted notice goes out again with the next change.
    public mutating func connectionLost() {
        inFlight = false
        sent = nil
    }

    /// Nothing on screen, nothing wanted and nothing on the way.
    public var isIdle: Bool { wanted == nil && id == nil && !inFlight }

    private mutating func next() -> [Call] {
        guard !inFlight else { return [] }
        if let wanted {
            guard wanted != sent else { return [] }
            sent = wanted
            inFlight = true
            return [.notify(wanted, replacing: id ?? 0)]
        }
        sent = nil
        guard let shown = id else { return [] }
        id = nil
        return [.close(shown)]
    }
}
