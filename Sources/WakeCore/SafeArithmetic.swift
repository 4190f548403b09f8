/// Saturating Int64 arithmetic for values that come from users and files.
///
/// Swift traps on overflow, which would turn a hostile `TZ` or TZif file into a crash (SIGILL)
/// before the alarm is even set. Every sum or product over such values goes through these:
/// a saturated result is out of any range the callers accept, so it is refused or clamped
/// further on instead of wrapping into a plausible-looking wrong time.
extension Int64 {
    @inlinable func plus(_ other: Int64) -> Int64 {
        let (r, o) = addingReportingOverflow(other)
        return o ? (other > 0 ? .max : .min) : r
    }

    @inlinable func minus(_ other: Int64) -> Int64 {
        let (r, o) = subtractingReportingOverflow(other)
        return o ? (other > 0 ? .min : .max) : r
    }

    @inlinable func times(_ other: Int64) -> Int64 {
        let (r, o) = multipliedReportingOverflow(by: other)
        return o ? ((self < 0) == (other < 0) ? .max : .min) : r
    }

    /// Division rounding towards minus infinity, with a remainder in `0..<d` (d > 0).
    @inlinable func floorDivided(by d: Int64) -> (quotient: Int64, remainder: Int64) {
        let q = self / d, r = self % d
        return r < 0 ? (q - 1, r + d) : (q, r)
    }

    @inlinable func clamped(to range: ClosedRange<Int64>) -> Int64 { Swift.min(Swift.max(self, range.lowerBound), range.upperBound) }
}
