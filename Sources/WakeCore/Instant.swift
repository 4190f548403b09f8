/// A point on the UTC time line, in nanoseconds since the Unix epoch.
///
/// Plain integers rather than Foundation's `Date` so the core stays free of any clock and
/// the arithmetic is exact (Int64 nanoseconds reach the year 2262).
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }
    public init(seconds: Int64, nanoseconds: Int64 = 0) {
        self.nanoseconds = seconds * 1_000_000_000 + nanoseconds
    }

    /// Whole seconds, rounded towards the past (so 1.5 s before the epoch is -2).
    public var seconds: Int64 {
        nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : -((-nanoseconds + 999_999_999) / 1_000_000_000)
    }
    /// The nanoseconds past `seconds`, always 0..<1e9.
    public var nanosecondOfSecond: Int64 { nanoseconds - seconds * 1_000_000_000 }

    public static func < (a: Instant, b: Instant) -> Bool { a.nanoseconds < b.nanoseconds }
    public static func + (a: Instant, d: Duration) -> Instant { Instant(nanoseconds: a.nanoseconds + d.nanoseconds) }
    public static func - (a: Instant, d: Duration) -> Instant { Instant(nanoseconds: a.nanoseconds - d.nanoseconds) }
    public static func - (a: Instant, b: Instant) -> Duration { .nanoseconds(a.nanoseconds - b.nanoseconds) }

    public var description: String { "Instant(\(nanoseconds)ns)" }
}

extension Duration {
    /// The whole duration in nanoseconds (saturating: our spans are far below 292 years).
    public var nanoseconds: Int64 {
        let (s, atto) = components
        let (ns, overflow) = s.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return s < 0 ? Int64.min : Int64.max }
        return ns &+ atto / 1_000_000_000
    }

    /// Whole milliseconds, rounded towards zero.
    public var milliseconds: Int64 { nanoseconds / 1_000_000 }

    /// Whole seconds, rounded up: what a person waiting wants to see ("29s", not "28s", when 28.6 s remain).
    public var secondsRoundedUp: Int64 {
        let ns = nanoseconds
        return ns <= 0 ? -((-ns) / 1_000_000_000) : (ns + 999_999_999) / 1_000_000_000
    }
}
