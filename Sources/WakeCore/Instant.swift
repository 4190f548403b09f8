/// A point on the UTC time line, in nanoseconds since the Unix epoch.
///
/// Plain integers rather than Foundation's `Date` so the core stays free of any clock and
/// the arithmetic is exact (Int64 nanoseconds reach the year 2262). Beyond that the arithmetic
/// saturates at the ends of the range rather than trapping: an instant computed from a hostile
/// zone or date then lies far outside every accepted range and is refused, never a crash.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    /// The earliest and latest instants representable (1677-09-21 and 2262-04-11).
    public static let distantPast = Instant(nanoseconds: .min)
    public static let distantFuture = Instant(nanoseconds: .max)

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    public init(seconds: Int64, nanoseconds: Int64 = 0) {
        self.nanoseconds = seconds.times(1_000_000_000).plus(nanoseconds)
    }

    /// Whole seconds, rounded towards the past (so 1.5 s before the epoch is -2).
    public var seconds: Int64 { nanoseconds.floorDivided(by: 1_000_000_000).quotient }
    /// The nanoseconds past `seconds`, always 0..<1e9.
    public var nanosecondOfSecond: Int64 { nanoseconds.floorDivided(by: 1_000_000_000).remainder }

    public static func < (a: Instant, b: Instant) -> Bool { a.nanoseconds < b.nanoseconds }
    public static func + (a: Instant, d: Duration) -> Instant { Instant(nanoseconds: a.nanoseconds.plus(d.nanoseconds)) }
    public static func - (a: Instant, d: Duration) -> Instant { Instant(nanoseconds: a.nanoseconds.minus(d.nanoseconds)) }
    public static func - (a: Instant, b: Instant) -> Duration { .nanoseconds(a.nanoseconds.minus(b.nanoseconds)) }

    public var description: String { "Instant(\(nanoseconds)ns)" }
}

extension Duration {
    /// The whole duration in nanoseconds (saturating: our spans are far below 292 years).
    public var nanoseconds: Int64 {
        let (s, atto) = components
        return s.times(1_000_000_000).plus(atto / 1_000_000_000)
    }

    /// Whole milliseconds, rounded towards zero.
    public var milliseconds: Int64 { nanoseconds / 1_000_000 }

    /// Whole seconds, rounded up: what a person waiting wants to see ("29s", not "28s", when 28.6 s remain).
    public var secondsRoundedUp: Int64 {
        let ns = nanoseconds
        // Towards zero for negative spans (as before), up for positive ones; no negation of Int64.min.
        return ns <= 0 ? ns / 1_000_000_000 : ns / 1_000_000_000 + (ns % 1_000_000_000 == 0 ? 0 : 1)
    }
}
