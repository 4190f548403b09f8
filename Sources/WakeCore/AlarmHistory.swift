/// What happened to one standing alarm: a record in the state file.
public struct AlarmRecord: Hashable, Sendable {
    public var name: String
    /// The occurrence (its deadline instant) recorded as fired, BEFORE it rings: a crash while
    /// ringing never rings it twice.
    public var lastFired: Instant?
    /// The occurrences to pass over (`wake skip`, `--count`, `--on`), each as its local date (as
    /// `--on DATE` is typed), in order, each kept until that day has passed, so `wake list` can
    /// say how many more are skipped. A date, not an instant: the standing alarms follow the
    /// zone, and a skip taken in Berlin still skips that morning after a move to New York.
    public var skips: [CivilDate] = []
    /// Skips as an older wake wrote them, as the occurrence's UTC instant: still honoured, and
    /// made dates (`migratingSkips(zone:)`) by the first command or daemon that writes the record.
    public var legacySkips: [Instant] = []
    /// The last occurrence recorded as missed.
    public var missed: Instant?
    /// Until when it was snoozed: a daemon restarted meanwhile rings it then (or at once, if that
    /// passed within the late limit).
    public var snoozedUntil: Instant?
    /// The last occurrence passed over because it was skipped.
    public var lastSkipped: Instant?
    /// When the daemon started ringing it, while it rings (for `wake list`).
    public var ringingSince: Instant?
    /// `wake pause`: the pauses, in order, none overlapping (`Pause.adding`). An occurrence
    /// inside one passes quietly (neither rung nor missed; a one-off is kept until its end, see
    /// `StandingSchedule`). `wake resume` ends the one in force at the moment of the resume, so
    /// what passed during it stays quiet; one that has ended changes nothing ahead.
    public var pauses: [Pause] = []

    /// The pause that keeps the occurrence at `t` quiet, if one does.
    public func pause(containing t: Instant) -> Pause? { pauses.first { $0.contains(t) } }

    /// Whether a pause keeps the occurrence at `t` quiet.
    public func isPaused(_ t: Instant) -> Bool { pause(containing: t) != nil }

    /// Whether the occurrence at `t` is skipped (its local date in `zone`, or an older wake's instant).
    public func isSkipped(_ t: Instant, zone: TimeZoneRules) -> Bool {
        skips.contains(zone.localTime(at: t).date) || legacySkips.contains(t)
    }

    /// The skipped occurrences of `alarm`, in order: each skipped date's occurrence in `zone`,
    /// and the older wake's instants (`firstEvent`: the calendar of a `--before-first-event` alarm, read).
    public func skipInstants(of alarm: StandingAlarm, zone: TimeZoneRules, firstEvent: FirstEventSchedule? = nil) -> [Instant] {
        let instants = skips.compactMap { StandingSchedule.occurrence(of: alarm, on: $0, zone: zone, firstEvent: firstEvent)?.instant }
        return Array(Set(instants + legacySkips)).sorted()
    }

    /// The record with the older wake's skip instants made local dates, read in `zone`.
    public func migratingSkips(zone: TimeZoneRules) -> AlarmRecord {
        guard !legacySkips.isEmpty else { return self }
        var r = self
        r.skips = Array(Set(skips + legacySkips.map { zone.localTime(at: $0).date })).sorted()
        r.legacySkips = []
        return r
    }

    /// The record without the skips whose day is over in `zone` at `now` (kept through the day,
    /// so a move west the same day still skips that morning), nor an older wake's skip instants
    /// that have passed.
    public func pruningSkips(now: Instant, zone: TimeZoneRules) -> AlarmRecord {
        var r = self
        let today = zone.localTime(at: now).date
        r.skips.removeAll { $0 < today }
        r.legacySkips.removeAll { $0 <= now }
        return r
    }

    /// The record without the pauses that ended before the latest occurrence dealt with: they
    /// can keep nothing quiet any more (one ended later still keeps what passed in it quiet).
    public func pruningPauses(now: Instant) -> AlarmRecord {
        guard let handled = lastEvent else { return self }
        var r = self
        r.pauses.removeAll { $0.until <= min(handled, now) }
        return r
    }

    /// How many rings of the last fired occurrence a crash of the daemon ended: it is rung again
    /// after a restart, with wake's built-in sound from the second crash on, and no more after
    /// the third (`crashed_rings`).
    public var crashedRings = 0

    /// A folder or list as the sound: the entries (resolved paths) played in this round of the
    /// shuffle, oldest first (`ShuffleBag`).
    public var played: [String] = []

    public init(name: String) { self.name = name }

    /// The latest instant this record speaks of (fired, missed or skipped), if any.
    public var lastEvent: Instant? { [lastFired, missed, lastSkipped].compactMap { $0 }.max() }

    /// How long the record of a one-off that is done (and removed from the alarms) is kept: a
    /// copy of alarms.toml restored from before (an editor's undo, a sync, a backup) brings the
    /// alarm back, and this record says it already rang instead of ringing it again.
    public static let keptAfterRemoval: Duration = .seconds(7 * 86_400)

    /// The names of records whose alarm is gone and whose last event is older than
    /// `keptAfterRemoval` at `now` (or which have none): the history forgets them.
    public static func forgotten(_ history: [String: AlarmRecord], present: Set<String>, now: Instant) -> [String] {
        history.values.filter { r in
            !present.contains(r.name) && (r.lastEvent.map { now - $0 > keptAfterRemoval } ?? true)
        }.map(\.name).sorted()
    }

    /// Nothing recorded.
    public var isEmpty: Bool {
        lastFired == nil && skips.isEmpty && legacySkips.isEmpty && missed == nil && snoozedUntil == nil && lastSkipped == nil
            && ringingSince == nil && crashedRings == 0 && pauses.isEmpty && played.isEmpty
    }
}

/// The state file: one `[NAME]` table per alarm, in the alarms file's TOML subset.
///
/// ```
/// [work]
/// fired = "2026-11-24T05:30:00Z"
/// skip = "2026-11-25T05:30:00Z"
/// ```
public enum AlarmHistory {
    /// The comment at the top of the file, documenting it.
    public static let header = """
        # wake: what happened to each standing alarm. Written by wake; comments are not kept.
        #
        # The same strict TOML subset as alarms.toml: one [NAME] table per alarm, with any of
        #   fired = "2026-11-24T05:30:00Z"          the occurrence last recorded as fired (before it rang)
        #   skips = ["2026-11-25"]                  the occurrences `wake skip` asked to skip (their local dates), kept through the day
        #   missed = "2026-11-23T05:30:00Z"         the occurrence last recorded as missed
        #   snoozed_until = "2026-11-24T05:39:00Z"  until when it was snoozed (not kept over a restart)
        #   skipped = "2026-11-25T05:30:00Z"        the occurrence last passed over because it was skipped
        #   ringing_since = "2026-11-24T05:30:01Z"  when the daemon started ringing it, while it rings
        #   crashed_rings = 1                       rings of that occurrence a crash of the daemon ended
        #   pauses = ["2026-12-07T00:00:00Z", "2026-12-21T00:00:00Z/2027-01-04T00:00:00Z"]
        #                                           `wake pause`: occurrences before the end (and from the start, if
        #                                           one is given, as FROM/UNTIL) pass quietly
        #   played = ["/home/me/wake/a.ogg"]        a folder or list as the sound: the files played this round
        # Each time is an instant in UTC, with up to 9 fraction digits (".123456789") when needed.

        """

    // `skip` (one instant) is what wake wrote before `skips`, and `paused_until` and
    // `paused_from` (one pause) before `pauses`: still read. So are instants in `skips`.
    static let keys = ["fired", "skip", "skips", "missed", "snoozed_until", "skipped", "ringing_since", "crashed_rings", "paused_until",
                       "paused_from", "pauses", "played"]
    /// The most skips one record holds: `wake skip --count` takes at most this many.
    public static let skipsKept = 400
    /// The most pauses one record holds: `wake pause` refuses another beyond it.
    public static let pausesKept = 100

    public static func parse(_ text: String) throws(AlarmBook.ParseError) -> [String: AlarmRecord] {
        typealias ParseError = AlarmBook.ParseError
        var records: [String: AlarmRecord] = [:]
        var current: AlarmRecord?
        var keysSeen: Set<String> = []
        // The single pause an older wake wrote, made one of `pauses` at the table's end.
        var oldPause: (from: Instant?, until: Instant?) = (nil, nil)
        func finish(_ r: AlarmRecord) throws(ParseError) {
            var r = r
            if let until = oldPause.until, oldPause.from.map({ $0 < until }) ?? true {
                r.pauses = Pause.adding(Pause(from: oldPause.from, until: until), to: r.pauses).pauses
            }
            oldPause = (nil, nil)
            records[r.name] = r
        }
        for (number, scalars) in TOMLSubset.lines(text) {
            func fail(_ m: String) -> ParseError { ParseError(line: number, message: m) }
            switch try TOMLSubset.parseLine(scalars, number: number, scalars: true) {
            case .blank:
                continue
            case .table(let parts):
                if let r = current { try finish(r) }
                guard parts.count == 1 else { throw fail("expected a table [NAME], not [\(parts.joined(separator: "."))]") }
                let name = parts[0]
                guard StandingAlarm.isValidName(name) else {
                    throw fail("invalid alarm name '\(name.printable)': \(AlarmBook.nameRule)")
                }
                guard records[name] == nil else { throw fail("duplicate alarm '\(name)'") }
                current = AlarmRecord(name: name)
                keysSeen = []
            case .pair(let key, let value):
                guard current != nil else { throw fail("'\(key) = ...' comes before the first [NAME] table") }
                guard keys.contains(key) else { throw fail("unknown key '\(key)' in alarm '\(current!.name)'") }
                guard keysSeen.insert(key).inserted else { throw fail("duplicate key '\(key)' in alarm '\(current!.name)'") }
                if key == "crashed_rings" {
                    guard case .integer(let n) = value, (0...1000).contains(n) else {
                        throw fail("crashed_rings takes a whole number from 0 to 1000")
                    }
                    current!.crashedRings = n
                    continue
                }
                if key == "played" {
                    guard case .array(let items) = value else { throw fail("played takes an array of paths, as [\"/home/me/a.ogg\"]") }
                    current!.played = Array(items.suffix(ShuffleBag.playedKept))
                    continue
                }
                if key == "pauses" {
                    guard case .array(let items) = value else {
                        throw fail("pauses takes an array of pauses, as [\"2026-12-21T00:00:00Z/2027-01-04T00:00:00Z\"]")
                    }
                    guard items.count <= pausesKept else { throw fail("pauses holds more than \(pausesKept) pauses; remove some") }
                    for item in items where !Pause.isEmpty(item) {
                        guard let p = Pause.parse(item) else {
                            throw fail("pauses must hold UTC times, or FROM/UNTIL pairs, such as "
                                       + "\"2026-12-21T00:00:00Z/2027-01-04T00:00:00Z\", not \"\(item.printable)\"")
                        }
                        current!.pauses = Pause.adding(p, to: current!.pauses).pauses
                    }
                    continue
                }
                if case .array(let items) = value {
                    guard key == "skips" else { throw fail("\(key) takes a string in double quotes, not an array") }
                    guard items.count <= skipsKept else { throw fail("skips holds more than \(skipsKept) times; remove some") }
                    for item in items {
                        if let d = TOMLSubset.date(item) {
                            current!.skips = Array(Set(current!.skips + [d])).sorted()
                        } else if let t = TOMLSubset.instant(item) {
                            current!.legacySkips = Array(Set(current!.legacySkips + [t])).sorted()
                        } else {
                            throw fail("skips must hold local dates such as \"2026-11-23\", not \"\(item.printable)\"")
                        }
                    }
                    continue
                }
                if key == "skips" { throw fail("skips takes an array of local dates, as [\"2026-11-23\"]") }
                guard case .string(let s) = value else {
                    if case .array = value { throw fail("\(key) takes a string in double quotes, not an array") }
                    throw fail("\(key) takes a UTC time in double quotes, as \"2026-11-23T03:00:00Z\"")
                }
                guard let t = TOMLSubset.instant(s) else {
                    throw fail("\(key) must be a UTC time such as \"2026-11-23T03:00:00Z\", not \"\(s.printable)\"")
                }
                switch key {
                case "fired": current!.lastFired = t
                case "skip": current!.legacySkips = Array(Set(current!.legacySkips + [t])).sorted()
                case "missed": current!.missed = t
                case "skipped": current!.lastSkipped = t
                case "ringing_since": current!.ringingSince = t
                case "paused_until": oldPause.until = t
                case "paused_from": oldPause.from = t
                default: current!.snoozedUntil = t
                }
            }
        }
        if let r = current { try finish(r) }
        return records
    }

    /// The file for `records` (keyed by name), in name order, a table for each, empty ones too.
    public static func serialize(_ records: [String: AlarmRecord]) -> String {
        var out = header
        for (name, r) in records.sorted(by: { $0.key < $1.key }) {
            out += "\n[\(name)]\n"
            let values: [(String, Instant?)] = [("fired", r.lastFired), ("missed", r.missed),
                                                 ("snoozed_until", r.snoozedUntil), ("skipped", r.lastSkipped),
                                                 ("ringing_since", r.ringingSince)]
            for case let (key, t?) in values { out += "\(key) = \"\(TOMLSubset.instantText(t))\"\n" }
            if !r.skips.isEmpty || !r.legacySkips.isEmpty {
                let items = r.skips.map(TOMLSubset.dateText) + r.legacySkips.map(TOMLSubset.instantText)
                out += "skips = [" + items.map { "\"\($0)\"" }.joined(separator: ", ") + "]\n"
            }
            if !r.pauses.isEmpty { out += "pauses = [" + r.pauses.map { "\"\($0.text)\"" }.joined(separator: ", ") + "]\n" }
            if r.crashedRings > 0 { out += "crashed_rings = \(r.crashedRings)\n" }
            if !r.played.isEmpty { out += "played = [" + r.played.map(TOMLSubset.quoted).joined(separator: ", ") + "]\n" }
        }
        return out
    }
}
