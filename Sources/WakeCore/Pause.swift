/// One `wake pause`: every occurrence from `from` up to (not including) `until` passes quietly.
/// `from` nil: the pause was on when it was set, and covers whatever came before it too (an
/// occurrence that passed while no daemon ran stays quiet, rather than ringing late).
public struct Pause: Hashable, Sendable, Comparable {
    public var from: Instant?
    public var until: Instant

    public init(from: Instant? = nil, until: Instant) { self.from = from; self.until = until }

    /// Its start, or the earliest instant when it has none.
    public var start: Instant { from ?? Instant(nanoseconds: .min) }

    public func contains(_ t: Instant) -> Bool { t >= start && t < until }

    /// Whether it has begun at `now` (it may have ended, too).
    public func hasBegun(at now: Instant) -> Bool { start <= now }

    /// Whether the two share an instant or one ends where the other starts: one pause, then.
    func meets(_ other: Pause) -> Bool { start <= other.until && other.start <= until }

    public static func < (a: Pause, b: Pause) -> Bool { (a.start, a.until) < (b.start, b.until) }

    /// What adding a pause to those there did.
    public enum Outcome: Equatable, Sendable {
        /// Kept beside the others, which it does not touch.
        case added
        /// Joined with these (it overlapped or touched them) into one pause, `into`.
        case joined([Pause], into: Pause)
        /// Already inside this one: nothing changed.
        case covered(by: Pause)
    }

    /// `pauses` with `new` added: a pause that overlaps or touches others is joined with them
    /// into one from the earliest start to the latest end, so the list never holds two pauses
    /// over one instant, and a second `wake pause` never erases the first.
    public static func adding(_ new: Pause, to pauses: [Pause]) -> (pauses: [Pause], outcome: Outcome) {
        if let p = pauses.first(where: { $0.start <= new.start && new.until <= $0.until }) { return (pauses, .covered(by: p)) }
        let meeting = pauses.filter { $0.meets(new) }
        guard !meeting.isEmpty else { return ((pauses + [new]).sorted(), .added) }
        let all = meeting + [new]
        let joined = Pause(from: all.contains { $0.from == nil } ? nil : all.compactMap(\.from).min(), until: all.map(\.until).max()!)
        return ((pauses.filter { !$0.meets(new) } + [joined]).sorted(), .joined(meeting, into: joined))
    }

    /// `2026-12-21T00:00:00Z/2027-01-04T00:00:00Z`, or the end alone when it has no start: the
    /// history file's form.
    public var text: String {
        (from.map { TOMLSubset.instantText($0) + "/" } ?? "") + TOMLSubset.instantText(until)
    }

    /// The local date it starts on in `zone`, as `--on` takes it (`2026-12-21`); nil without a start.
    public func startDay(in zone: TimeZoneRules) -> String? { from.map { TOMLSubset.dateText(zone.localTime(at: $0).date) } }

    /// Whether `text` is a FROM/UNTIL pair of one instant (as an earlier wake's resume at a
    /// pause's very start wrote): it covers nothing, so it is skipped rather than costing the
    /// record's other pauses. A start after its end is a mistake, said.
    public static func isEmpty(_ text: String) -> Bool {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let from = TOMLSubset.instant(String(parts[0])), let until = TOMLSubset.instant(String(parts[1])) else {
            return false
        }
        return from == until
    }

    /// A pause in `text`'s form; nil if it is not one (or its start is not before its end).
    public static func parse(_ text: String) -> Pause? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count <= 2, let until = TOMLSubset.instant(String(parts[parts.count - 1])) else { return nil }
        guard parts.count == 2 else { return Pause(until: until) }
        guard let from = TOMLSubset.instant(String(parts[0])), from < until else { return nil }
        return Pause(from: from, until: until)
    }
}
