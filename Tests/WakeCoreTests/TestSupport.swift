import Foundation
import Testing
import WakeCore

/// Helpers shared by the WakeCore tests: zones from the system tz database, and instants
/// written as UTC calendar readings so expectations never depend on the code under test.

struct MissingZoneFile: Error, CustomStringConvertible {
    var path: String
    var description: String { "cannot read \(path)" }
}

/// A zone read from `/usr/share/zoneinfo`, the way the executable reads `/etc/localtime`.
func zone(_ name: String) throws -> TimeZoneRules {
    let path = "/usr/share/zoneinfo/" + name
    guard let data = FileManager.default.contents(atPath: path) else { throw MissingZoneFile(path: path) }
    return try TimeZoneRules(name: name, tzif: Array(data))
}

/// The raw bytes of a TZif file.
func zoneBytes(_ name: String) throws -> [UInt8] {
    let path = "/usr/share/zoneinfo/" + name
    guard let data = FileManager.default.contents(atPath: path) else { throw MissingZoneFile(path: path) }
    return Array(data)
}

/// A zone given as a POSIX `TZ` string.
func posixZone(_ rule: String) throws -> TimeZoneRules {
    TimeZoneRules(name: rule, posix: try PosixTimeZoneRule(rule))
}

/// The instant at a UTC calendar reading, plus `ns` nanoseconds.
func utc(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0, ns: Int64 = 0) -> Instant {
    Instant(seconds: local(y, mo, d, h, mi, s).secondsAsIfUTC, nanoseconds: ns)
}

/// A wall-clock reading.
func local(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> LocalDateTime {
    LocalDateTime(date: CivilDate(year: y, month: mo, day: d), hour: h, minute: mi, second: s)
}

/// Seconds since the epoch of a UTC calendar reading.
func utcSeconds(_ y: Int, _ mo: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0) -> Int64 {
    local(y, mo, d, h, mi, s).secondsAsIfUTC
}

/// The local date in UTC of `t`: a skip as the history keeps it, for tests in UTC.
func utcDay(_ t: Instant) -> CivilDate { TimeZoneRules.utc.localTime(at: t).date }
