/// What happened to one standing alarm: a record in the state file.
public struct AlarmRecord: Hashable, Sendable {
    public var name: String
    /// The occurrence (its deadline instant) recorded as fired, BEFORE it rings: a crash while
    /// ringing never rings it twice.
    public var lastFired: Instant?
    /// The occurrences to pass over (`wake skip`, `--count`, `--on`), in order, each kept until
    /// it has passed, so `wake list` can say how many more are skipped.
    public var skips: [Instant] = []
    /// The last occurrence recorded as missed.
    public var missed: Instant?
    /// Until when it was snoozed: a daemon restarted meanwhile rings it then (or at once, if that
    /// passed within the late limit).
    public var snoozedUntil: Instant?
    /// The last occurrence passed over because it was skipped.
    public var lastSkipped: Instant?
    /// When the daemon started ringing it, while it rings (for `wake list`).
    public var ringingSince: Instant?
    /// `wake pause --until`: every occurrence before this instant passes quietly (neither rung
    /// nor missed; a one-off is kept until then, see `StandingSchedule`). `wake resume` sets it
    /// to the moment of the resume, so what passed during the pause stays quiet; a pause in the
    /// past changes nothing ahead.
    public var pausedUntil: Instant?
    /// `wake pause --from`: the pause starts here (a holiday planned ahead); nil: it is already on.
    public var pausedFrom: Instant?

    /// Whether the pause keeps the occurrence at `t` quiet.
    public func isPaused(_ t: Instant) -> Bool {
        guard let until = pausedUntil, t < until else { return false }
        return pausedFrom.map { t >= $0 } ?? true
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
        lastFired == nil && skips.isEmpty && missed == nil && snoozedUntil == nil && lastSkipped == nil && ringingSince == nil
            && crashedRings == 0 && pausedUntil == nil && pausedFrom == nil && played.isEmpty
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
        #   skips = ["2026-11-25T05:30:00Z"]        the occurrences `wake skip` asked to skip, kept until they pass
        #   missed = "2026-11-23T05:30:00Z"         the occurrence last recorded as missed
        #   snoozed_until = "2026-11-24T05:39:00Z"  until when it was snoozed (not kept over a restart)
        #   skipped = "2026-11-25T05:30:00Z"        the occurrence last passed over because it was skipped
        #   ringing_since = "2026-11-24T05:30:01Z"  when the daemon started ringing it, while it rings
        #   crashed_rings = 1                       rings of that occurrence a crash of the daemon ended
        #   paused_until = "2026-12-07T00:00:00Z"   `wake pause`: occurrences before it pass quietly
        #   paused_from = "2026-12-21T00:00:00Z"    `wake pause --from`: and from this one on (not before)
        #   played = ["/home/me/wake/a.ogg"]        a folder or list as the sound: the files played this round
        # Each is an occurrence's instant in UTC, with up to 9 fraction digits (".123456789") when needed.

        """

    // `skip` (one instant) is what wake wrote before `skips`, and is still read.
    static let keys = ["fired", "skip", "skips", "missed", "snoozed_until", "skipped", "ringing_since", "crashed_rings", "paused_until",
                       "paused_from", "played"]
    /// The most skips one record holds: `wake skip --count` takes at most this many.
    public static let skipsKept = 400

    public static func parse(_ text: String) throws(AlarmBook.ParseError) -> [String: AlarmRecord] {
        typealias ParseError = AlarmBook.ParseError
        var records: [String: AlarmRecord] = [:]
        var current: AlarmRecord?
        var keysSeen: Set<String> = []
        for (number, scalars) in TOMLSubset.lines(text) {
            func fail(_ m: String) -> ParseError { ParseError(line: number, message: m) }
            switch try TOMLSubset.parseLine(scalars, number: number, scalars: true) {
            case .blank:
                continue
            case .table(let parts):
                if let r = current { records[r.name] = r }
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
                if case .array(let items) = value {
                    guard key == "skips" else { throw fail("\(key) takes a string in double quotes, not an array") }
                    guard items.count <= skipsKept else { throw fail("skips holds more than \(skipsKept) times; remove some") }
                    var skips: [Instant] = []
                    for item in items {
                        guard let t = TOMLSubset.instant(item) else {
                            throw fail("skips must hold UTC times such as \"2026-11-23T03:00:00Z\", not \"\(item.printable)\"")
                        }
                        skips.append(t)
                    }
                    current!.skips = Array(Set(current!.skips + skips)).sorted()
                    continue
                }
                if key == "skips" { throw fail("skips takes an array of UTC times, as [\"2026-11-23T03:00:00Z\"]") }
                guard case .string(let s) = value else {
                    if case .array = value { throw fail("\(key) takes a string in double quotes, not an array") }
                    throw fail("\(key) takes a UTC time in double quotes, as \"2026-11-23T03:00:00Z\"")
                }
                guard let t = TOMLSubset.instant(s) else {
                    throw fail("\(key) must be a UTC time such as \"2026-11-23T03:00:00Z\", not \"\(s.printable)\"")
                }
                switch key {
                case "fired": current!.lastFired = t
                case "skip": current!.skips = Array(Set(current!.skips + [t])).sorted()
                case "missed": current!.missed = t
                case "skipped": current!.lastSkipped = t
                case "ringing_since": current!.ringingSince = t
                case "paused_until": current!.pausedUntil = t
                case "paused_from": current!.pausedFrom = t
                default: current!.snoozedUntil = t
                }
            }
        }
        if let r = current { records[r.name] = r }
        return records
    }

    /// The file for `records` (keyed by name), in name order, a table for each, empty ones too.
    public static func serialize(_ records: [String: AlarmRecord]) -> String {
        var out = header
        for (name, r) in records.sorted(by: { $0.key < $1.key }) {
            out += "\n[\(name)]\n"
            let values: [(String, Instant?)] = [("fired", r.lastFired), ("missed", r.missed),
                                                 ("snoozed_until", r.snoozedUntil), ("skipped", r.lastSkipped),
                                                 ("ringing_since", r.ringingSince), ("paused_until", r.pausedUntil),
                                                 ("paused_from", r.pausedFrom)]
            for case let (key, t?) in values { out += "\(key) = \"\(TOMLSubset.instantText(t))\"\n" }
            if !r.skips.isEmpty {
                out += "skips = [" + r.skips.map { "\"\(TOMLSubset.instantText($0))\"" }.joined(separator: ", ") + "]\n"
            }
            if r.crashedRings > 0 { out += "crashed_rings = \(r.crashedRings)\n" }
            if !r.played.isEmpty { out += "played = [" + r.played.map(TOMLSubset.quoted).joined(separator: ", ") + "]\n" }
        }
        return out
    }
}
